/// Writes JSON to a byte buffer exactly as told: members in the order written, no whitespace,
/// strings escaped as ``JSONStringEscaping`` says, numbers as their literal text.
///
/// The writer places commas itself; the caller is responsible for the structure (a ``name(_:)``
/// before each value inside an object, balanced begin and end calls). For one allocation,
/// reserve the final size up front (``serializedLength(of:)`` and ``escapedLength(of:escaping:)``
/// compute it).
public struct JSONWriter: Sendable {
    /// The bytes written so far.
    public private(set) var bytes: [UInt8]
    /// Whether the next value or name needs a comma before it.
    private var needsComma = false

    /// An empty writer whose buffer has room for `capacity` bytes.
    public init(reservingCapacity capacity: Int = 0) {
        bytes = []
        bytes.reserveCapacity(capacity)
    }

    /// Makes room for `count` more bytes.
    public mutating func reserveCapacity(additional count: Int) {
        bytes.reserveCapacity(bytes.count + count)
    }

    // MARK: Structure

    /// Writes `{`.
    public mutating func beginObject() {
        separate()
        bytes.append(UInt8(ascii: "{"))
        needsComma = false
    }

    /// Writes `}`.
    public mutating func endObject() {
        bytes.append(UInt8(ascii: "}"))
        needsComma = true
    }

    /// Writes `[`.
    public mutating func beginArray() {
        separate()
        bytes.append(UInt8(ascii: "["))
        needsComma = false
    }

    /// Writes `]`.
    public mutating func endArray() {
        bytes.append(UInt8(ascii: "]"))
        needsComma = true
    }

    /// Writes a member name and its colon; the member's value comes next.
    public mutating func name(_ name: String) {
        var name = name
        name.withUTF8 { text in
            if !appendPlain(text, closing: UInt8(ascii: ":")) {
                separate()
                appendEscaped(text, escaping: .javaScript)
                bytes.append(UInt8(ascii: ":"))
            }
        }
        needsComma = false
    }

    // MARK: Values

    /// Writes a string value.
    public mutating func string(_ value: String, escaping: JSONStringEscaping = .javaScript) {
        var value = value
        value.withUTF8 { text in
            if !appendPlain(text, closing: nil) {
                separate()
                appendEscaped(text, escaping: escaping)
            }
        }
        needsComma = true
    }

    /// Writes `bytes` as an unpadded base64url string value, without an intermediate `String`
    /// (the common case, without generic dispatch).
    public mutating func base64URL(_ value: [UInt8]) {
        let staged = value.withUnsafeBufferPointer { source -> Bool in
            let encodedCount = Base64URL.encodedCount(ofByteCount: source.count)
            guard encodedCount <= Self.stagingLimit else { return false }
            let comma = needsComma
            appendStaged(capacity: encodedCount + 3) { out in
                var count = 0
                if comma {
                    out[0] = UInt8(ascii: ",")
                    count = 1
                }
                out[count] = UInt8(ascii: "\"")
                Base64Engine.encode(
                    source, into: out + count + 1, alphabet: Base64Engine.url, padded: false)
                count += 1 + encodedCount
                out[count] = UInt8(ascii: "\"")
                return count + 1
            }
            return true
        }
        if !staged {
            separate()
            bytes.append(UInt8(ascii: "\""))
            Base64URL.encode(value, appendingTo: &bytes)
            bytes.append(UInt8(ascii: "\""))
        }
        needsComma = true
    }

    /// Writes `bytes` as an unpadded base64url string value, without an intermediate `String`.
    public mutating func base64URL<Bytes: Collection>(_ value: Bytes) where Bytes.Element == UInt8 {
        separate()
        bytes.append(UInt8(ascii: "\""))
        Base64URL.encode(value, appendingTo: &bytes)
        bytes.append(UInt8(ascii: "\""))
        needsComma = true
    }

    /// Writes `true` or `false`.
    public mutating func bool(_ value: Bool) {
        separate()
        bytes.append(contentsOf: value ? Self.trueBytes : Self.falseBytes)
        needsComma = true
    }

