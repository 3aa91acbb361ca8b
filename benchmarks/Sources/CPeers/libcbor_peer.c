#include "libcbor_peer.h"
#include <cbor.h>
#include <string.h>

static int text_equals(cbor_item_t *item, const char *text) {
    size_t length = strlen(text);
    return cbor_isa_string(item) && cbor_string_is_definite(item) &&
           cbor_string_length(item) == length &&
           memcmp(cbor_string_handle(item), text, length) == 0;
}

static int64_t integer_value(cbor_item_t *item) {
    if (cbor_isa_uint(item)) return (int64_t)cbor_get_int(item);
    if (cbor_isa_negint(item)) return -1 - (int64_t)cbor_get_int(item);
    return 0;
}

static uint64_t sum_bytes(const uint8_t *bytes, size_t length) {
    // Touch the first and last byte and the length: enough to keep the work observable.
    return length ? (uint64_t)bytes[0] + bytes[length - 1] + length : 0;
}

static cbor_item_t *build_int(int64_t value) {
    if (value >= 0) {
        return value < 256 ? cbor_build_uint8((uint8_t)value) : cbor_build_uint64((uint64_t)value);
    }
    uint64_t magnitude = (uint64_t)(-1 - value);
    return magnitude < 256 ? cbor_build_negint8((uint8_t)magnitude)
                           : cbor_build_negint64(magnitude);
}

size_t libcbor_encode_attestation_items(const peer_attestation_fields *fields, uint8_t *out,
                                        size_t capacity) {
    cbor_item_t *statement = cbor_new_definite_map(2);
    cbor_map_add(statement, (struct cbor_pair){.key = cbor_move(cbor_build_string("alg")),
                                               .value = cbor_move(build_int(fields->alg))});
    cbor_map_add(statement,
                 (struct cbor_pair){
                     .key = cbor_move(cbor_build_string("sig")),
                     .value = cbor_move(cbor_build_bytestring(fields->sig, fields->sig_length))});
    cbor_item_t *root = cbor_new_definite_map(3);
    cbor_map_add(root, (struct cbor_pair){
                           .key = cbor_move(cbor_build_string("fmt")),
                           .value = cbor_move(cbor_build_stringn((const char *)fields->fmt,
                                                                 fields->fmt_length))});
    cbor_map_add(root, (struct cbor_pair){.key = cbor_move(cbor_build_string("attStmt")),
                                          .value = cbor_move(statement)});
    cbor_map_add(root, (struct cbor_pair){
                           .key = cbor_move(cbor_build_string("authData")),
                           .value = cbor_move(cbor_build_bytestring(fields->auth_data,
                                                                    fields->auth_data_length))});
    size_t written = cbor_serialize(root, out, capacity);
    cbor_decref(&root);
    return written;
}

size_t libcbor_encode_attestation_stream(const peer_attestation_fields *fields, uint8_t *out,
                                         size_t capacity) {
    size_t offset = 0;
#define PUT(call)                                   \
    do {                                            \
        size_t n = (call);                          \
        if (n == 0) return 0;                       \
        offset += n;                                \
    } while (0)
#define PUT_BYTES(pointer, length)                  \
    do {                                            \
        if (capacity - offset < (length)) return 0; \
        memcpy(out + offset, (pointer), (length));  \
        offset += (length);                         \
    } while (0)
    PUT(cbor_encode_map_start(3, out + offset, capacity - offset));
    PUT(cbor_encode_string_start(3, out + offset, capacity - offset));
    PUT_BYTES("fmt", 3);
    PUT(cbor_encode_string_start(fields->fmt_length, out + offset, capacity - offset));
    PUT_BYTES(fields->fmt, fields->fmt_length);
    PUT(cbor_encode_string_start(7, out + offset, capacity - offset));
    PUT_BYTES("attStmt", 7);
    PUT(cbor_encode_map_start(2, out + offset, capacity - offset));
    PUT(cbor_encode_string_start(3, out + offset, capacity - offset));
    PUT_BYTES("alg", 3);
    if (fields->alg >= 0) {
        PUT(cbor_encode_uint((uint64_t)fields->alg, out + offset, capacity - offset));
    } else {
        PUT(cbor_encode_negint((uint64_t)(-1 - fields->alg), out + offset, capacity - offset));
    }
    PUT(cbor_encode_string_start(3, out + offset, capacity - offset));
    PUT_BYTES("sig", 3);
    PUT(cbor_encode_bytestring_start(fields->sig_length, out + offset, capacity - offset));
    PUT_BYTES(fields->sig, fields->sig_length);
    PUT(cbor_encode_string_start(8, out + offset, capacity - offset));
    PUT_BYTES("authData", 8);
    PUT(cbor_encode_bytestring_start(fields->auth_data_length, out + offset, capacity - offset));
    PUT_BYTES(fields->auth_data, fields->auth_data_length);
#undef PUT
#undef PUT_BYTES
    return offset;
}

