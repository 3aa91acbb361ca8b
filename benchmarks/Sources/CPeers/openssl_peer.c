#include "openssl_peer.h"
#include <openssl/core_names.h>
#include <openssl/ec.h>
#include <openssl/ecdsa.h>
#include <openssl/evp.h>
#include <openssl/rsa.h>
#include <openssl/sha.h>
#include <openssl/x509.h>
#include <stdlib.h>

struct openssl_peer {
    EVP_MD *sha256;
    EVP_MD_CTX *digest;
    EVP_PKEY *p256;
    EVP_PKEY *p256_template;
    EVP_PKEY *rsa;
    EVP_PKEY_CTX *p256_sign;
    EVP_PKEY_CTX *p256_verify;
    EVP_PKEY_CTX *p256_keygen;
    EVP_PKEY_CTX *rsa_sign;
    EVP_PKEY_CTX *rsa_verify;
    // The low-level route (EC_KEY and ECDSA_verify, deprecated in 3.0 but present).
    EC_GROUP *p256_group;
    EC_KEY *p256_ec;
};

// The EC_KEY functions are deprecated in OpenSSL 3.0; the low-level route uses them on purpose.
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wdeprecated-declarations"

static EC_KEY *ec_key_from_point(const EC_GROUP *group, const uint8_t *point, size_t length) {
    EC_KEY *key = EC_KEY_new();
    if (key == NULL) return NULL;
    if (EC_KEY_set_group(key, group) != 1 || EC_KEY_oct2key(key, point, length, NULL) != 1) {
        EC_KEY_free(key);
        return NULL;
    }
    return key;
}

static void ec_key_free(EC_KEY *key) { EC_KEY_free(key); }

static int ecdsa_verify(const uint8_t *hash, size_t hash_length, const uint8_t *signature,
                        size_t signature_length, EC_KEY *key) {
    return ECDSA_verify(0, hash, (int)hash_length, signature, (int)signature_length, key) == 1;
}

#pragma GCC diagnostic pop

/// The public point of an EVP key as an EC_KEY on `group`.
static EC_KEY *ec_key_of(EVP_PKEY *key, const EC_GROUP *group) {
    uint8_t point[133];
    size_t length = 0;
    if (EVP_PKEY_get_octet_string_param(key, OSSL_PKEY_PARAM_ENCODED_PUBLIC_KEY, point,
                                        sizeof point, &length) != 1)
        return NULL;
    return ec_key_from_point(group, point, length);
}

static EVP_PKEY *load_pkcs8(const uint8_t *der, size_t length) {
    const unsigned char *cursor = der;
    return d2i_AutoPrivateKey(NULL, &cursor, (long)length);
}

static EVP_PKEY_CTX *rsa_context(EVP_PKEY *key, EVP_MD *md, int sign) {
    EVP_PKEY_CTX *context = EVP_PKEY_CTX_new_from_pkey(NULL, key, NULL);
    if (context == NULL) return NULL;
    int ok = (sign ? EVP_PKEY_sign_init(context) : EVP_PKEY_verify_init(context)) == 1 &&
             EVP_PKEY_CTX_set_rsa_padding(context, RSA_PKCS1_PADDING) == 1 &&
             EVP_PKEY_CTX_set_signature_md(context, md) == 1;
    if (!ok) {
        EVP_PKEY_CTX_free(context);
        return NULL;
    }
    return context;
}

