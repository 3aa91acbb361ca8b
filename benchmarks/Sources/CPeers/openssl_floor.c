#include "openssl_floor.h"
#include <openssl/ec.h>
#include <openssl/ecdsa.h>
#include <openssl/evp.h>
#include <openssl/objects.h>
#include <openssl/rsa.h>
#include <openssl/sha.h>
#include <openssl/x509.h>
#include <stdlib.h>
#include <string.h>

// The low-level EC_KEY, RSA and SHA*_Init functions are deprecated in OpenSSL 3.0 but present;
// they are the cheapest route to the same arithmetic, which is what a floor is for.
#pragma GCC diagnostic ignored "-Wdeprecated-declarations"

struct openssl_floor {
    EC_GROUP *p256;
    X509 *root;
    EVP_PKEY *root_key;  // owned by root
};

openssl_floor *openssl_floor_create(const uint8_t *root_der, size_t root_length) {
    openssl_floor *floor = calloc(1, sizeof(openssl_floor));
    if (floor == NULL) return NULL;
    floor->p256 = EC_GROUP_new_by_curve_name(NID_X9_62_prime256v1);
    if (floor->p256 == NULL) goto fail;
    if (root_der != NULL) {
        const unsigned char *cursor = root_der;
        floor->root = d2i_X509(NULL, &cursor, (long)root_length);
        if (floor->root == NULL) goto fail;
        floor->root_key = X509_get0_pubkey(floor->root);
        if (floor->root_key == NULL) goto fail;
    }
    return floor;
fail:
    openssl_floor_destroy(floor);
    return NULL;
}

void openssl_floor_destroy(openssl_floor *floor) {
    if (floor == NULL) return;
    X509_free(floor->root);
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

int openssl_floor_packed_x5c(const openssl_floor *floor, const uint8_t *leaf, size_t leaf_length,
                             const uint8_t *intermediate, size_t intermediate_length,
                             const uint8_t *client_data, size_t client_data_length,
                             const uint8_t *auth_data, size_t auth_data_length,
                             const uint8_t *signature, size_t signature_length) {
    if (floor->root_key == NULL) return 0;
    const unsigned char *cursor = leaf;
    X509 *leaf_certificate = d2i_X509(NULL, &cursor, (long)leaf_length);
    cursor = intermediate;
    X509 *intermediate_certificate = d2i_X509(NULL, &cursor, (long)intermediate_length);
    EC_KEY *key = NULL;
    int ok = 0;
    if (leaf_certificate == NULL || intermediate_certificate == NULL) goto done;
    if (X509_verify(intermediate_certificate, floor->root_key) != 1) goto done;
    EVP_PKEY *intermediate_key = X509_get0_pubkey(intermediate_certificate);
    if (intermediate_key == NULL || X509_verify(leaf_certificate, intermediate_key) != 1)
        goto done;
    const ASN1_BIT_STRING *bits = X509_get0_pubkey_bitstr(leaf_certificate);
    if (bits == NULL) goto done;
    key = point_key(floor->p256, ASN1_STRING_get0_data(bits), (size_t)ASN1_STRING_length(bits));
    if (key == NULL) goto done;
    uint8_t hash[32];
    signed_hash(client_data, client_data_length, auth_data, auth_data_length, hash);
    ok = ecdsa_verify(key, hash, signature, signature_length);
done:
    EC_KEY_free(key);
    X509_free(intermediate_certificate);
    X509_free(leaf_certificate);
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

int openssl_floor_tpm(const openssl_floor *floor, const uint8_t *aik, size_t aik_length,
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

    const unsigned char *cursor = aik;
    X509 *certificate = d2i_X509(NULL, &cursor, (long)aik_length);
    if (certificate == NULL) return 0;
    RSA *key = NULL;
    int ok = 0;
    uint8_t client_hash[32], expected[32], message_hash[32];
    sha256(client_data, client_data_length, client_hash);
    size_t length = digest(sig_hash, auth_data, auth_data_length, client_hash, 32, expected);
    if (length == 0 || length != extra_length || memcmp(expected, extra, length) != 0) goto done;
    length = digest(name_bits, pub_area, pub_area_length, NULL, 0, expected);
    if (length == 0 || length + 2 != name_length || read16(name) != name_alg ||
        memcmp(expected, name + 2, length) != 0)
        goto done;
    length = digest(sig_hash, cert_info, cert_info_length, NULL, 0, message_hash);
    const ASN1_BIT_STRING *bits = X509_get0_pubkey_bitstr(certificate);
    if (bits == NULL) goto done;
    const unsigned char *key_bytes = ASN1_STRING_get0_data(bits);
    key = d2i_RSAPublicKey(NULL, &key_bytes, ASN1_STRING_length(bits));
    if (key == NULL) goto done;
    ok = RSA_verify(sig_hash == 1 ? NID_sha1 : NID_sha256, message_hash, (unsigned)length,
                    signature, (unsigned)signature_length, key) == 1;
done:
    RSA_free(key);
    X509_free(certificate);
    return ok;
}
