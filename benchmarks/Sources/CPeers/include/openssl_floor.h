// The floor of each relying-party path: the OpenSSL 3.0 calls that path cannot avoid, in a plain
// C function over raw bytes that the benchmark parses out of the same response once, outside
// the timed loop. fido2kit's row for the path is judged against it (≤ 1.25x).
#ifndef FIDO2KIT_OPENSSL_FLOOR_H
#define FIDO2KIT_OPENSSL_FLOOR_H
#include <stddef.h>
#include <stdint.h>

typedef struct openssl_floor openssl_floor;

/// One certificate of a chain as the floor needs it, parsed out of the DER by the caller once
/// (outside the timed loop): the TBSCertificate's full DER (the signed bytes), the signature
/// (ecdsa-with-SHA256: the BIT STRING's contents, a DER Ecdsa-Sig-Value) and the subject's
/// P-256 key as an uncompressed point 04||x||y (65 bytes) from its SubjectPublicKeyInfo.
typedef struct {
    const uint8_t *tbs;
    size_t tbs_length;
    const uint8_t *signature;
    size_t signature_length;
    const uint8_t *point;
    size_t point_length;
} openssl_floor_certificate;

/// Caches the P-256 group and, when `root_point` is not NULL, the configured root's P-256 key
/// (its uncompressed point, EC_KEY_oct2key), imported once as a relying party keeps its
/// configured roots. Returns NULL on failure.
openssl_floor *openssl_floor_create(const uint8_t *root_point, size_t root_point_length);
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

/// Packed attestation with x5c = [leaf, intermediate] to the configured root, with no X.509
/// parsing (no d2i_X509, no X509_STORE): the intermediate's signature (SHA-256 of its TBS,
/// ECDSA_verify with the root key cached at creation); the intermediate's point imported
/// (EC_KEY_new, EC_KEY_set_group, EC_KEY_oct2key), SHA-256 of the leaf's TBS, ECDSA_verify;
/// the leaf's point imported the same way, SHA-256 of client_data, SHA-256 of
/// auth_data || that hash, ECDSA_verify of the statement's signature. 1 when it verifies.
int openssl_floor_packed_x5c(const openssl_floor *floor, openssl_floor_certificate leaf,
                             openssl_floor_certificate intermediate,
                             const uint8_t *client_data, size_t client_data_length,
                             const uint8_t *auth_data, size_t auth_data_length,
                             const uint8_t *signature, size_t signature_length);

/// TPM attestation, statement only (no chain is evaluated: no root), with no X.509 parsing: SHA-256
/// of client_data; the `alg` digest (`sig_hash` 1 = SHA-1, 256 = SHA-256) of
/// auth_data || that hash, compared with certInfo's extraData; the pubArea's nameAlg digest of
/// pubArea, compared with certInfo's attested name; the `alg` digest of certInfo; the AIK's RSA
/// key from its big-endian modulus and exponent (taken from its SubjectPublicKeyInfo by the
/// caller: RSA_new, BN_bin2bn twice, RSA_set0_key); RSA_verify. 1 when it verifies.
int openssl_floor_tpm(const openssl_floor *floor, const uint8_t *modulus, size_t modulus_length,
                      const uint8_t *exponent, size_t exponent_length,
                      const uint8_t *client_data, size_t client_data_length,
                      const uint8_t *auth_data, size_t auth_data_length,
                      const uint8_t *cert_info, size_t cert_info_length,
                      const uint8_t *pub_area, size_t pub_area_length, int sig_hash,
                      const uint8_t *signature, size_t signature_length);

#endif
