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
#include <openssl/sha.h>
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

// ECDSA public keys as low-level EC_KEYs (deprecated in OpenSSL 3.0, still supported): a key
// made from a point and checked with ECDSA_verify needs no EVP_PKEY_CTX, which saves about 3 µs
// of provider set-up per freshly imported key. EC_KEY_oct2key and ECDSA_verify are the very
// functions OpenSSL's provider calls, so validation and strict DER are unchanged.
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wdeprecated-declarations"
/// A new EC_KEY on a copy of `group` with the SEC 1 point `point` (checked to be on the curve),
/// or NULL. `*refused` is 1 when the point itself was refused, 0 on other failures.
static inline EC_KEY *fido2_ec_key_from_point(const EC_GROUP *group, const unsigned char *point,
                                              size_t length, int *refused) {
    *refused = 0;
    EC_KEY *key = EC_KEY_new();
    if (key == NULL) return NULL;
    if (EC_KEY_set_group(key, group) != 1) {
        EC_KEY_free(key);
        return NULL;
    }
    if (EC_KEY_oct2key(key, point, length, NULL) != 1) {
        *refused = 1;
        EC_KEY_free(key);
        return NULL;
    }
    return key;
}
static inline void fido2_ec_key_free(EC_KEY *key) { EC_KEY_free(key); }
/// Writes the key's point uncompressed into `out`; returns its length, 0 on failure.
static inline size_t fido2_ec_key_uncompressed_point(const EC_KEY *key, unsigned char *out,
                                                     size_t capacity) {
    return EC_POINT_point2oct(EC_KEY_get0_group(key), EC_KEY_get0_public_key(key),
                              POINT_CONVERSION_UNCOMPRESSED, out, capacity, NULL);
}
/// 1 when `signature` (strict DER) is valid for `digest` under `key`, 0 or -1 otherwise.
static inline int fido2_ecdsa_verify(const unsigned char *digest, int digest_length,
                                     const unsigned char *signature, int signature_length,
                                     EC_KEY *key) {
    return ECDSA_verify(0, digest, digest_length, signature, signature_length, key);
}
#pragma GCC diagnostic pop

#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wdeprecated-declarations"
// One-shot SHA-1 and SHA-2 over one or two pieces through OpenSSL's block functions
// (deprecated in 3.0, still supported): the default provider runs these very functions, but an
// EVP_Digest call also allocates and frees an EVP_MD_CTX and the provider's context, which costs
// about a third of hashing a 200-byte clientDataJSON. The context lives on the stack and is wiped.
// One case of fido2_digest_pieces: init, both pieces, final, then wipe the stack context.
#define FIDO2_DIGEST_CASE(KIND, CONTEXT, INIT, UPDATE, FINAL)                                   \
    case KIND: {                                                                               \
        CONTEXT context;                                                                       \
        ok = INIT(&context) && UPDATE(&context, first, first_length)                          \
             && UPDATE(&context, second, second_length) && FINAL(out, &context);              \
        OPENSSL_cleanse(&context, sizeof context);                                             \
        break;                                                                                 \
    }
/// Writes the digest of `first ‖ second` into `out` (room for the digest); `kind` is 1 (SHA-1),
/// 256, 384 or 512. Returns 1 on success, 0 for an unknown kind or a failure.
static inline int fido2_digest_pieces(int kind, const void *first, size_t first_length,
                                      const void *second, size_t second_length,
                                      unsigned char *out) {
    int ok = 0;
    switch (kind) {
    FIDO2_DIGEST_CASE(1, SHA_CTX, SHA1_Init, SHA1_Update, SHA1_Final)
    FIDO2_DIGEST_CASE(256, SHA256_CTX, SHA256_Init, SHA256_Update, SHA256_Final)
    FIDO2_DIGEST_CASE(384, SHA512_CTX, SHA384_Init, SHA384_Update, SHA384_Final)
    FIDO2_DIGEST_CASE(512, SHA512_CTX, SHA512_Init, SHA512_Update, SHA512_Final)
    default:
        break;
    }
    return ok;
}
#undef FIDO2_DIGEST_CASE
#pragma GCC diagnostic pop

#endif
