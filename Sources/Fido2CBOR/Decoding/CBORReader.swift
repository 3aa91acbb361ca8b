/// Reads CBOR items one at a time from a byte slice, without copying byte strings.
///
/// The initializer validates the whole input once, checking well-formedness, the limits of the
/// options, and in ``CBORDecodingOptions/strict`` mode the CTAP2 canonical rules. After that the
/// typed reads only check that the next item has the type asked for. Byte strings come back as
/// slices sharing the input's storage.
///
/// ```swift
/// var reader = try CBORReader(attestationObject)        // strict by default
/// let entries = try reader.readMapHeader()
/// ```
public struct CBORReader: Sendable {
    /// The input, as given.
    public let input: ArraySlice<UInt8>
    /// The options the input was validated with.
    public let options: CBORDecodingOptions
    /// The offset of the next item, counted from the start of the input.
    public internal(set) var offset: Int

    /// Validates `bytes` and positions the reader at its first item.
    ///
    /// - Throws: ``CBORError`` when the input is not well-formed, exceeds a limit, or (as the
    ///   options ask) breaks a strict rule or carries trailing bytes.
    public init(
        _ bytes: ArraySlice<UInt8>, options: CBORDecodingOptions = .strict
    )
        throws
    {
        _ = try bytes.withUnsafeBufferPointer { (buffer) throws(CBORError) -> Int in
            try CBORValidator.validateInput(buffer, options: options)
        }
        self.input = bytes
        self.options = options
        self.offset = 0
    }

    /// Validates `bytes` and positions the reader at its first item.
    ///
    /// - Throws: ``CBORError``; see ``init(_:options:)-(ArraySlice<UInt8>,_)``.
    public init(_ bytes: [UInt8], options: CBORDecodingOptions = .strict) throws {
        try self.init(bytes[...], options: options)
    }

    /// Validates only the first item of `bytes` and returns how many bytes it takes; whatever
    /// follows is not looked at. Authenticator data uses this to find where a COSE key ends.
    ///
    /// - Throws: ``CBORError`` when the first item is not well-formed, exceeds a limit, or (as
    ///   the options ask) breaks a strict rule. Trailing bytes are never an error here.
    public static func lengthOfFirstItem(
        in bytes: ArraySlice<UInt8>, options: CBORDecodingOptions = .strict
    ) throws -> Int {
        try bytes.withUnsafeBufferPointer { (buffer) throws(CBORError) -> Int in
            guard buffer.count <= options.maximumInputSize else {
                throw CBORError(.inputTooLarge, at: options.maximumInputSize)
            }
            var validator = CBORValidator(buffer, options: options)
            return try validator.validateItem(at: 0, depth: 0)
        }
    }

    /// Whether every item has been read.
    public var isAtEnd: Bool { offset >= input.count }

    /// The major type of the next item, without consuming it.
    ///
    /// - Throws: ``CBORError/Code-swift.struct/truncated`` at the end of the input.
    public func peekMajorType() throws -> CBORMajorType {
        guard offset < input.count else { throw CBORError(.truncated, at: offset) }
        return CBORMajorType(rawValue: input[input.startIndex + offset] >> 5) ?? .simpleOrFloat
    }

    /// Decodes the head of the next item without consuming it.
    @inline(__always)
    func head() throws(CBORError) -> CBORHead {
        try input.withUnsafeBufferPointer { (buffer) throws(CBORError) -> CBORHead in
            try CBORHead.decode(buffer, at: offset)
        }
    }

    /// Consumes the head of the next item, which must be of `majorType`, and returns it.
    @inline(__always)
    mutating func consumeHead(
        _ majorType: CBORMajorType, expecting what: String
    )
        throws(CBORError) -> CBORHead
    {
        let head = try head()
        guard head.majorType == majorType.rawValue else {
            throw CBORError(.typeMismatch, at: offset, detail: "expected \(what)")
        }
        offset = head.contentStart
        return head
    }

