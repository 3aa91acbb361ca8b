// Plain C loops over the same OpenSSL 3 calls fido2kit's crypto module makes, written the fastest
// way a C programmer would: algorithms fetched once, contexts and keys cached, prehashed signing.
#ifndef FIDO2KIT_OPENSSL_PEER_H
#define FIDO2KIT_OPENSSL_PEER_H
#include <stddef.h>
#include <stdint.h>

typedef struct openssl_peer openssl_peer;

/// Creates the peer from PKCS#8 DER keys (P-256 and RSA), caching every context it needs.
/// Returns NULL on failure.
openssl_peer *openssl_peer_create(const uint8_t *p256_pkcs8, size_t p256_length,
                                  const uint8_t *rsa_pkcs8, size_t rsa_length);
void openssl_peer_destroy(openssl_peer *peer);

/// SHA-256 with a reused EVP_MD_CTX and the cached EVP_MD.
int openssl_peer_sha256(openssl_peer *peer, const uint8_t *data, size_t length, uint8_t *out);

/// SHA-256 through OpenSSL's block functions on a stack context, wiped afterwards (the calls
/// fido2kit's one-shot digests make).
int openssl_peer_sha256_blocks(const uint8_t *data, size_t length, uint8_t *out);

/// ES256 over `message` (SHA-256, then EVP_PKEY_sign with a cached context); returns the DER
/// signature's length, 0 on failure.
size_t openssl_peer_es256_sign(openssl_peer *peer, const uint8_t *message, size_t length,
                               uint8_t *signature, size_t capacity);
/// 1 when `signature` verifies for `message` with the cached P-256 public key.
int openssl_peer_es256_verify(openssl_peer *peer, const uint8_t *message, size_t length,
                              const uint8_t *signature, size_t signature_length);
/// Imports an uncompressed P-256 point by duplicating a template key, then verifies with it.
int openssl_peer_es256_import_verify(openssl_peer *peer, const uint8_t *point,
                                     const uint8_t *message, size_t length,
                                     const uint8_t *signature, size_t signature_length);
/// ECDSA_verify with the cached EC_KEY over a SHA-256 computed on the stack: nothing shared is
/// written, so several threads may call it at once on one peer (the two-thread scaling loop).
int openssl_peer_es256_verify_concurrent(const openssl_peer *peer, const uint8_t *message,
                                         size_t length, const uint8_t *signature,
                                         size_t signature_length);
/// ES256 sign with the P-256 key through a signing context of the calling thread's own (made on
/// its first call), over a SHA-256 computed on the stack: safe on several threads at once.
size_t openssl_peer_es256_sign_concurrent(const openssl_peer *peer, const uint8_t *message,
                                          size_t length, uint8_t *signature, size_t capacity);
/// Imports an uncompressed P-256 point by duplicating a template key (and frees it).
int openssl_peer_p256_import(openssl_peer *peer, const uint8_t *point);
/// The low-level route: the P-256 key as an EC_KEY (on a copy of a cached EC_GROUP) and
/// ECDSA_verify, which is what OpenSSL's provider runs under EVP_PKEY_verify.
int openssl_peer_es256_verify_ec_key(openssl_peer *peer, const uint8_t *message, size_t length,
                                     const uint8_t *signature, size_t signature_length);
/// Imports an uncompressed P-256 point as an EC_KEY (and frees it).
int openssl_peer_p256_import_ec_key(openssl_peer *peer, const uint8_t *point);
/// Imports an uncompressed P-256 point as an EC_KEY, then verifies with ECDSA_verify.
int openssl_peer_es256_import_verify_ec_key(openssl_peer *peer, const uint8_t *point,
                                            const uint8_t *message, size_t length,
                                            const uint8_t *signature, size_t signature_length);
/// Generates (and frees) a P-256 key from a cached keygen context.
int openssl_peer_p256_keygen(openssl_peer *peer);

/// RS256 (RSASSA-PKCS1-v1_5, SHA-256) sign and verify with cached contexts.
size_t openssl_peer_rs256_sign(openssl_peer *peer, const uint8_t *message, size_t length,
                               uint8_t *signature, size_t capacity);
int openssl_peer_rs256_verify(openssl_peer *peer, const uint8_t *message, size_t length,
                              const uint8_t *signature, size_t signature_length);

#endif
