// The floor of each relying-party path: the OpenSSL 3.0 calls that path cannot avoid, in a plain
// C function over raw bytes that the benchmark parses out of the same response once, outside
// the timed loop. fido2kit's row for the path is judged against it (≤ 1.25x).
#ifndef FIDO2KIT_OPENSSL_FLOOR_H
#define FIDO2KIT_OPENSSL_FLOOR_H
#include <stddef.h>
#include <stdint.h>

typedef struct openssl_floor openssl_floor;

/// Caches the P-256 group and, when `root_der` is not NULL, the configured root (parsed, its
/// key decoded) as a relying party keeps them. Returns NULL on failure.
openssl_floor *openssl_floor_create(const uint8_t *root_der, size_t root_length);
void openssl_floor_destroy(openssl_floor *floor);

/// ES256 over `signed_data || SHA-256(client_data)` with the P-256 key (x, y) of a COSE key,
/// 32 bytes each: EC_KEY_new + EC_KEY_set_group (cached group) + EC_KEY_oct2key of 04||x||y
/// (the point import, with its on-curve check); SHA256_Init/Update/Final of client_data;
/// SHA256_Init/Update(signed_data)/Update(hash)/Final; ECDSA_verify. 1 when it verifies. The
/// assertion (signed_data = authenticatorData) and packed self-attestation (the attestation's
/// authenticatorData) floors.
int openssl_floor_es256(const openssl_floor *floor, const uint8_t *x, const uint8_t *y,
                        const uint8_t *client_data, size_t client_data_length,
                        const uint8_t *signed_data, size_t signed_data_length,
                        const uint8_t *signature, size_t signature_length);

/// Packed attestation with x5c = [leaf, intermediate] to the configured root: d2i_X509 of both
/// certificates; the chain as the two signature checks X509_verify_cert would make
/// (X509_verify(intermediate, root key), X509_verify(leaf, X509_get0_pubkey(intermediate)));
/// the leaf's P-256 point from X509_get0_pubkey_bitstr into an EC_KEY (EC_KEY_oct2key);
/// SHA-256 of client_data, SHA-256 of auth_data || that hash; ECDSA_verify. 1 when it verifies.
int openssl_floor_packed_x5c(const openssl_floor *floor, const uint8_t *leaf, size_t leaf_length,
                             const uint8_t *intermediate, size_t intermediate_length,
                             const uint8_t *client_data, size_t client_data_length,
                             const uint8_t *auth_data, size_t auth_data_length,
                             const uint8_t *signature, size_t signature_length);

/// TPM attestation, statement only (no chain): d2i_X509 of the AIK certificate; SHA-256 of
/// client_data; the `alg` digest (`sig_hash` 1 = SHA-1, 256 = SHA-256) of auth_data || that
/// hash, compared with certInfo's extraData; the pubArea's nameAlg digest of pubArea, compared
/// with certInfo's attested name; the `alg` digest of certInfo; the AIK's RSA key from
/// X509_get0_pubkey_bitstr (d2i_RSAPublicKey) and RSA_verify. 1 when it verifies.
int openssl_floor_tpm(const openssl_floor *floor, const uint8_t *aik, size_t aik_length,
                      const uint8_t *client_data, size_t client_data_length,
                      const uint8_t *auth_data, size_t auth_data_length,
                      const uint8_t *cert_info, size_t cert_info_length,
                      const uint8_t *pub_area, size_t pub_area_length, int sig_hash,
                      const uint8_t *signature, size_t signature_length);

#endif
