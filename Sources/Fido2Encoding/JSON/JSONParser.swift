/// The recursive-descent parser behind ``JSONReader``, over one contiguous buffer.
struct JSONParser {
    let input: UnsafeBufferPointer<UInt8>
    let options: JSONReader.Options
    let maximumDepth: Int
    var position = 0
    var itemCount = 0
    /// Reused for strings with escapes, so most documents allocate it once.
    var scratch: [UInt8] = []

    init(input: UnsafeBufferPointer<UInt8>, options: JSONReader.Options) {
        self.input = input
        self.options = options
        self.maximumDepth = min(options.maximumDepth, JSONReader.depthCeiling)
    }

    // MARK: Structure

    mutating func parseDocument() throws(Fido2EncodingError) -> JSONValue {
        skipWhitespace()
        let value = try parseValue(depth: 0)
        skipWhitespace()
        if position < input.count {
            throw Fido2EncodingError(
                .trailingContent, "content after the JSON value", offset: position)
        }
        return value
    }

    mutating func parseValue(depth: Int) throws(Fido2EncodingError) -> JSONValue {
        guard position < input.count else {
            throw truncated("a value")
        }
        itemCount += 1
        if itemCount > options.maximumItemCount {
            throw Fido2EncodingError(
                .tooManyItems, "more than \(options.maximumItemCount) values in one document",
                offset: position)
        }
        switch input[position] {
        case UInt8(ascii: "{"):
            return .object(try parseObject(depth: depth + 1))
        case UInt8(ascii: "["):
            return .array(try parseArray(depth: depth + 1))
        case UInt8(ascii: "\""):
            return .string(try parseString())
        case UInt8(ascii: "t"):
            try expectLiteral("true")
            return .bool(true)
        case UInt8(ascii: "f"):
            try expectLiteral("false")
            return .bool(false)
        case UInt8(ascii: "n"):
            try expectLiteral("null")
            return .null
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"):
            return .number(try parseNumber())
        default:
            throw unexpected("a value")
        }
    }

    mutating func parseObject(depth: Int) throws(Fido2EncodingError) -> JSONObject {
        try checkDepth(depth)
        position += 1
        skipWhitespace()
        var members: [JSONMember] = []
        if position < input.count, input[position] == UInt8(ascii: "}") {
            position += 1
            return JSONObject(members)
        }
        // One allocation for typical WebAuthn objects instead of growing 1, 2, 4, 8.
        members.reserveCapacity(8)
        var seen = MemberNameSet()
        while true {
            guard position < input.count else { throw truncated("a member name") }
            guard input[position] == UInt8(ascii: "\"") else {
                throw unexpected("a member name in double quotes")
            }
            let nameOffset = position
            let name = try parseString()
            if !options.allowsDuplicateMemberNames, !seen.insert(name, among: members) {
                throw Fido2EncodingError(
                    .duplicateMemberName, "member name \"\(name)\" appears twice in one object",
                    offset: nameOffset)
            }
            skipWhitespace()
            guard position < input.count else { throw truncated("':'") }
            guard input[position] == UInt8(ascii: ":") else { throw unexpected("':'") }
            position += 1
            skipWhitespace()
            let value = try parseValue(depth: depth)
            members.append(JSONMember(name, value))
            skipWhitespace()
            guard position < input.count else { throw truncated("',' or '}'") }
            switch input[position] {
            case UInt8(ascii: ","):
                position += 1
                skipWhitespace()
            case UInt8(ascii: "}"):
                position += 1
                return JSONObject(members)
            default:
                throw unexpected("',' or '}'")
            }
        }
    }