openssl_peer *openssl_peer_create(const uint8_t *p256_pkcs8, size_t p256_length,
                                  const uint8_t *rsa_pkcs8, size_t rsa_length) {
    openssl_peer *peer = calloc(1, sizeof(openssl_peer));
    if (peer == NULL) return NULL;
    peer->sha256 = EVP_MD_fetch(NULL, "SHA256", NULL);
    peer->digest = EVP_MD_CTX_new();
    peer->p256 = load_pkcs8(p256_pkcs8, p256_length);
    peer->rsa = load_pkcs8(rsa_pkcs8, rsa_length);
    if (!peer->sha256 || !peer->digest || !peer->p256 || !peer->rsa) goto fail;
    peer->p256_sign = EVP_PKEY_CTX_new_from_pkey(NULL, peer->p256, NULL);
    peer->p256_verify = EVP_PKEY_CTX_new_from_pkey(NULL, peer->p256, NULL);
    if (!peer->p256_sign || EVP_PKEY_sign_init(peer->p256_sign) != 1) goto fail;
    if (!peer->p256_verify || EVP_PKEY_verify_init(peer->p256_verify) != 1) goto fail;
    peer->p256_keygen = EVP_PKEY_CTX_new_from_name(NULL, "EC", NULL);
    if (!peer->p256_keygen || EVP_PKEY_keygen_init(peer->p256_keygen) != 1 ||
        EVP_PKEY_CTX_set_group_name(peer->p256_keygen, "P-256") != 1)
        goto fail;
    // The import template: a P-256 public key whose point is replaced on each import.
    peer->p256_template = EVP_PKEY_new();
    if (!peer->p256_template || EVP_PKEY_copy_parameters(peer->p256_template, peer->p256) != 1)
        goto fail;
    peer->rsa_sign = rsa_context(peer->rsa, peer->sha256, 1);
    peer->rsa_verify = rsa_context(peer->rsa, peer->sha256, 0);
    if (!peer->rsa_sign || !peer->rsa_verify) goto fail;
    peer->p256_group = EC_GROUP_new_by_curve_name(NID_X9_62_prime256v1);
    if (!peer->p256_group) goto fail;
    peer->p256_ec = ec_key_of(peer->p256, peer->p256_group);
    if (!peer->p256_ec) goto fail;
    return peer;
fail:
    openssl_peer_destroy(peer);
    return NULL;
}

void openssl_peer_destroy(openssl_peer *peer) {
    if (peer == NULL) return;
    EVP_PKEY_CTX_free(peer->p256_sign);
    EVP_PKEY_CTX_free(peer->p256_verify);
    EVP_PKEY_CTX_free(peer->p256_keygen);
    EVP_PKEY_CTX_free(peer->rsa_sign);
    EVP_PKEY_CTX_free(peer->rsa_verify);
    ec_key_free(peer->p256_ec);
    EC_GROUP_free(peer->p256_group);
    EVP_PKEY_free(peer->p256);
    EVP_PKEY_free(peer->p256_template);
    EVP_PKEY_free(peer->rsa);
    EVP_MD_CTX_free(peer->digest);
    EVP_MD_free(peer->sha256);
    free(peer);
}

int openssl_peer_sha256(openssl_peer *peer, const uint8_t *data, size_t length, uint8_t *out) {
    unsigned int written = 0;
    return EVP_DigestInit_ex2(peer->digest, peer->sha256, NULL) == 1 &&
           EVP_DigestUpdate(peer->digest, data, length) == 1 &&
           EVP_DigestFinal_ex(peer->digest, out, &written) == 1;
}

int openssl_peer_sha256_blocks(const uint8_t *data, size_t length, uint8_t *out) {
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wdeprecated-declarations"
    SHA256_CTX context;
    int ok = SHA256_Init(&context) && SHA256_Update(&context, data, length) &&
             SHA256_Final(out, &context);
#pragma GCC diagnostic pop
    OPENSSL_cleanse(&context, sizeof context);
    return ok;
}

static size_t sign_prehashed(openssl_peer *peer, EVP_PKEY_CTX *context, const uint8_t *message,
                             size_t length, uint8_t *signature, size_t capacity) {
    uint8_t hash[32];
    if (!openssl_peer_sha256(peer, message, length, hash)) return 0;
    size_t written = capacity;
    return EVP_PKEY_sign(context, signature, &written, hash, sizeof hash) == 1 ? written : 0;
}

static int verify_prehashed(openssl_peer *peer, EVP_PKEY_CTX *context, const uint8_t *message,
                            size_t length, const uint8_t *signature, size_t signature_length) {
    uint8_t hash[32];
    if (!openssl_peer_sha256(peer, message, length, hash)) return 0;
    return EVP_PKEY_verify(context, signature, signature_length, hash, sizeof hash) == 1;
}

size_t openssl_peer_es256_sign(openssl_peer *peer, const uint8_t *message, size_t length,
                               uint8_t *signature, size_t capacity) {
    return sign_prehashed(peer, peer->p256_sign, message, length, signature, capacity);
}

int openssl_peer_es256_verify(openssl_peer *peer, const uint8_t *message, size_t length,
                              const uint8_t *signature, size_t signature_length) {
    return verify_prehashed(peer, peer->p256_verify, message, length, signature,
                            signature_length);
}

static EVP_PKEY *import_point(openssl_peer *peer, const uint8_t *point) {
    EVP_PKEY *key = EVP_PKEY_dup(peer->p256_template);
    if (key == NULL) return NULL;
    if (EVP_PKEY_set1_encoded_public_key(key, point, 65) != 1) {
        EVP_PKEY_free(key);
        return NULL;
    }
    return key;
}

