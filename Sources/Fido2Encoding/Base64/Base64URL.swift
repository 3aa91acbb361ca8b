/// Base64url (RFC 4648 §5) without padding, the form WebAuthn Level 3 JSON uses for every binary
/// member (`Base64URLString`).
///
/// Encoding never writes `=`. Decoding is strict: every character must be in the base64url
/// alphabet, the length must encode whole bytes, and the bits after the last byte must be zero,
/// so each byte string has exactly one accepted text. Padding is tolerated but not required: a
/// text may end in the exact `=` padding that completes its last group of four (`QQ==`, `QUI=`),
/// and nothing else (`QQ=`, `Q===` and `=` in the middle are rejected). WebAuthn says unpadded,
/// but some relying-party libraries pad, and exact padding carries no ambiguity.
public enum Base64URL {
    /// The number of characters ``encode(_:)-(Bytes)`` writes for `byteCount` bytes.
    public static func encodedCount(ofByteCount byteCount: Int) -> Int {
        Base64Engine.encodedCount(ofByteCount: byteCount, padded: false)
    }

    /// The unpadded base64url text of `bytes`.
    public static func encode<Bytes: Collection>(_ bytes: Bytes) -> String
    where Bytes.Element == UInt8 {
        Base64Engine.encodeToString(bytes, alphabet: Base64Engine.url, padded: false)
    }

    /// The unpadded base64url text of `bytes` (the common case, without generic dispatch).
    public static func encode(_ bytes: [UInt8]) -> String {
        Base64Engine.encodeToString(bytes, alphabet: Base64Engine.url, padded: false)
    }

    /// Appends the unpadded base64url text of `bytes`, as ASCII bytes, to `output` (the common
    /// case, without generic dispatch).
    public static func encode(_ bytes: [UInt8], appendingTo output: inout [UInt8]) {
        Base64Engine.encode(bytes, appendingTo: &output, alphabet: Base64Engine.url, padded: false)
    }

    /// Appends the unpadded base64url text of `bytes`, as ASCII bytes, to `output`.
    public static func encode<Bytes: Collection>(_ bytes: Bytes, appendingTo output: inout [UInt8])
    where Bytes.Element == UInt8 {
        Base64Engine.encode(bytes, appendingTo: &output, alphabet: Base64Engine.url, padded: false)
    }

    /// The bytes encoded by base64url `text`.
    ///
    /// - Throws: ``Fido2EncodingError`` with code `invalidCharacter` (a byte outside the
    ///   alphabet), `invalidPadding` (`=` anywhere but as exact final padding), `invalidLength`
    ///   (one character left over) or `nonZeroTrailingBits`, with the byte offset.
    public static func decode(_ text: String) throws -> [UInt8] {
        try decode(utf8: text.utf8)
    }

    /// The bytes encoded by base64url text given as its UTF-8 (ASCII) bytes.
    ///
    /// - Throws: ``Fido2EncodingError`` as ``decode(_:)`` does.
    public static func decode<Text: Collection>(
        utf8 text: Text
    ) throws
        -> [UInt8]
    where Text.Element == UInt8 {
        try Base64Engine.decode(
            text, alphabet: Base64Engine.url, padding: .optional, skipsWhitespace: false)
    }
}
