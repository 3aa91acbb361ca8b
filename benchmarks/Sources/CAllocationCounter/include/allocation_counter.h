// Counts calls to malloc, calloc, realloc, posix_memalign, aligned_alloc and memalign made by any
// code in the process (Swift runtime, OpenSSL, libcbor) while counting is enabled.
#ifndef FIDO2KIT_ALLOCATION_COUNTER_H
#define FIDO2KIT_ALLOCATION_COUNTER_H
#include <stdint.h>

/// Starts counting from zero.
void allocation_counter_start(void);
/// Stops counting and returns the number of allocations since the last start.
int64_t allocation_counter_stop(void);

#endif
