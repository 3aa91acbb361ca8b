/// Hexadecimal text: the package's one codec, for the command line (`cbor diag --hex`), the
/// vector runners, error messages and the tests. Not part of the public API.
package enum Hex {
    private static let digits = Array("0123456789abcdef".utf8)

    /// Lower-case hexadecimal of `bytes`.
    package static func encode(_ bytes: some Collection<UInt8>) -> String {
        var text: [UInt8] = []
        text.reserveCapacity(bytes.count * 2)
        for byte in bytes {
            text.append(digits[Int(byte >> 4)])
            text.append(digits[Int(byte & 0x0f)])
        }
        return String(decoding: text, as: UTF8.self)
    }

    /// The two lower-case digits of `byte`.
    package static func encode(byte: UInt8) -> String { encode(CollectionOfOne(byte)) }

    /// The bytes of hexadecimal `text` (digits of either case). With `ignoringWhitespace`,
    /// spaces, tabs and line breaks anywhere in the text are skipped, as in text a user types or
    /// pipes.
    ///
    /// - Throws: ``Fido2EncodingError`` `invalidCharacter` at the offset of the first byte that
    ///   is not a digit (nor skipped whitespace); `invalidLength` for an odd number of digits.
    package static func decode(
        _ text: some Collection<UInt8>, ignoringWhitespace: Bool = false
    ) throws(Fido2EncodingError) -> [UInt8] {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(text.count / 2)
        var high: UInt8? = nil
        for (offset, char) in text.enumerated() {
            guard let value = value(of: char) else {
                if ignoringWhitespace && isWhitespace(char) { continue }
                throw Fido2EncodingError(.invalidCharacter, "invalid hex character", offset: offset)
            }
            if let pending = high {
                bytes.append(pending << 4 | value)
                high = nil
            } else {
                high = value
            }
        }
        guard high == nil else {
            throw Fido2EncodingError(.invalidLength, "odd number of hex digits")
        }
        return bytes
    }

    /// The bytes of hexadecimal `text`; see ``decode(_:ignoringWhitespace:)``.
    ///
    /// - Throws: as ``decode(_:ignoringWhitespace:)``.
    package static func decode(
        _ text: some StringProtocol, ignoringWhitespace: Bool = false
    ) throws(Fido2EncodingError) -> [UInt8] {
        try decode(text.utf8, ignoringWhitespace: ignoringWhitespace)
    }

    /// The value of one hexadecimal digit (either case), or nil.
    package static func value(of char: UInt8) -> UInt8? {
        switch char {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): char - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): char - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): char - UInt8(ascii: "A") + 10
        default: nil
        }
    }

    private static func isWhitespace(_ char: UInt8) -> Bool {
        char == UInt8(ascii: " ") || char == UInt8(ascii: "\n") || char == UInt8(ascii: "\r")
            || char == UInt8(ascii: "\t")
    }
}