    /// Reads an unsigned integer (major type 0).
    ///
    /// - Throws: ``CBORError`` with code `typeMismatch` for any other item.
    public mutating func readUnsigned() throws -> UInt64 {
        try consumeHead(.unsigned, expecting: "unsigned integer").argument
    }

    /// Reads an integer of major type 0 or 1 that fits in `Int64`.
    ///
    /// - Throws: ``CBORError`` with code `typeMismatch` for a non-integer, `integerOutOfRange`
    ///   for an integer outside `Int64`.
    public mutating func readInt() throws -> Int64 {
        if let initial = initialByte(), initial & 0x1f < 24, initial &>> 5 < 2 {
            offset &+= 1
            let value = Int64(initial & 0x1f)
            return initial &>> 5 == 0 ? value : -1 - value
        }
        let head = try head()
        switch head.majorType {
        case 0:
            guard head.argument <= UInt64(Int64.max) else {
                throw CBORError(.integerOutOfRange, at: offset)
            }
            offset = head.contentStart
            return Int64(head.argument)
        case 1:
            guard head.argument <= UInt64(Int64.max) else {
                throw CBORError(.integerOutOfRange, at: offset)
            }
            offset = head.contentStart
            return -1 - Int64(head.argument)
        default:
            throw CBORError(.typeMismatch, at: offset, detail: "expected integer")
        }
    }

    /// Reads a byte string (major type 2). A definite-length string comes back as a slice of the
    /// input (no copy); an indefinite-length one (lenient mode) as its chunks joined.
    ///
    /// - Throws: ``CBORError`` with code `typeMismatch` for any other item.
    public mutating func readByteString() throws -> ArraySlice<UInt8> {
        if let slice = readDefiniteString(majorType: 2) { return slice }
        return try readString(.byteString, expecting: "byte string")
    }

    /// Reads the UTF-8 bytes of a text string (major type 3) without making a `String`: a slice
    /// of the input for definite lengths. Match it against known names with ``text(_:is:)``.
    ///
    /// - Throws: ``CBORError`` with code `typeMismatch` for any other item.
    public mutating func readTextStringBytes() throws -> ArraySlice<UInt8> {
        if let slice = readDefiniteString(majorType: 3) { return slice }
        return try readString(.textString, expecting: "text string")
    }

    /// Reads a text string (major type 3).
    ///
    /// - Throws: ``CBORError`` with code `typeMismatch` for any other item, `invalidUTF8` when
    ///   its bytes, or one chunk of an indefinite-length string, are not UTF-8 (possible only
    ///   when the options skip UTF-8 validation).
    public mutating func readTextString() throws -> String {
        let start = offset
        let utf8 =
            if let slice = readDefiniteString(majorType: 3) {
                slice
            } else {
                try readString(.textString, expecting: "text string", validatingChunks: true)
            }
        guard let text = String(validating: utf8, as: UTF8.self) else {
            throw CBORError(.invalidUTF8, at: start)
        }
        return text
    }

    /// Whether the UTF-8 bytes `utf8` spell `name`: a cheap way to match map keys read with
    /// ``readTextStringBytes()`` against the names a format defines.
    public static func text(_ utf8: ArraySlice<UInt8>, is name: StaticString) -> Bool {
        guard name.hasPointerRepresentation, utf8.count == name.utf8CodeUnitCount else {
            return false
        }
        let expected = name.utf8Start
        return utf8.withUnsafeBufferPointer { actual in
            for index in 0..<actual.count where actual[index] != expected[index] { return false }
            return true
        }
    }

    /// Reads the next item if it is the text string `name` and returns true; otherwise leaves
    /// the reader where it is and returns false. The fastest way to dispatch on known map keys:
    ///
    /// ```swift
    /// if reader.readTextString(ifEqualTo: "fmt") { … } else if reader.readTextString(ifEqualTo: "attStmt") { … }
    /// ```
    public mutating func readTextString(ifEqualTo name: StaticString) -> Bool {
        let length = name.utf8CodeUnitCount
        guard length < 24, name.hasPointerRepresentation else {
            return readLongTextString(ifEqualTo: name)
        }
        let start = offset
        let expected = name.utf8Start
        // The head of a short text string is one byte, 0x60 | length; then the bytes follow.
        let matches = input.withUnsafeBufferPointer { buffer in
            guard buffer.count &- start > length, let base = buffer.baseAddress,
                base[start] == 0x60 | UInt8(length)
            else { return false }
            let actual = base + (start &+ 1)
            for index in 0..<length where actual[index] != expected[index] { return false }
            return true
        }
        if matches { offset = start &+ 1 &+ length }
        return matches
    }

