// libcbor doing the CBOR work fido2kit's codec does, as a C programmer would write it: the item
// API (build a tree, serialize it; cbor_load, walk the tree) and the streaming encoder.
#ifndef FIDO2KIT_LIBCBOR_PEER_H
#define FIDO2KIT_LIBCBOR_PEER_H
#include <stddef.h>
#include <stdint.h>

/// The fields of a packed attestation object with an ES256 self-attestation statement.
typedef struct {
    const uint8_t *fmt;
    size_t fmt_length;
    int64_t alg;
    const uint8_t *sig;
    size_t sig_length;
    const uint8_t *auth_data;
    size_t auth_data_length;
} peer_attestation_fields;

/// The fields of a COSE EC2 public key.
typedef struct {
    int64_t kty, alg, crv;
    const uint8_t *x;
    const uint8_t *y;
    size_t x_length, y_length;
} peer_cose_ec2_fields;

/// Encodes {"fmt": fmt, "attStmt": {"alg": alg, "sig": sig}, "authData": authData} with
/// libcbor's item API into `out`; returns the length written, 0 on failure.
size_t libcbor_encode_attestation_items(const peer_attestation_fields *fields, uint8_t *out,
                                        size_t capacity);

/// The same with libcbor's streaming encoder (cbor_encode_*), no items.
size_t libcbor_encode_attestation_stream(const peer_attestation_fields *fields, uint8_t *out,
                                         size_t capacity);

/// Decodes an attestation object with cbor_load and reads the fields from the item tree.
/// Returns 0 on success. Pointers in `fields` are not kept (the tree is freed before returning);
/// `checksum` receives a sum over the decoded bytes so the work cannot be optimized away.
int libcbor_decode_attestation(const uint8_t *input, size_t length, uint64_t *checksum);

/// Encodes {1: kty, 3: alg, -1: crv, -2: x, -3: y} with the item API.
size_t libcbor_encode_cose_ec2_items(const peer_cose_ec2_fields *fields, uint8_t *out,
                                     size_t capacity);

/// Decodes a COSE EC2 key with cbor_load; returns 0 on success.
int libcbor_decode_cose_ec2(const uint8_t *input, size_t length, uint64_t *checksum);

#endif
