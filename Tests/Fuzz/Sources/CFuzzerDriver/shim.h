// libFuzzer's driver entry point, from the runtime that `-sanitize=fuzzer` links
// (libclang_rt.fuzzer). Fuzz targets start it from their own `main` because SwiftPM renames an
// executable's entry point on Linux, which leaves libFuzzer's `main` unused.
#ifndef FIDO2KIT_FUZZ_DRIVER_SHIM_H
#define FIDO2KIT_FUZZ_DRIVER_SHIM_H
#include <stddef.h>
#include <stdint.h>
int LLVMFuzzerRunDriver(int *argc, char ***argv,
                        int (*UserCb)(const uint8_t *Data, size_t Size));
#endif
