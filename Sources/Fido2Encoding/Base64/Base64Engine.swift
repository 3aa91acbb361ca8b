/// The table-driven codec behind ``Base64`` and ``Base64URL``: one alphabet parameter, exact-size
/// outputs (one allocation each), strict decoding with typed errors and byte offsets.
enum Base64Engine {
    /// One of the two RFC 4648 alphabets, as an encoding table and a decoding table.
    struct Alphabet: Sendable {
        /// Value → ASCII symbol, 64 entries.
        let symbols: [UInt8]
        /// 12-bit value → its two symbols as they lie in memory, 4,096 entries: one lookup and
        /// one store encode half of a 3-byte group.
        let pairs: [UInt16]
        /// ASCII byte → value, 256 entries; `invalid` for bytes outside the alphabet.
        let values: [UInt8]
        /// Used in error messages.
        let name: String

        init(_ symbols: String, name: String) {
            self.symbols = Array(symbols.utf8)
            var values = [UInt8](repeating: Base64Engine.invalid, count: 256)
            for (value, symbol) in self.symbols.enumerated() {
                values[Int(symbol)] = UInt8(value)
            }
            self.values = values
            let symbols = self.symbols
            self.pairs = (0..<4096).map { value in
                let first = UInt16(symbols[value >> 6])
                let second = UInt16(symbols[value & 0x3F])
                return (first | second << 8).littleEndian
            }
            self.name = name
        }
    }

    /// Marks a byte outside the alphabet; any value with one of the top two bits set would do,
    /// which lets the hot loop test four lookups with one `&`.
    static let invalid: UInt8 = 0xFF

    static let standard = Alphabet(
        "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/", name: "base64")
    static let url = Alphabet(
        "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_", name: "base64url")

    /// Whether decoding demands `=` padding to a multiple of four characters.
    enum Padding {
        /// Padding must be present and exact (standard base64 as RFC 4648 §3.2 requires).
        case required
        /// Padding may be absent; when present it must be exact (base64url in WebAuthn).
        case optional
    }

    private static let equals = UInt8(ascii: "=")

    // MARK: - Encoding

    /// The number of characters that encode `byteCount` bytes.
    static func encodedCount(ofByteCount byteCount: Int, padded: Bool) -> Int {
        let whole = byteCount / 3 * 4
        switch byteCount % 3 {
        case 0: return whole
        case 1: return whole + (padded ? 4 : 2)
        default: return whole + (padded ? 4 : 3)
        }
    }

    /// Writes the encoding of `source` at `destination`, which must hold
    /// `encodedCount(ofByteCount: source.count, padded:)` bytes.
    static func encode(
        _ source: UnsafeBufferPointer<UInt8>, into destination: UnsafeMutablePointer<UInt8>,
        alphabet: Alphabet, padded: Bool
    ) {
        alphabet.symbols.withUnsafeBufferPointer { symbols in
            alphabet.pairs.withUnsafeBufferPointer { pairs in
                let count = source.count
                var input = 0
                var output = destination
                while input + 3 <= count {
                    let chunk =
                        Int(source[input]) << 16 | Int(source[input + 1]) << 8
                        | Int(source[input + 2])
                    let raw = UnsafeMutableRawPointer(output)
                    raw.storeBytes(of: pairs[chunk >> 12], as: UInt16.self)
                    raw.storeBytes(of: pairs[chunk & 0xFFF], toByteOffset: 2, as: UInt16.self)
                    input += 3
                    output += 4
                }
                switch count - input {
                case 1:
                    let chunk = UInt32(source[input]) << 16
                    output[0] = symbols[Int(chunk >> 18)]
                    output[1] = symbols[Int(chunk >> 12 & 0x3F)]
                    if padded {
                        output[2] = equals
                        output[3] = equals
                    }
                case 2:
                    let chunk = UInt32(source[input]) << 16 | UInt32(source[input + 1]) << 8
                    output[0] = symbols[Int(chunk >> 18)]
                    output[1] = symbols[Int(chunk >> 12 & 0x3F)]
                    output[2] = symbols[Int(chunk >> 6 & 0x3F)]
                    if padded { output[3] = equals }
                default:
                    break
                }
            }
        }
    }

    /// The encoding of `bytes` as a `String`, allocated once at its exact size.
    static func encodeToString<Bytes: Collection>(
        _ bytes: Bytes, alphabet: Alphabet, padded: Bool
    ) -> String where Bytes.Element == UInt8 {
        withContiguous(bytes) { source in
            let count = encodedCount(ofByteCount: source.count, padded: padded)
            return String(unsafeUninitializedCapacity: count) { buffer in
                if let base = buffer.baseAddress {
                    encode(source, into: base, alphabet: alphabet, padded: padded)
                }
                return count
            }
        }
    }

