// The floor of each relying-party path (issue 34): only the OpenSSL 3.0 calls the path cannot
// avoid, over raw bytes that the benchmark (FloorScenarios.swift) parses out of the same
// response once, outside the timed loop. No d2i_X509, no X509_verify, no X509_STORE: reading a
// certificate is not an OpenSSL call a path must make (on 3.0, d2i_X509 runs an OSSL_DECODER per
// key), so the floor leaves it out and the benchmark's step rows show what it costs. Per path:
//   ES256 assertion, packed self: EC_KEY_new + EC_KEY_set_group (cached P-256 group) +
//     EC_KEY_oct2key(04||x||y); SHA-256 of clientDataJSON; SHA-256 of authData || that hash;
//     ECDSA_verify.
//   packed x5c [leaf, intermediate] to a configured root: per chain signature, SHA-256 of the
//     TBSCertificate and ECDSA_verify with the issuer's key (the root's imported once at
//     creation, the intermediate's per call by EC_KEY_oct2key); then the leaf's point import
//     (EC_KEY_oct2key) and the ES256 floor's hashing and ECDSA_verify over the attestation.
//   TPM (no chain): SHA-256 of clientDataJSON; the statement alg's digest of authData || that,
//     compared with extraData; the nameAlg digest of pubArea, compared with the attested name;
//     the alg's digest of certInfo; the AIK's RSA key from n and e (RSA_new, BN_bin2bn x2,
//     RSA_set0_key); RSA_verify.
#include "openssl_floor.h"
#include <openssl/bn.h>
#include <openssl/ec.h>
#include <openssl/ecdsa.h>
#include <openssl/evp.h>
#include <openssl/objects.h>
#include <openssl/rsa.h>
#include <openssl/sha.h>
#include <stdlib.h>
#include <string.h>

// The low-level EC_KEY, RSA and SHA*_Init functions are deprecated in OpenSSL 3.0 but present;
// they are the cheapest route to the same arithmetic, which is what a floor is for.
#pragma GCC diagnostic ignored "-Wdeprecated-declarations"

struct openssl_floor {
    EC_GROUP *p256;
    EC_KEY *root_key;  // the configured root's P-256 key, imported once as a relying party keeps it
};

static EC_KEY *point_key(const EC_GROUP *group, const uint8_t *point, size_t length);

openssl_floor *openssl_floor_create(const uint8_t *root_point, size_t root_point_length) {
    openssl_floor *floor = calloc(1, sizeof(openssl_floor));
    if (floor == NULL) return NULL;
    floor->p256 = EC_GROUP_new_by_curve_name(NID_X9_62_prime256v1);
    if (floor->p256 == NULL) goto fail;
    if (root_point != NULL) {
        floor->root_key = point_key(floor->p256, root_point, root_point_length);
        if (floor->root_key == NULL) goto fail;
    }
    return floor;
fail:
    openssl_floor_destroy(floor);
    return NULL;
}

void openssl_floor_destroy(openssl_floor *floor) {
    if (floor == NULL) return;
    EC_KEY_free(floor->root_key);
    EC_GROUP_free(floor->p256);
    free(floor);
}

static EC_KEY *point_key(const EC_GROUP *group, const uint8_t *point, size_t length) {
    EC_KEY *key = EC_KEY_new();
    if (key == NULL) return NULL;
    if (EC_KEY_set_group(key, group) != 1 || EC_KEY_oct2key(key, point, length, NULL) != 1) {
        EC_KEY_free(key);
        return NULL;
    }
    return key;
}

static void sha256(const uint8_t *data, size_t length, uint8_t out[32]) {
    SHA256_CTX context;
    SHA256_Init(&context);
    SHA256_Update(&context, data, length);
    SHA256_Final(out, &context);
}

/// SHA-256 of signed_data || SHA-256(client_data), the message of every WebAuthn signature.
static void signed_hash(const uint8_t *client_data, size_t client_data_length,
                        const uint8_t *signed_data, size_t signed_data_length, uint8_t out[32]) {
    uint8_t client_hash[32];
    sha256(client_data, client_data_length, client_hash);
    SHA256_CTX context;
    SHA256_Init(&context);
    SHA256_Update(&context, signed_data, signed_data_length);
    SHA256_Update(&context, client_hash, sizeof client_hash);
    SHA256_Final(out, &context);
}

static int ecdsa_verify(EC_KEY *key, const uint8_t hash[32], const uint8_t *signature,
                        size_t signature_length) {
    return ECDSA_verify(0, hash, 32, signature, (int)signature_length, key) == 1;
}

int openssl_floor_es256(const openssl_floor *floor, const uint8_t *x, const uint8_t *y,
                        const uint8_t *client_data, size_t client_data_length,
                        const uint8_t *signed_data, size_t signed_data_length,
                        const uint8_t *signature, size_t signature_length) {
    uint8_t point[65];
    point[0] = 4;
    memcpy(point + 1, x, 32);
    memcpy(point + 33, y, 32);
    EC_KEY *key = point_key(floor->p256, point, sizeof point);
    if (key == NULL) return 0;
    uint8_t hash[32];
    signed_hash(client_data, client_data_length, signed_data, signed_data_length, hash);
    int ok = ecdsa_verify(key, hash, signature, signature_length);
    EC_KEY_free(key);
    return ok;
}

/// One ecdsa-with-SHA256 certificate signature: SHA-256 of the TBSCertificate, ECDSA_verify of
/// the signature (a DER Ecdsa-Sig-Value) with the issuer's key.
static int certificate_signature(EC_KEY *issuer, const openssl_floor_certificate *certificate) {
    uint8_t hash[32];
    sha256(certificate->tbs, certificate->tbs_length, hash);
    return ecdsa_verify(issuer, hash, certificate->signature, certificate->signature_length);
}

