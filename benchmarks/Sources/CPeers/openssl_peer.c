#include "openssl_peer.h"
#include <openssl/core_names.h>
#include <openssl/evp.h>
#include <openssl/rsa.h>
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
};

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
