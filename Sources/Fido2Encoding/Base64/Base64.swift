/// Standard base64 (RFC 4648 §4) with `=` padding: the form of PEM bodies, of fido2-tools' line
/// format and of Belvo's payloads.
///
/// Decoding is strict: padding is required and must be exact, every other character must be in
/// the alphabet, and the bits after the last byte must be zero. Only when asked
/// (`ignoringWhitespace: true`, for PEM bodies split into lines) are space, tab, CR and LF
/// skipped; error offsets still refer to the original text.
public enum Base64 {
    /// The number of characters ``encode(_:)-(Bytes)`` writes for `byteCount` bytes.
    public static func encodedCount(ofByteCount byteCount: Int) -> Int {
        Base64Engine.encodedCount(ofByteCount: byteCount, padded: true)
    }

    /// The padded base64 text of `bytes`.
    public static func encode<Bytes: Collection>(_ bytes: Bytes) -> String
    where Bytes.Element == UInt8 {
        Base64Engine.encodeToString(bytes, alphabet: Base64Engine.standard, padded: true)
    }

    /// The padded base64 text of `bytes` (the common case, without generic dispatch).
    public static func encode(_ bytes: [UInt8]) -> String {
        Base64Engine.encodeToString(bytes, alphabet: Base64Engine.standard, padded: true)
    }

    /// The padded base64 text of `bytes` broken into lines of `lineLength` characters, each
    /// ending in `\n` (PEM uses 64). A `lineLength` of zero or less gives a single line with its
    /// `\n`.
    public static func encode<Bytes: Collection>(_ bytes: Bytes, lineLength: Int) -> String
    where Bytes.Element == UInt8 {
        let text = Array(encode(bytes).utf8)
        let width = lineLength > 0 ? lineLength : max(text.count, 1)
        // Division, not `count + width - 1`, so a huge lineLength cannot overflow.
        let lines = text.count / width + (text.count % width == 0 ? 0 : 1)
        var output: [UInt8] = []
        output.reserveCapacity(text.count + lines)
        var start = 0
        while start < text.count {
            let end = text.count - start <= width ? text.count : start + width
            output.append(contentsOf: text[start..<end])
            output.append(0x0A)
            start = end
        }
        return String(decoding: output, as: UTF8.self)
    }

    /// Appends the padded base64 text of `bytes`, as ASCII bytes, to `output`.
    public static func encode<Bytes: Collection>(_ bytes: Bytes, appendingTo output: inout [UInt8])
    where Bytes.Element == UInt8 {
        Base64Engine.encode(
            bytes, appendingTo: &output, alphabet: Base64Engine.standard, padded: true)
    }

    /// The bytes encoded by padded base64 `text`.
    ///
    /// - Parameters:
    ///   - text: the padded base64 text to decode.
    ///   - ignoringWhitespace: skip space, tab, CR and LF anywhere (PEM line breaks).
    /// - Throws: ``Fido2EncodingError`` with code `invalidCharacter`, `invalidPadding`,
    ///   `invalidLength` (one character left over, or padding missing) or `nonZeroTrailingBits`,
    ///   with the byte offset in `text`.
    public static func decode(
        _ text: String, ignoringWhitespace: Bool = false
    )
        throws -> [UInt8]
    {
        try decode(utf8: text.utf8, ignoringWhitespace: ignoringWhitespace)
    }

    /// The bytes encoded by padded base64 text given as its UTF-8 (ASCII) bytes.
    ///
    /// - Throws: ``Fido2EncodingError`` as ``decode(_:ignoringWhitespace:)`` does.
    public static func decode<Text: Collection>(
        utf8 text: Text, ignoringWhitespace: Bool = false
    )
        throws -> [UInt8]
    where Text.Element == UInt8 {
        try Base64Engine.decode(
            text, alphabet: Base64Engine.standard, padding: .required,
            skipsWhitespace: ignoringWhitespace)
    }
}