    mutating func parseArray(depth: Int) throws(Fido2EncodingError) -> [JSONValue] {
        try checkDepth(depth)
        position += 1
        skipWhitespace()
        var elements: [JSONValue] = []
        if position < input.count, input[position] == UInt8(ascii: "]") {
            position += 1
            return elements
        }
        elements.reserveCapacity(4)
        while true {
            elements.append(try parseValue(depth: depth))
            skipWhitespace()
            guard position < input.count else { throw truncated("',' or ']'") }
            switch input[position] {
            case UInt8(ascii: ","):
                position += 1
                skipWhitespace()
            case UInt8(ascii: "]"):
                position += 1
                return elements
            default:
                throw unexpected("',' or ']'")
            }
        }
    }

    func checkDepth(_ depth: Int) throws(Fido2EncodingError) {
        if depth > maximumDepth {
            throw Fido2EncodingError(
                .depthExceeded, "arrays and objects nested deeper than \(maximumDepth)",
                offset: position)
        }
    }

    mutating func expectLiteral(_ literal: StaticString) throws(Fido2EncodingError) {
        let bytes = UnsafeBufferPointer(start: literal.utf8Start, count: literal.utf8CodeUnitCount)
        for byte in bytes {
            guard position < input.count else { throw truncated("'\(literal)'") }
            guard input[position] == byte else { throw unexpected("'\(literal)'") }
            position += 1
        }
    }

    mutating func skipWhitespace() {
        while position < input.count {
            switch input[position] {
            case 0x20, 0x0A, 0x0D, 0x09: position += 1
            default: return
            }
        }
    }

    // MARK: Numbers

    mutating func parseNumber() throws(Fido2EncodingError) -> JSONNumber {
        let start = position
        switch JSONNumber.scan(input, from: start) {
        case .success(let end):
            position = end
            let text = String(
                decoding: UnsafeBufferPointer(rebasing: input[start..<end]), as: UTF8.self)
            return JSONNumber(validatedText: text)
        case .failure(let error):
            throw error
        }
    }

    // MARK: Strings

    /// Where a scanned string's unescaped UTF-8 bytes are.
    enum ScannedString {
        /// In the input, at this range (the string had no escapes).
        case input(Range<Int>)
        /// In `scratch` (the string had escapes).
        case scratch
    }

    /// Reads the string whose opening quote is at `position`.
    mutating func parseString() throws(Fido2EncodingError) -> String {
        switch try scanString() {
        case .input(let range):
            return String(decoding: UnsafeBufferPointer(rebasing: input[range]), as: UTF8.self)
        case .scratch:
            return String(decoding: scratch, as: UTF8.self)
        }
    }

    /// Checks and unescapes the string whose opening quote is at `position`, leaving its bytes
    /// in the input (no escapes, the common case) or in `scratch`.
    mutating func scanString() throws(Fido2EncodingError) -> ScannedString {
        let start = position + 1
        // Fast path: no escapes, so the bytes are the string. A local index keeps the loop in
        // registers.
        var index = start
        let count = input.count
        while index < count {
            // Eight bytes at a time while none is a quote, backslash, control or non-ASCII byte.
            if let base = input.baseAddress {
                while index + 8 <= count {
                    let word = UnsafeRawPointer(base + index).loadUnaligned(as: UInt64.self)
                    if Self.needsAttention(word) { break }
                    index += 8
                }
                guard index < count else { break }
            }
            let byte = input[index]
            if byte >= 0x20, byte < 0x80, byte != UInt8(ascii: "\""), byte != UInt8(ascii: "\\") {
                index += 1
                continue
            }
            if byte == UInt8(ascii: "\"") {
                if index - start > options.maximumStringLength { throw stringTooLong(at: start) }
                position = index + 1
                return .input(start..<index)
            }
            if byte == UInt8(ascii: "\\") { break }
            position = index
            try advanceOverCharacter(byte)
            index = position
        }
        position = index
        guard position < count else { throw truncated("the end of a string") }
        // Slow path: copy what was scanned, then unescape the rest.
        scratch.removeAll(keepingCapacity: true)
        scratch.append(contentsOf: UnsafeBufferPointer(rebasing: input[start..<position]))
        while position < count {
            let byte = input[position]
            if byte == UInt8(ascii: "\"") {
                position += 1
                return .scratch
            }
            if byte == UInt8(ascii: "\\") {
                try unescape()
            } else {
                let characterStart = position
                try advanceOverCharacter(byte)
                scratch.append(
                    contentsOf: UnsafeBufferPointer(rebasing: input[characterStart..<position]))
            }
            if scratch.count > options.maximumStringLength { throw stringTooLong(at: start) }
        }
        throw truncated("the end of a string")
    }

