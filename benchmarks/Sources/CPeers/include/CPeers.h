// Every peer the benchmarks compare fido2kit with.
#include "libcbor_peer.h"
#include "openssl_floor.h"
#include "openssl_peer.h"
