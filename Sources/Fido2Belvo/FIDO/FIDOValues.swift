import Fido2Encoding

/// Conversions shared by the two options mappings.
enum FIDOValues {
    /// The bytes of a base64url member Belvo sent (padding tolerated), or a
    /// ``BelvoError/Code/malformedFidoOptions`` error naming `field`.
    static func bytes(_ text: String, _ field: String) throws(BelvoError) -> [UInt8] {
        guard let bytes = try? Base64URL.decode(text), !bytes.isEmpty else {
            throw BelvoError(
                .malformedFidoOptions, "\(field) is not non-empty base64url", field: field)
        }
        return bytes
    }

    /// A time-out in milliseconds, refused when negative.
    static func timeout(_ value: Int?) throws(BelvoError) -> Int? {
        if let value, value < 0 {
            throw BelvoError(
                .malformedFidoOptions, "timeout is negative (\(value) ms)", field: "timeout")
        }
        return value
    }
}