    /// ``readTextString(ifEqualTo:)`` for names of 24 bytes or more, kept out of line.
    @inline(never)
    private mutating func readLongTextString(ifEqualTo name: StaticString) -> Bool {
        var probe = self
        guard let bytes = try? probe.readTextStringBytes(), Self.text(bytes, is: name) else {
            return false
        }
        self = probe
        return true
    }

    /// The byte at the reader's position, or nil at the end.
    @inline(__always)
    private func initialByte() -> UInt8? {
        let position = input.startIndex &+ offset
        return position < input.endIndex ? input[position] : nil
    }

    /// The fast path of string reads: a definite string of `majorType` whose length fits the
    /// initial byte or the one or two after it. Nil sends the caller to the general path.
    @inline(__always)
    private mutating func readDefiniteString(majorType: UInt8) -> ArraySlice<UInt8>? {
        let position = input.startIndex &+ offset
        guard position < input.endIndex else { return nil }
        let initial = input[position]
        guard initial &>> 5 == majorType else { return nil }
        let length: Int
        let start: Int
        switch initial & 0x1f {
        case 0..<24:
            length = Int(initial & 0x1f)
            start = position &+ 1
        case 24:
            guard position &+ 1 < input.endIndex else { return nil }
            length = Int(input[position &+ 1])
            start = position &+ 2
        case 25:
            guard position &+ 2 < input.endIndex else { return nil }
            length = Int(input[position &+ 1]) << 8 | Int(input[position &+ 2])
            start = position &+ 3
        default:
            return nil
        }
        guard length <= input.endIndex &- start else { return nil }
        offset = start &+ length &- input.startIndex
        return input[start..<(start &+ length)]
    }

    private mutating func readString(
        _ majorType: CBORMajorType, expecting what: String, validatingChunks: Bool = false
    )
        throws(CBORError) -> ArraySlice<UInt8>
    {
        let start = offset
        let head = try consumeHead(majorType, expecting: what)
        if head.isIndefinite {
            var joined: [UInt8] = []
            while input[input.startIndex + offset] != 0xff {
                let chunkStart = offset
                let chunk = try consumeHead(majorType, expecting: what)
                let begin = input.startIndex + offset
                let bytes = input[begin..<begin + Int(chunk.argument)]
                // A text chunk is a text string of its own (RFC 8949 §3.2.3): no code point
                // split across chunks.
                if validatingChunks && String(validating: bytes, as: UTF8.self) == nil {
                    throw CBORError(.invalidUTF8, at: chunkStart)
                }
                joined.append(contentsOf: bytes)
                offset += Int(chunk.argument)
            }
            offset += 1
            return joined[...]
        }
        let begin = input.startIndex + offset
        guard head.argument <= UInt64(input.endIndex - begin) else {
            throw CBORError(.lengthExceedsInput, at: start)
        }
        offset += Int(head.argument)
        return input[begin..<begin + Int(head.argument)]
    }

    /// Reads the head of a definite-length array and returns its item count; read the items next.
    ///
    /// - Throws: ``CBORError`` with code `typeMismatch` for any other item, and
    ///   `indefiniteLengthNotAllowed` for an indefinite-length array (use ``readValue()``).
    public mutating func readArrayHeader() throws -> Int {
        try readContainerHeader(.array, expecting: "array")
    }

    /// Reads the head of a definite-length map and returns its entry count; read key, value,
    /// key, … next.
    ///
    /// - Throws: ``CBORError`` with code `typeMismatch` for any other item, and
    ///   `indefiniteLengthNotAllowed` for an indefinite-length map (use ``readValue()``).
    public mutating func readMapHeader() throws -> Int {
        try readContainerHeader(.map, expecting: "map")
    }