    /// Whether any of the eight bytes in `word` is `"`, `\\`, below 0x20 or above 0x7F. May
    /// answer yes for a word that only follows such a byte (the byte loop then sorts it out),
    /// never no for one that holds one.
    static func needsAttention(_ word: UInt64) -> Bool {
        let ones: UInt64 = 0x0101_0101_0101_0101
        let highs: UInt64 = 0x8080_8080_8080_8080
        let quote = word ^ (ones &* 0x22)
        let backslash = word ^ (ones &* 0x5C)
        let quoteZero = (quote &- ones) & ~quote
        let backslashZero = (backslash &- ones) & ~backslash
        let control = (word &- ones &* 0x20) & ~word
        return (quoteZero | backslashZero | control | word) & highs != 0
    }

    func stringTooLong(at start: Int) -> Fido2EncodingError {
        Fido2EncodingError(
            .stringTooLong, "a string longer than \(options.maximumStringLength) bytes",
            offset: start - 1)
    }

    /// Steps over one unescaped character inside a string, checking it is allowed and, when
    /// not ASCII, well-formed UTF-8 (RFC 3629 table: no overlongs, surrogates or > U+10FFFF).
    mutating func advanceOverCharacter(_ byte: UInt8) throws(Fido2EncodingError) {
        if byte < 0x20 {
            throw Fido2EncodingError(
                .controlCharacterInString,
                "control character 0x\(Hex.encode(byte: byte)) must be escaped in a string",
                offset: position)
        }
        if byte < 0x80 {
            position += 1
            return
        }
        let lead = position
        let length: Int
        var low: UInt8 = 0x80
        var high: UInt8 = 0xBF
        switch byte {
        case 0xC2...0xDF: length = 2
        case 0xE0: length = 3; low = 0xA0
        case 0xE1...0xEC, 0xEE...0xEF: length = 3
        case 0xED: length = 3; high = 0x9F
        case 0xF0: length = 4; low = 0x90
        case 0xF1...0xF3: length = 4
        case 0xF4: length = 4; high = 0x8F
        default:
            throw invalidUTF8(at: lead)
        }
        for index in 1..<length {
            guard lead + index < input.count else { throw truncated("the end of a string") }
            let next = input[lead + index]
            let (minimum, maximum) = index == 1 ? (low, high) : (UInt8(0x80), UInt8(0xBF))
            guard next >= minimum, next <= maximum else { throw invalidUTF8(at: lead) }
        }
        position = lead + length
    }

