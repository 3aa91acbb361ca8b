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
#include <openssl/provider.h>
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
// RSA public keys made from their numbers, as low-level RSA objects for RSASSA-PKCS1-v1_5
// verification: RSA_verify is the function OpenSSL's provider calls for that padding, so the
// checks (signature length, the DigestInfo compared whole) are unchanged, and a freshly
// imported key skips EVP_PKEY_fromdata and the EVP_PKEY_CTX set-up (a TPM registration with
// two such keys: 128 -> 104 µs in the WebAuthn peer benchmark, docs/performance.md).
/// A new RSA public key with modulus `n` and exponent `e` (big-endian), or NULL.
static inline RSA *fido2_rsa_public_key(const unsigned char *n, int n_length,
                                        const unsigned char *e, int e_length) {
    BIGNUM *modulus = BN_bin2bn(n, n_length, NULL);
    BIGNUM *exponent = BN_bin2bn(e, e_length, NULL);
    RSA *key = RSA_new();
    if (modulus == NULL || exponent == NULL || key == NULL ||
        RSA_set0_key(key, modulus, exponent, NULL) != 1) {
        BN_free(modulus);
        BN_free(exponent);
        RSA_free(key);
        return NULL;
    }
    return key;
}
static inline void fido2_rsa_free(RSA *key) { RSA_free(key); }
/// The modulus size in bytes: the only signature length RSA_verify accepts.
static inline int fido2_rsa_size(const RSA *key) { return RSA_size(key); }
/// 1 when `signature` is a valid RSASSA-PKCS1-v1_5 signature of `digest`, a digest of the
/// algorithm `digest_nid`, under `key`; 0 otherwise.
static inline int fido2_rsa_pkcs1_verify(int digest_nid, const unsigned char *digest,
                                         unsigned int digest_length,
                                         const unsigned char *signature,
                                         unsigned int signature_length, RSA *key) {
    return RSA_verify(digest_nid, digest, digest_length, signature, signature_length, key) == 1;
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

// Certificates without OpenSSL 3.0's SubjectPublicKeyInfo decoder. d2i_X509 decodes the
// certificate's key through an OSSL_DECODER_CTX that OpenSSL 3.0 and 3.1 build from every
// decoder and key manager of the provider on each call: about 130 µs of a 150 µs parse. fido2kit
// reads the key itself (the formats it imports from points and components) and hands it to the
// certificate. Two functions below rely on the first five members of OpenSSL 3's X509_PUBKEY
// (crypto/x509/x_pubkey.c: algor, public_key, pkey, libctx, propq; provider projects such as
// oqs-provider copy the same struct), and check that layout through the public accessors
// before writing anything: when the check fails they do nothing and fido2kit parses with
// d2i_X509 alone.
struct fido2_x509_pubkey_prefix {
    X509_ALGOR *algor;
    ASN1_BIT_STRING *public_key;
    EVP_PKEY *pkey;
    OSSL_LIB_CTX *libctx;
    char *propq;
};
/// Whether `key`'s first members are the ones the accessors report (and pkey is `expected`).
static inline int fido2_x509_pubkey_layout_holds(X509 *certificate, EVP_PKEY *expected,
                                                 OSSL_LIB_CTX *expected_libctx) {
    X509_PUBKEY *key = X509_get_X509_PUBKEY(certificate);
    if (key == NULL) return 0;
    X509_ALGOR *algorithm = NULL;
    if (X509_PUBKEY_get0_param(NULL, NULL, NULL, &algorithm, key) != 1) return 0;
    const struct fido2_x509_pubkey_prefix *prefix = (const struct fido2_x509_pubkey_prefix *)key;
    return algorithm != NULL && prefix->algor == algorithm
           && prefix->public_key == X509_get0_pubkey_bitstr(certificate)
           && prefix->pkey == expected && prefix->libctx == expected_libctx
           && prefix->propq == NULL;
}
/// Parses `length` bytes at `*in` as d2i_X509 does (advancing `*in`), except that the key is
/// decoded in `keyless`, a library context with only the null provider, so it stays unset;
/// the certificate itself keeps the default context, which verifies its signature. NULL when
/// d2i_X509 refuses the input; `*layout` is 0 (and nothing is parsed) when the layout check
/// fails.
static inline X509 *fido2_d2i_x509_keyless(const unsigned char **in, long length,
                                           OSSL_LIB_CTX *keyless, int *layout) {
    *layout = 0;
    X509 *certificate = X509_new();
    if (certificate == NULL) return NULL;
    if (!fido2_x509_pubkey_layout_holds(certificate, NULL, NULL)) {
        X509_free(certificate);
        return NULL;
    }
    *layout = 1;
    ((struct fido2_x509_pubkey_prefix *)X509_get_X509_PUBKEY(certificate))->libctx = keyless;
    // As d2i_X509 without its extension cache, which X509_check_purpose fills once the key is
    // set (whether a certificate is self-signed depends on its key). On failure the object it
    // was given is freed.
    if (ASN1_item_d2i((ASN1_VALUE **)&certificate, in, length, X509_it()) == NULL) return NULL;
    if (!fido2_x509_pubkey_layout_holds(certificate, NULL, keyless)) {
        // Decoded in the null provider's context, the key cannot be set; anything else here
        // means the layout is not the expected one: refuse rather than guess.
        *layout = 0;
        X509_free(certificate);
        return NULL;
    }
    ((struct fido2_x509_pubkey_prefix *)X509_get_X509_PUBKEY(certificate))->libctx = NULL;
    return certificate;
}
/// Sets the key of a certificate from fido2_d2i_x509_keyless to `key` (taking a reference,
/// which the certificate frees). 1 on success; 0, changing nothing, when the certificate
/// already has a key or the layout check fails.
static inline int fido2_x509_set_public_key(X509 *certificate, EVP_PKEY *key) {
    if (!fido2_x509_pubkey_layout_holds(certificate, NULL, NULL)) return 0;
    if (EVP_PKEY_up_ref(key) != 1) return 0;
    ((struct fido2_x509_pubkey_prefix *)X509_get_X509_PUBKEY(certificate))->pkey = key;
    return X509_get0_pubkey(certificate) == key;
}

#endif
