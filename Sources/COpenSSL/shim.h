// The OpenSSL 3 headers fido2kit's crypto module calls into. Function-like macros do not import
// into Swift, so the few we need are re-exposed here as inline functions.
#ifndef FIDO2KIT_COPENSSL_SHIM_H
#define FIDO2KIT_COPENSSL_SHIM_H

#include <openssl/bn.h>
#include <openssl/core_names.h>
#include <openssl/crypto.h>
#include <openssl/ec.h>
#include <openssl/ecdsa.h>
#include <openssl/err.h>
#include <openssl/evp.h>
#include <openssl/hmac.h>
#include <openssl/kdf.h>
#include <openssl/obj_mac.h>
#include <openssl/objects.h>
#include <openssl/param_build.h>
#include <openssl/params.h>
#include <openssl/pem.h>
#include <openssl/rand.h>
#include <openssl/rsa.h>
#include <openssl/x509.h>
#include <openssl/x509_vfy.h>
#include <openssl/x509v3.h>

// Function-like macros re-exposed for Swift (used by Fido2Crypto).
static inline void fido2_openssl_free(void *pointer) { OPENSSL_free(pointer); }
static inline void fido2_openssl_clear_free(void *pointer, size_t count) {
    OPENSSL_clear_free(pointer, count);
}
static inline int fido2_bn_num_bytes(const BIGNUM *bn) { return BN_num_bytes(bn); }
static inline long fido2_bio_get_mem_data(BIO *bio, char **data) {
    return BIO_get_mem_data(bio, data);
}

// Key selections are OR-ed macros, which Swift does not import.
static const int fido2_evp_pkey_public_key = EVP_PKEY_PUBLIC_KEY;
static const int fido2_evp_pkey_keypair = EVP_PKEY_KEYPAIR;

#endif
