import COpenSSL

/// Builds ECDSA public keys from SEC 1 points: the low-level `EC_KEY` that verification uses,
/// and on demand the `EVP_PKEY` that SPKI and PEM export use.
///
/// Both routes validate the point with OpenSSL's `EC_KEY_oct2key` (the function behind
/// `EVP_PKEY_set1_encoded_public_key`): coordinates must be field elements and the point must
/// lie on the curve.
enum ECPublicKeyBuilder {
    /// The longest SEC 1 encoding of a supported curve's point: 1 + 2 × 66 bytes (P-521).
    private static let largestPoint = 133

    /// An `EC_KEY` for the uncompressed point `04 ‖ x ‖ y` on `support`'s curve; the caller
    /// has checked the length and owns the result.
    static func ecKey(
        uncompressedPoint point: UnsafeRawBufferPointer, support: ECCurveSupport
    ) throws(CryptoError) -> OpaquePointer {
        guard point.first == 0x04 else {
            throw CryptoError(
                .invalidPublicKey, "an uncompressed point starts with 04", field: "point")
        }
        return try ecKey(encodedPoint: point, support: support)
    }

    /// An `EC_KEY` for the point of `key`, an `EVP_PKEY` on `support`'s curve (the point may have
    /// been imported compressed); the point at infinity is refused.
    static func ecKey(
        fromEVPKey key: OpaquePointer, support: ECCurveSupport
    ) throws(CryptoError) -> OpaquePointer {
        try withUnsafeTemporaryAllocation(byteCount: largestPoint, alignment: 1) {
            (buffer) throws(CryptoError) -> OpaquePointer in
            var length = 0
            // SEC 1 encodes the point at infinity as the single octet 00.
            guard
                EVP_PKEY_get_octet_string_param(
                    key, "encoded-pub-key", buffer.baseAddress?.assumingMemoryBound(to: UInt8.self),
                    buffer.count, &length) == 1,
                length > 1, length <= buffer.count
            else {
                OpenSSLErrorQueue.clear()
                throw CryptoError(.invalidPublicKey, "EC public key is the point at infinity")
            }
            return try ecKey(
                encodedPoint: UnsafeRawBufferPointer(rebasing: buffer[..<length]), support: support)
        }
    }

    /// An `EC_KEY` for the SEC 1 point `point` (compressed or uncompressed) on `support`'s
    /// curve; the caller owns the result.
    static func ecKey(
        encodedPoint point: UnsafeRawBufferPointer, support: ECCurveSupport
    ) throws(CryptoError) -> OpaquePointer {
        guard let base = point.baseAddress else {
            throw CryptoError(.invalidPublicKey, "empty EC point", field: "point")
        }
        var refused: Int32 = 0
        guard
            let key = fido2_ec_key_from_point(
                support.group, base.assumingMemoryBound(to: UInt8.self), point.count, &refused)
        else {
            if refused == 1 {
                throw CryptoError.openSSL(
                    .invalidPublicKey, "point is not on \(support.kind)", field: "point")
            }
            throw CryptoError.openSSL("cannot make an EC_KEY")
        }
        return key
    }

    /// The uncompressed point `04 ‖ x ‖ y` of `ecKey`.
    static func uncompressedPoint(
        of ecKey: OpaquePointer, support: ECCurveSupport
    ) throws(CryptoError) -> [UInt8] {
        let width = 1 + 2 * support.coordinateByteCount
        var ok = false
        let out = [UInt8](unsafeUninitializedCapacity: width) { buffer, initialized in
            ok = fido2_ec_key_uncompressed_point(ecKey, buffer.baseAddress, width) == width
            initialized = ok ? width : 0
        }
        guard ok else { throw CryptoError.openSSL("cannot encode the \(support.kind) point") }
        return out
    }

    /// A new `EVP_PKEY` for `ecKey`'s point: a copy of the curve's template key with the point
    /// set, as OpenSSL's own keys are (not a legacy `EC_KEY` wrapper). The caller owns it.
    static func evpKey(
        from ecKey: OpaquePointer, support: ECCurveSupport
    ) throws(CryptoError) -> OpaquePointer {
        try withUnsafeTemporaryAllocation(of: UInt8.self, capacity: largestPoint) {
            (buffer) throws(CryptoError) -> OpaquePointer in
            let length = fido2_ec_key_uncompressed_point(ecKey, buffer.baseAddress, buffer.count)
            guard length > 0 else {
                throw CryptoError.openSSL("cannot encode the \(support.kind) point")
            }
            guard let key = EVP_PKEY_dup(support.template) else {
                throw CryptoError.openSSL("EVP_PKEY_dup failed")
            }
            guard EVP_PKEY_set1_encoded_public_key(key, buffer.baseAddress, length) == 1 else {
                EVP_PKEY_free(key)
                throw CryptoError.openSSL("OpenSSL refused a \(support.kind) point it had accepted")
            }
            return key
        }
    }
}