    private mutating func readContainerHeader(
        _ majorType: CBORMajorType, expecting what: String
    )
        throws(CBORError) -> Int
    {
        if let initial = initialByte(), initial & 0x1f < 24, initial &>> 5 == majorType.rawValue {
            offset &+= 1
            return Int(initial & 0x1f)
        }
        let start = offset
        let head = try self.head()
        guard head.majorType == majorType.rawValue else {
            throw CBORError(.typeMismatch, at: start, detail: "expected \(what)")
        }
        guard !head.isIndefinite else {
            throw CBORError(.indefiniteLengthNotAllowed, at: start)
        }
        // Validation bounded every count by the input size, so this conversion cannot trap.
        guard head.argument <= UInt64(input.count) else {
            throw CBORError(.lengthExceedsInput, at: start)
        }
        offset = head.contentStart
        return Int(head.argument)
    }

    /// Reads a tag number; read the tagged item next.
    ///
    /// - Throws: ``CBORError`` with code `typeMismatch` for any other item.
    public mutating func readTag() throws -> UInt64 {
        try consumeHead(.tag, expecting: "tag").argument
    }

    /// Reads `false` or `true`.
    ///
    /// - Throws: ``CBORError`` with code `typeMismatch` for any other item.
    public mutating func readBool() throws -> Bool {
        let head = try head()
        guard head.majorType == 7, head.additionalInfo == 20 || head.additionalInfo == 21 else {
            throw CBORError(.typeMismatch, at: offset, detail: "expected boolean")
        }
        offset = head.contentStart
        return head.additionalInfo == 21
    }

    /// Reads `null`.
    ///
    /// - Throws: ``CBORError`` with code `typeMismatch` for any other item.
    public mutating func readNull() throws {
        let head = try head()
        guard head.majorType == 7, head.additionalInfo == 22 else {
            throw CBORError(.typeMismatch, at: offset, detail: "expected null")
        }
        offset = head.contentStart
    }

    /// Reads a half-, single- or double-precision float.
    ///
    /// - Throws: ``CBORError`` with code `typeMismatch` for any other item (integers included).
    public mutating func readFloat() throws -> Double {
        let head = try head()
        guard head.majorType == 7, (25...27).contains(head.additionalInfo) else {
            throw CBORError(.typeMismatch, at: offset, detail: "expected float")
        }
        offset = head.contentStart
        return Self.floatValue(head)
    }

    static func floatValue(_ head: CBORHead) -> Double {
        switch head.additionalInfo {
        case 25: return FloatBits.double(fromHalf: UInt16(truncatingIfNeeded: head.argument))
        case 26: return Double(Float(bitPattern: UInt32(truncatingIfNeeded: head.argument)))
        default: return Double(bitPattern: head.argument)
        }
    }

    /// Skips the next item, whatever it is, including everything nested in it.
    ///
    /// - Throws: ``CBORError/Code-swift.struct/truncated`` at the end of the input.
    public mutating func skipItem() throws {
        _ = try readEncodedItem()
    }

    /// Returns the encoded bytes of the next item (a slice of the input) and moves past it.
    ///
    /// - Throws: ``CBORError/Code-swift.struct/truncated`` at the end of the input.
    public mutating func readEncodedItem() throws -> ArraySlice<UInt8> {
        let start = offset
        let end = try input.withUnsafeBufferPointer { (buffer) throws(CBORError) -> Int in
            // The input was validated with `options`; walking it again with no checks and no
            // limits only finds the item's end.
            var walker = CBORValidator(
                buffer,
                options: CBORDecodingOptions(
                    checks: [], maximumDepth: CBORDecodingOptions.depthCeiling,
                    maximumItemCount: .max, maximumInputSize: .max))
            return try walker.validateItem(at: start, depth: 0)
        }
        offset = end
        return input[(input.startIndex + start)..<(input.startIndex + end)]
    }
}
