// libcbor, the differential oracle for fido2kit's CBOR tests. Never used by the library itself.
#ifndef FIDO2KIT_CLIBCBOR_SHIM_H
#define FIDO2KIT_CLIBCBOR_SHIM_H
#include <cbor.h>
#endif
