// Stand-in until `Fido2Encoding`'s base64url codec is merged: swap callers over to it then and
// delete this file. Kept internal so nothing outside the module depends on it.

/// Strict base64url (RFC 4648 §5) for the values Belvo and WebAuthn JSON carry.
enum Base64URL {
    /// The bytes `text` encodes, or nil when it is not canonical base64url: characters outside
    /// the URL-safe alphabet, a length that no byte count produces, or non-zero padding bits.
    /// With `allowingPadding`, trailing `=` is tolerated when it is exactly what the length
    /// requires (for what Belvo sends); without, it is refused (for what we send: WebAuthn JSON
    /// is unpadded).
    static func decode(_ text: String, allowingPadding: Bool = false) -> [UInt8]? {
        var chars = Array(text.utf8)
        let padding = chars.reversed().prefix { $0 == UInt8(ascii: "=") }.count
        if padding > 0 {
            guard allowingPadding, padding <= 2, chars.count % 4 == 0 else { return nil }
            chars.removeLast(padding)
            guard chars.count % 4 == 4 - padding else { return nil }
        }
        guard chars.count % 4 != 1 else { return nil }
        var out = [UInt8]()
        out.reserveCapacity(chars.count / 4 * 3 + 2)
        var accumulator: UInt32 = 0
        var bits = 0
        for char in chars {
            guard let sextet = value(of: char) else { return nil }
            accumulator = (accumulator << 6) | UInt32(sextet)
            bits += 6
            if bits >= 8 {
                bits -= 8
                out.append(UInt8(truncatingIfNeeded: accumulator >> UInt32(bits)))
                accumulator &= (1 << UInt32(bits)) - 1
            }
        }
        // Leftover bits must be zero, so that every byte string has one encoding.
        guard accumulator == 0 else { return nil }
        return out
    }

    private static func value(of char: UInt8) -> UInt8? {
        switch char {
        case UInt8(ascii: "A")...UInt8(ascii: "Z"): char - UInt8(ascii: "A")
        case UInt8(ascii: "a")...UInt8(ascii: "z"): char - UInt8(ascii: "a") + 26
        case UInt8(ascii: "0")...UInt8(ascii: "9"): char - UInt8(ascii: "0") + 52
        case UInt8(ascii: "-"): 62
        case UInt8(ascii: "_"): 63
        default: nil
        }
    }
}