int libcbor_decode_attestation(const uint8_t *input, size_t length, uint64_t *checksum) {
    struct cbor_load_result result;
    cbor_item_t *root = cbor_load(input, length, &result);
    if (root == NULL) return -1;
    int status = -1;
    uint64_t sum = 0;
    int found = 0;
    if (result.read == length && cbor_isa_map(root)) {
        struct cbor_pair *pairs = cbor_map_handle(root);
        for (size_t i = 0; i < cbor_map_size(root); i++) {
            cbor_item_t *value = pairs[i].value;
            if (text_equals(pairs[i].key, "fmt") && cbor_isa_string(value)) {
                sum += sum_bytes(cbor_string_handle(value), cbor_string_length(value));
                found |= 1;
            } else if (text_equals(pairs[i].key, "authData") && cbor_isa_bytestring(value)) {
                sum += sum_bytes(cbor_bytestring_handle(value), cbor_bytestring_length(value));
                found |= 2;
            } else if (text_equals(pairs[i].key, "attStmt") && cbor_isa_map(value)) {
                struct cbor_pair *statement = cbor_map_handle(value);
                for (size_t j = 0; j < cbor_map_size(value); j++) {
                    if (text_equals(statement[j].key, "alg")) {
                        sum += (uint64_t)integer_value(statement[j].value);
                        found |= 4;
                    } else if (text_equals(statement[j].key, "sig") &&
                               cbor_isa_bytestring(statement[j].value)) {
                        sum += sum_bytes(cbor_bytestring_handle(statement[j].value),
                                         cbor_bytestring_length(statement[j].value));
                        found |= 8;
                    }
                }
            }
        }
        status = found == 15 ? 0 : -1;
    }
    cbor_decref(&root);
    *checksum = sum;
    return status;
}

size_t libcbor_encode_cose_ec2_items(const peer_cose_ec2_fields *fields, uint8_t *out,
                                     size_t capacity) {
    cbor_item_t *root = cbor_new_definite_map(5);
    cbor_map_add(root, (struct cbor_pair){.key = cbor_move(build_int(1)),
                                          .value = cbor_move(build_int(fields->kty))});
    cbor_map_add(root, (struct cbor_pair){.key = cbor_move(build_int(3)),
                                          .value = cbor_move(build_int(fields->alg))});
    cbor_map_add(root, (struct cbor_pair){.key = cbor_move(build_int(-1)),
                                          .value = cbor_move(build_int(fields->crv))});
    cbor_map_add(root, (struct cbor_pair){
                           .key = cbor_move(build_int(-2)),
                           .value = cbor_move(cbor_build_bytestring(fields->x, fields->x_length))});
    cbor_map_add(root, (struct cbor_pair){
                           .key = cbor_move(build_int(-3)),
                           .value = cbor_move(cbor_build_bytestring(fields->y, fields->y_length))});
    size_t written = cbor_serialize(root, out, capacity);
    cbor_decref(&root);
    return written;
}

int libcbor_decode_cose_ec2(const uint8_t *input, size_t length, uint64_t *checksum) {
    struct cbor_load_result result;
    cbor_item_t *root = cbor_load(input, length, &result);
    if (root == NULL) return -1;
    int status = -1;
    uint64_t sum = 0;
    int found = 0;
    if (result.read == length && cbor_isa_map(root)) {
        struct cbor_pair *pairs = cbor_map_handle(root);
        for (size_t i = 0; i < cbor_map_size(root); i++) {
            int64_t label = integer_value(pairs[i].key);
            cbor_item_t *value = pairs[i].value;
            switch (label) {
            case 1: case 3: case -1:
                sum += (uint64_t)integer_value(value);
                found |= label == 1 ? 1 : label == 3 ? 2 : 4;
                break;
            case -2: case -3:
                if (cbor_isa_bytestring(value)) {
                    sum += sum_bytes(cbor_bytestring_handle(value), cbor_bytestring_length(value));
                    found |= label == -2 ? 8 : 16;
                }
                break;
            }
        }
        status = found == 31 ? 0 : -1;
    }
    cbor_decref(&root);
    *checksum = sum;
    return status;
}