int openssl_floor_packed_x5c(const openssl_floor *floor, openssl_floor_certificate leaf,
                             openssl_floor_certificate intermediate,
                             const uint8_t *client_data, size_t client_data_length,
                             const uint8_t *auth_data, size_t auth_data_length,
                             const uint8_t *signature, size_t signature_length) {
    if (floor->root_key == NULL) return 0;
    // The intermediate, signed by the configured root (its key imported at creation).
    if (!certificate_signature(floor->root_key, &intermediate)) return 0;
    // The leaf, signed by the intermediate: the intermediate's point imported here.
    EC_KEY *issuer = point_key(floor->p256, intermediate.point, intermediate.point_length);
    if (issuer == NULL) return 0;
    int ok = certificate_signature(issuer, &leaf);
    EC_KEY_free(issuer);
    if (!ok) return 0;
    // The statement's signature with the leaf's key.
    EC_KEY *key = point_key(floor->p256, leaf.point, leaf.point_length);
    if (key == NULL) return 0;
    uint8_t hash[32];
    signed_hash(client_data, client_data_length, auth_data, auth_data_length, hash);
    ok = ecdsa_verify(key, hash, signature, signature_length);
    EC_KEY_free(key);
    return ok;
}

/// The digest of a TPM_ALG_ID (SHA-1 0x0004, SHA-256 0x000B) or of `bits` (1, 256); its length,
/// 0 for another.
static size_t digest(int bits, const uint8_t *first, size_t first_length, const uint8_t *second,
                     size_t second_length, uint8_t out[32]) {
    if (bits == 1) {
        SHA_CTX context;
        SHA1_Init(&context);
        SHA1_Update(&context, first, first_length);
        if (second != NULL) SHA1_Update(&context, second, second_length);
        SHA1_Final(out, &context);
        return 20;
    }
    if (bits == 256) {
        SHA256_CTX context;
        SHA256_Init(&context);
        SHA256_Update(&context, first, first_length);
        if (second != NULL) SHA256_Update(&context, second, second_length);
        SHA256_Final(out, &context);
        return 32;
    }
    return 0;
}

static unsigned read16(const uint8_t *p) { return ((unsigned)p[0] << 8) | p[1]; }

/// An RSA key from its big-endian modulus and exponent: RSA_new, BN_bin2bn twice, RSA_set0_key.
static RSA *rsa_key(const uint8_t *modulus, size_t modulus_length, const uint8_t *exponent,
                    size_t exponent_length) {
    RSA *key = RSA_new();
    BIGNUM *n = BN_bin2bn(modulus, (int)modulus_length, NULL);
    BIGNUM *e = BN_bin2bn(exponent, (int)exponent_length, NULL);
    if (key == NULL || n == NULL || e == NULL || RSA_set0_key(key, n, e, NULL) != 1) {
        RSA_free(key);
        BN_free(n);
        BN_free(e);
        return NULL;
    }
    return key;
}

int openssl_floor_tpm(const openssl_floor *floor, const uint8_t *modulus, size_t modulus_length,
                      const uint8_t *exponent, size_t exponent_length,
                      const uint8_t *client_data, size_t client_data_length,
                      const uint8_t *auth_data, size_t auth_data_length,
                      const uint8_t *cert_info, size_t cert_info_length,
                      const uint8_t *pub_area, size_t pub_area_length, int sig_hash,
                      const uint8_t *signature, size_t signature_length) {
    (void)floor;
    // TPMS_ATTEST: magic (4), type (2), qualifiedSigner (TPM2B), extraData (TPM2B), clockInfo
    // (17), firmwareVersion (8), attested TPMS_CERTIFY_INFO: name (TPM2B: nameAlg, digest).
    if (cert_info_length < 8 || pub_area_length < 4) return 0;
    size_t offset = 6;
    size_t signer = read16(cert_info + offset);
    offset += 2 + signer;
    if (offset + 2 > cert_info_length) return 0;
    size_t extra_length = read16(cert_info + offset);
    const uint8_t *extra = cert_info + offset + 2;
    offset += 2 + extra_length + 17 + 8;
    if (offset + 4 > cert_info_length) return 0;
    size_t name_length = read16(cert_info + offset);
    const uint8_t *name = cert_info + offset + 2;
    if (offset + 2 + name_length > cert_info_length || name_length < 2) return 0;
    unsigned name_alg = read16(pub_area + 2);
    int name_bits = name_alg == 0x0004 ? 1 : name_alg == 0x000B ? 256 : 0;

    uint8_t client_hash[32], expected[32], message_hash[32];
    sha256(client_data, client_data_length, client_hash);
    size_t length = digest(sig_hash, auth_data, auth_data_length, client_hash, 32, expected);
    if (length == 0 || length != extra_length || memcmp(expected, extra, length) != 0) return 0;
    length = digest(name_bits, pub_area, pub_area_length, NULL, 0, expected);
    if (length == 0 || length + 2 != name_length || read16(name) != name_alg ||
        memcmp(expected, name + 2, length) != 0)
        return 0;
    length = digest(sig_hash, cert_info, cert_info_length, NULL, 0, message_hash);
    RSA *key = rsa_key(modulus, modulus_length, exponent, exponent_length);
    if (key == NULL) return 0;
    int ok = RSA_verify(sig_hash == 1 ? NID_sha1 : NID_sha256, message_hash, (unsigned)length,
                        signature, (unsigned)signature_length, key) == 1;
    RSA_free(key);
    return ok;
}