    /// Appends the encoding of `bytes` to `output`, growing it at most once.
    static func encode<Bytes: Collection>(
        _ bytes: Bytes, appendingTo output: inout [UInt8], alphabet: Alphabet, padded: Bool
    ) where Bytes.Element == UInt8 {
        withContiguous(bytes) { source in
            output.reserveCapacity(
                output.count + encodedCount(ofByteCount: source.count, padded: padded))
            // Encode through a stack buffer in whole groups, so the output is written once
            // (no zero fill first) and grows at most once.
            withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 1024) { chunk in
                guard let base = chunk.baseAddress else { return }
                var offset = 0
                while offset < source.count {
                    let take = min(768, source.count - offset)
                    let piece = UnsafeBufferPointer(rebasing: source[offset..<offset + take])
                    encode(piece, into: base, alphabet: alphabet, padded: padded)
                    let written = encodedCount(ofByteCount: take, padded: padded)
                    output.append(contentsOf: UnsafeBufferPointer(start: base, count: written))
                    offset += take
                }
            }
        }
    }

    // MARK: - Decoding

    /// Decodes `text` strictly: every byte in the alphabet (or, with `skipsWhitespace`, space, tab,
    /// CR or LF, which are ignored), padding as `padding` says, no character left over, and zero
    /// bits after the last encoded byte.
    static func decode<Text: Collection>(
        _ text: Text, alphabet: Alphabet, padding: Padding, skipsWhitespace: Bool
    ) throws(Fido2EncodingError) -> [UInt8] where Text.Element == UInt8 {
        try withContiguous(text) { source in
            if skipsWhitespace, source.contains(where: isWhitespace) {
                return decodeSkippingWhitespace(source, alphabet: alphabet, padding: padding)
            }
            return decodeBuffer(source, alphabet: alphabet, padding: padding)
        }.get()
    }

    private static func isWhitespace(_ byte: UInt8) -> Bool {
        byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D
    }

    /// Removes whitespace, decodes the rest, and maps any error offset back to the input.
    private static func decodeSkippingWhitespace(
        _ source: UnsafeBufferPointer<UInt8>, alphabet: Alphabet, padding: Padding
    ) -> Result<[UInt8], Fido2EncodingError> {
        var compact: [UInt8] = []
        var origins: [Int] = []
        compact.reserveCapacity(source.count)
        origins.reserveCapacity(source.count)
        for (offset, byte) in source.enumerated() where !isWhitespace(byte) {
            compact.append(byte)
            origins.append(offset)
        }
        let result = compact.withUnsafeBufferPointer {
            decodeBuffer($0, alphabet: alphabet, padding: padding)
        }
        return result.mapError { error in
            guard let offset = error.offset else { return error }
            let original = offset < origins.count ? origins[offset] : source.count
            return Fido2EncodingError(error.code, error.reason, offset: original)
        }
    }

    /// Decodes contiguous text without whitespace; error offsets are relative to `source`.
    static func decodeBuffer(
        _ source: UnsafeBufferPointer<UInt8>, alphabet: Alphabet, padding: Padding
    ) -> Result<[UInt8], Fido2EncodingError> {
        let total = source.count
        var end = total
        var pads = 0
        while end > 0, pads < 2, source[end - 1] == equals {
            end -= 1
            pads += 1
        }
        let remainder = end % 4
        // A stray character explains a wrong length better than the length does.
        let paddingOK = pads == 0 || (total % 4 == 0 && pads == (4 - remainder) % 4)
        let lengthOK =
            remainder != 1 && paddingOK && (pads > 0 || padding == .optional || remainder == 0)
        if !lengthOK, let stray = strayCharacter(in: source, alphabet: alphabet) {
            return .failure(stray)
        }
        if remainder == 1 {
            return .failure(
                Fido2EncodingError(
                    .invalidLength,
                    "\(end) \(alphabet.name) characters leave one character over; "
                        + "a final group needs two or three",
                    offset: end - 1))
        }
        if pads > 0 {
            guard paddingOK else {
                return .failure(
                    Fido2EncodingError(
                        .invalidPadding,
                        "\(pads) '=' after \(end) characters; padding must complete a group of four",
                        offset: end))
            }
        } else if padding == .required, remainder != 0 {
            return .failure(
                Fido2EncodingError(
                    .invalidLength,
                    "\(alphabet.name) text of \(total) characters lacks its '=' padding",
                    offset: total))
        }
        let outputCount = end / 4 * 3 + (remainder == 0 ? 0 : remainder - 1)
        // Empty text: `[UInt8](unsafeUninitializedCapacity: 0)` would store its count into the
        // stdlib's shared empty-array storage, a write that races with every thread reading an
        // empty array (ThreadSanitizer reports it).
        if outputCount == 0 { return .success([]) }
        var failure: Fido2EncodingError?
        let bytes = alphabet.values.withUnsafeBufferPointer { values in
            [UInt8](unsafeUninitializedCapacity: outputCount) { output, initialized in
                var input = 0
                var written = 0
                let wholeEnd = end - remainder
                while input < wholeEnd {
                    let a = values[Int(source[input])]
                    let b = values[Int(source[input + 1])]
                    let c = values[Int(source[input + 2])]
                    let d = values[Int(source[input + 3])]
                    if (a | b | c | d) & 0xC0 != 0 {
                        failure = invalidSymbol(in: source, from: input, values: values, alphabet)
                        initialized = 0
                        return
                    }
                    let chunk = UInt32(a) << 18 | UInt32(b) << 12 | UInt32(c) << 6 | UInt32(d)
                    output[written] = UInt8(truncatingIfNeeded: chunk >> 16)
                    output[written + 1] = UInt8(truncatingIfNeeded: chunk >> 8)
                    output[written + 2] = UInt8(truncatingIfNeeded: chunk)
                    input += 4
                    written += 3
                }
                if remainder > 0 {
                    let a = values[Int(source[input])]
                    let b = values[Int(source[input + 1])]
                    let c = remainder == 3 ? values[Int(source[input + 2])] : 0
                    if (a | b | c) & 0xC0 != 0 {
                        failure = invalidSymbol(in: source, from: input, values: values, alphabet)
                        initialized = 0
                        return
                    }
                    let unused = remainder == 2 ? b & 0x0F : c & 0x03
                    if unused != 0 {
                        failure = Fido2EncodingError(
                            .nonZeroTrailingBits,
                            "the last \(alphabet.name) character carries non-zero bits beyond "
                                + "the encoded bytes",
                            offset: end - 1)
                        initialized = 0
                        return
                    }
                    let chunk = UInt32(a) << 18 | UInt32(b) << 12 | UInt32(c) << 6
                    output[written] = UInt8(truncatingIfNeeded: chunk >> 16)
                    written += 1
                    if remainder == 3 {
                        output[written] = UInt8(truncatingIfNeeded: chunk >> 8)
                        written += 1
                    }
                }
                initialized = written
            }
        }
        if let failure { return .failure(failure) }
        return .success(bytes)
    }

    /// The error for the first byte that is neither in the alphabet nor `=`, if any.
    private static func strayCharacter(
        in source: UnsafeBufferPointer<UInt8>, alphabet: Alphabet
    ) -> Fido2EncodingError? {
        alphabet.values.withUnsafeBufferPointer { values in
            guard
                let offset = source.firstIndex(where: { values[Int($0)] == invalid && $0 != equals }
                )
            else { return nil }
            let byte = Hex.encode(byte: source[offset])
            return Fido2EncodingError(
                .invalidCharacter, "byte 0x\(byte) is not in the \(alphabet.name) alphabet",
                offset: offset)
        }
    }

    /// The error for the first byte at or after `start` that is outside the alphabet.
    private static func invalidSymbol(
        in source: UnsafeBufferPointer<UInt8>, from start: Int, values: UnsafeBufferPointer<UInt8>,
        _ alphabet: Alphabet
    ) -> Fido2EncodingError {
        var offset = start
        while offset < source.count, values[Int(source[offset])] != invalid {
            offset += 1
        }
        guard offset < source.count else {
            return Fido2EncodingError(.invalidCharacter, "invalid \(alphabet.name)", offset: start)
        }
        let byte = source[offset]
        if byte == equals {
            return Fido2EncodingError(
                .invalidPadding, "'=' inside \(alphabet.name) data, before its end",
                offset: offset)
        }
        return Fido2EncodingError(
            .invalidCharacter,
            "byte 0x\(Hex.encode(byte: byte)) is not in the \(alphabet.name) alphabet",
            offset: offset)
    }

    // MARK: - Helpers

    /// Runs `body` on contiguous storage of `bytes`, copying only when the collection has none.
    static func withContiguous<Bytes: Collection, Result>(
        _ bytes: Bytes, _ body: (UnsafeBufferPointer<UInt8>) -> Result
    ) -> Result where Bytes.Element == UInt8 {
        if let result = bytes.withContiguousStorageIfAvailable(body) {
            return result
        }
        return Array(bytes).withUnsafeBufferPointer(body)
    }
}