int openssl_peer_p256_import(openssl_peer *peer, const uint8_t *point) {
    EVP_PKEY *key = import_point(peer, point);
    EVP_PKEY_free(key);
    return key != NULL;
}

int openssl_peer_es256_import_verify(openssl_peer *peer, const uint8_t *point,
                                     const uint8_t *message, size_t length,
                                     const uint8_t *signature, size_t signature_length) {
    EVP_PKEY *key = import_point(peer, point);
    if (key == NULL) return 0;
    EVP_PKEY_CTX *context = EVP_PKEY_CTX_new_from_pkey(NULL, key, NULL);
    int ok = context != NULL && EVP_PKEY_verify_init(context) == 1 &&
             verify_prehashed(peer, context, message, length, signature, signature_length);
    EVP_PKEY_CTX_free(context);
    EVP_PKEY_free(key);
    return ok;
}

int openssl_peer_es256_verify_ec_key(openssl_peer *peer, const uint8_t *message, size_t length,
                                     const uint8_t *signature, size_t signature_length) {
    uint8_t hash[32];
    if (!openssl_peer_sha256(peer, message, length, hash)) return 0;
    return ecdsa_verify(hash, sizeof hash, signature, signature_length, peer->p256_ec);
}

int openssl_peer_es256_verify_concurrent(const openssl_peer *peer, const uint8_t *message,
                                         size_t length, const uint8_t *signature,
                                         size_t signature_length) {
    uint8_t hash[32];
    if (!openssl_peer_sha256_blocks(message, length, hash)) return 0;
    return ecdsa_verify(hash, sizeof hash, signature, signature_length, peer->p256_ec);
}

size_t openssl_peer_es256_sign_concurrent(const openssl_peer *peer, const uint8_t *message,
                                          size_t length, uint8_t *signature, size_t capacity) {
    // One signing context per thread (made on the thread's first call, kept for the process),
    // as a C server would keep one per worker.
    static _Thread_local EVP_PKEY_CTX *context = NULL;
    static _Thread_local const openssl_peer *owner = NULL;
    if (owner != peer) {
        EVP_PKEY_CTX_free(context);
        context = EVP_PKEY_CTX_new_from_pkey(NULL, peer->p256, NULL);
        owner = peer;
        if (context == NULL || EVP_PKEY_sign_init(context) != 1) {
            EVP_PKEY_CTX_free(context);
            context = NULL;
            owner = NULL;
            return 0;
        }
    }
    uint8_t hash[32];
    if (!openssl_peer_sha256_blocks(message, length, hash)) return 0;
    size_t written = capacity;
    return EVP_PKEY_sign(context, signature, &written, hash, sizeof hash) == 1 ? written : 0;
}

int openssl_peer_p256_import_ec_key(openssl_peer *peer, const uint8_t *point) {
    EC_KEY *key = ec_key_from_point(peer->p256_group, point, 65);
    ec_key_free(key);
    return key != NULL;
}

int openssl_peer_es256_import_verify_ec_key(openssl_peer *peer, const uint8_t *point,
                                            const uint8_t *message, size_t length,
                                            const uint8_t *signature, size_t signature_length) {
    EC_KEY *key = ec_key_from_point(peer->p256_group, point, 65);
    if (key == NULL) return 0;
    uint8_t hash[32];
    int ok = openssl_peer_sha256(peer, message, length, hash) &&
             ecdsa_verify(hash, sizeof hash, signature, signature_length, key);
    ec_key_free(key);
    return ok;
}

int openssl_peer_p256_keygen(openssl_peer *peer) {
    EVP_PKEY *key = NULL;
    int ok = EVP_PKEY_generate(peer->p256_keygen, &key) == 1;
    EVP_PKEY_free(key);
    return ok;
}

size_t openssl_peer_rs256_sign(openssl_peer *peer, const uint8_t *message, size_t length,
                               uint8_t *signature, size_t capacity) {
    return sign_prehashed(peer, peer->rsa_sign, message, length, signature, capacity);
}

int openssl_peer_rs256_verify(openssl_peer *peer, const uint8_t *message, size_t length,
                              const uint8_t *signature, size_t signature_length) {
    return verify_prehashed(peer, peer->rsa_verify, message, length, signature,
                            signature_length);
}