    /// Decodes the escape at `position` into `scratch`.
    mutating func unescape() throws(Fido2EncodingError) {
        let escapeStart = position
        guard position + 1 < input.count else { throw truncated("an escape") }
        let kind = input[position + 1]
        position += 2
        switch kind {
        case UInt8(ascii: "\""): scratch.append(0x22)
        case UInt8(ascii: "\\"): scratch.append(0x5C)
        case UInt8(ascii: "/"): scratch.append(0x2F)
        case UInt8(ascii: "b"): scratch.append(0x08)
        case UInt8(ascii: "f"): scratch.append(0x0C)
        case UInt8(ascii: "n"): scratch.append(0x0A)
        case UInt8(ascii: "r"): scratch.append(0x0D)
        case UInt8(ascii: "t"): scratch.append(0x09)
        case UInt8(ascii: "u"):
            let unit = try hexQuad(escapeStart: escapeStart)
            var scalar = UInt32(unit)
            if unit >= 0xDC00, unit <= 0xDFFF {
                throw loneSurrogate(at: escapeStart)
            }
            if unit >= 0xD800, unit <= 0xDBFF {
                guard position < input.count else { throw truncated("a low surrogate") }
                guard input[position] == UInt8(ascii: "\\") else {
                    throw loneSurrogate(at: escapeStart)
                }
                guard position + 1 < input.count else { throw truncated("a low surrogate") }
                guard input[position + 1] == UInt8(ascii: "u") else {
                    throw loneSurrogate(at: escapeStart)
                }
                let lowStart = position
                position += 2
                let lowUnit = try hexQuad(escapeStart: lowStart)
                guard lowUnit >= 0xDC00, lowUnit <= 0xDFFF else {
                    throw loneSurrogate(at: escapeStart)
                }
                scalar = 0x10000 + (UInt32(unit - 0xD800) << 10) + UInt32(lowUnit - 0xDC00)
            }
            appendUTF8(scalar)
        default:
            throw Fido2EncodingError(
                .invalidEscape, "'\\' followed by a character that is not an escape",
                offset: escapeStart)
        }
    }

    /// Reads the four hex digits at `position`.
    mutating func hexQuad(escapeStart: Int) throws(Fido2EncodingError) -> UInt16 {
        var value: UInt16 = 0
        for _ in 0..<4 {
            guard position < input.count else { throw truncated("four hex digits") }
            let byte = input[position]
            let digit: UInt8
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = byte - UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = byte - UInt8(ascii: "a") + 10
            case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = byte - UInt8(ascii: "A") + 10
            default:
                throw Fido2EncodingError(
                    .invalidEscape, "'\\u' must be followed by four hex digits", offset: escapeStart
                )
            }
            value = value << 4 | UInt16(digit)
            position += 1
        }
        return value
    }

    mutating func appendUTF8(_ scalar: UInt32) {
        switch scalar {
        case 0..<0x80:
            scratch.append(UInt8(scalar))
        case 0x80..<0x800:
            scratch.append(UInt8(0xC0 | scalar >> 6))
            scratch.append(UInt8(0x80 | scalar & 0x3F))
        case 0x800..<0x10000:
            scratch.append(UInt8(0xE0 | scalar >> 12))
            scratch.append(UInt8(0x80 | scalar >> 6 & 0x3F))
            scratch.append(UInt8(0x80 | scalar & 0x3F))
        default:
            scratch.append(UInt8(0xF0 | scalar >> 18))
            scratch.append(UInt8(0x80 | scalar >> 12 & 0x3F))
            scratch.append(UInt8(0x80 | scalar >> 6 & 0x3F))
            scratch.append(UInt8(0x80 | scalar & 0x3F))
        }
    }

    // MARK: Errors

    func truncated(_ expected: String) -> Fido2EncodingError {
        Fido2EncodingError(
            .truncated, "input ends where \(expected) was expected", offset: input.count)
    }

    func unexpected(_ expected: String) -> Fido2EncodingError {
        let byte = input[position]
        let shown =
            byte >= 0x20 && byte < 0x7F
            ? "'\(Character(Unicode.Scalar(byte)))'" : "byte 0x\(Hex.encode(byte: byte))"
        return Fido2EncodingError(
            .unexpectedCharacter, "\(shown) where \(expected) was expected", offset: position)
    }

    func invalidUTF8(at offset: Int) -> Fido2EncodingError {
        Fido2EncodingError(.invalidUTF8, "malformed UTF-8 sequence in a string", offset: offset)
    }

    func loneSurrogate(at offset: Int) -> Fido2EncodingError {
        Fido2EncodingError(
            .loneSurrogate, "a UTF-16 surrogate escape without its partner", offset: offset)
    }
}