    /// Writes `null`.
    public mutating func null() {
        separate()
        bytes.append(contentsOf: Self.nullBytes)
        needsComma = true
    }

    /// Writes an integer.
    public mutating func number(_ value: Int64) {
        separate()
        bytes.append(contentsOf: String(value).utf8)
        needsComma = true
    }

    /// Writes an integer.
    public mutating func number(_ value: Int) {
        number(Int64(value))
    }

    /// Writes a number's literal text.
    public mutating func number(_ value: JSONNumber) {
        separate()
        bytes.append(contentsOf: value.text.utf8)
        needsComma = true
    }

    /// Writes any value, recursively, in compact form.
    public mutating func value(_ value: JSONValue) {
        switch value {
        case .null:
            null()
        case .bool(let flag):
            bool(flag)
        case .number(let number):
            self.number(number)
        case .string(let text):
            string(text)
        case .array(let elements):
            beginArray()
            for element in elements { self.value(element) }
            endArray()
        case .object(let object):
            beginObject()
            for member in object.members {
                name(member.name)
                self.value(member.value)
            }
            endObject()
        }
    }

    // MARK: Sizes

    /// The number of bytes ``string(_:escaping:)`` writes for `text`, quotes included.
    public static func escapedLength(of text: String, escaping: JSONStringEscaping) -> Int {
        var text = text
        return text.withUTF8 { bytes in
            var length = 2 + bytes.count
            var index = nextEscape(in: bytes, from: 0)
            while index < bytes.count {
                length += escapeWidth(bytes[index], escaping) - 1
                index = nextEscape(in: bytes, from: index + 1)
            }
            return length
        }
    }

    /// The number of bytes ``value(_:)`` writes for `value`.
    public static func serializedLength(of value: JSONValue) -> Int {
        switch value {
        case .null: return 4
        case .bool(let flag): return flag ? 4 : 5
        case .number(let number): return number.text.utf8.count
        case .string(let text): return escapedLength(of: text, escaping: .javaScript)
        case .array(let elements):
            var length = 2 + max(elements.count - 1, 0)
            for element in elements { length += serializedLength(of: element) }
            return length
        case .object(let object):
            var length = 2 + max(object.members.count - 1, 0)
            for member in object.members {
                length += escapedLength(of: member.name, escaping: .javaScript) + 1
                length += serializedLength(of: member.value)
            }
            return length
        }
    }

    // MARK: Escaping

    private static let trueBytes: [UInt8] = Array("true".utf8)
    private static let falseBytes: [UInt8] = Array("false".utf8)
    private static let nullBytes: [UInt8] = Array("null".utf8)
    private static let hexDigits: [UInt8] = Array("0123456789abcdef".utf8)

    private mutating func separate() {
        if needsComma { bytes.append(UInt8(ascii: ",")) }
    }

    /// How many bytes `byte` takes once escaped.
    private static func escapeWidth(_ byte: UInt8, _ escaping: JSONStringEscaping) -> Int {
        if byte >= 0x20 {
            return byte == 0x22 || byte == 0x5C ? 2 : 1
        }
        if escaping == .javaScript, shortEscape(byte) != nil { return 2 }
        return 6
    }

    /// The letter of `\b \f \n \r \t` for `byte`, if it has one.
    private static func shortEscape(_ byte: UInt8) -> UInt8? {
        switch byte {
        case 0x08: return UInt8(ascii: "b")
        case 0x0C: return UInt8(ascii: "f")
        case 0x0A: return UInt8(ascii: "n")
        case 0x0D: return UInt8(ascii: "r")
        case 0x09: return UInt8(ascii: "t")
        default: return nil
        }
    }

    /// The first index from `index` on where an eight-byte word may hold a byte to escape (or
    /// a non-ASCII byte, which the byte loop then passes over): names, base64url and origins
    /// are skipped a word at a time.
    private static func skipPlainWords(_ source: UnsafeBufferPointer<UInt8>, from index: Int) -> Int
    {
        guard let base = source.baseAddress else { return index }
        var index = index
        while index + 8 <= source.count,
            !JSONParser.needsAttention(
                UnsafeRawPointer(base + index).loadUnaligned(as: UInt64.self))
        {
            index += 8
        }
        return index
    }

    /// The index of the first byte from `start` on that must be escaped (`"`, `\\` or a control
    /// character), or `source.count` when there is none.
    private static func nextEscape(in source: UnsafeBufferPointer<UInt8>, from start: Int) -> Int {
        var index = skipPlainWords(source, from: start)
        while index < source.count {
            let byte = source[index]
            if byte < 0x20 || byte == 0x22 || byte == 0x5C { return index }
            index = skipPlainWords(source, from: index + 1)
        }
        return source.count
    }

    /// The longest piece staged on the stack before it is appended: names, enumeration values,
    /// origins, and the base64url of IDs, hashes, signatures and clientDataJSON.
    private static let stagingLimit = 1024

    /// Writes bytes that `fill` puts into a stack buffer of `capacity` bytes (returning how many)
    /// with one `append(contentsOf:)`: one capacity check for a whole name or value instead of
    /// one per punctuation byte.
    @inline(__always)
    private mutating func appendStaged(
        capacity: Int, _ fill: (UnsafeMutablePointer<UInt8>) -> Int
    ) {
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: capacity) { buffer in
            guard let base = buffer.baseAddress else { return }
            let count = fill(base)
            bytes.append(contentsOf: UnsafeBufferPointer(start: base, count: count))
        }
    }

    /// Writes `text` as a string (after a comma when one is due, and followed by `closing` when
    /// given) in one append when it needs no escaping and is short; false, writing nothing,
    /// otherwise.
    private mutating func appendPlain(_ text: UnsafeBufferPointer<UInt8>, closing: UInt8?) -> Bool {
        guard text.count <= Self.stagingLimit, Self.nextEscape(in: text, from: 0) == text.count
        else { return false }
        let comma = needsComma
        appendStaged(capacity: text.count + 4) { out in
            var count = 0
            if comma {
                out[0] = UInt8(ascii: ",")
                count = 1
            }
            out[count] = UInt8(ascii: "\"")
            count += 1
            if let source = text.baseAddress {
                (out + count).update(from: source, count: text.count)
            }
            count += text.count
            out[count] = UInt8(ascii: "\"")
            count += 1
            if let closing {
                out[count] = closing
                count += 1
            }
            return count
        }
        return true
    }

    /// Writes `source` as a string, escaped as `escaping` says.
    private mutating func appendEscaped(
        _ source: UnsafeBufferPointer<UInt8>, escaping: JSONStringEscaping
    ) {
        bytes.append(UInt8(ascii: "\""))
        var runStart = 0
        var index = Self.nextEscape(in: source, from: 0)
        while index < source.count {
            if runStart < index {
                bytes.append(contentsOf: UnsafeBufferPointer(rebasing: source[runStart..<index]))
            }
            let byte = source[index]
            bytes.append(UInt8(ascii: "\\"))
            if byte == 0x22 || byte == 0x5C {
                bytes.append(byte)
            } else if escaping == .javaScript, let letter = Self.shortEscape(byte) {
                bytes.append(letter)
            } else {
                bytes.append(UInt8(ascii: "u"))
                bytes.append(UInt8(ascii: "0"))
                bytes.append(UInt8(ascii: "0"))
                bytes.append(Self.hexDigits[Int(byte >> 4)])
                bytes.append(Self.hexDigits[Int(byte & 0x0F)])
            }
            runStart = index + 1
            index = Self.nextEscape(in: source, from: runStart)
        }
        if runStart < source.count {
            bytes.append(contentsOf: UnsafeBufferPointer(rebasing: source[runStart...]))
        }
        bytes.append(UInt8(ascii: "\""))
    }
}
