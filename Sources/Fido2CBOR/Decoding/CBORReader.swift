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
        throws(CBORError)
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
    public init(_ bytes: [UInt8], options: CBORDecodingOptions = .strict) throws(CBORError) {
        try self.init(bytes[...], options: options)
    }

    /// Validates only the first item of `bytes` and returns how many bytes it takes; whatever
    /// follows is not looked at. Authenticator data uses this to find where a COSE key ends.
    ///
    /// - Throws: ``CBORError`` when the first item is not well-formed, exceeds a limit, or (as
    ///   the options ask) breaks a strict rule. Trailing bytes are never an error here.
    public static func lengthOfFirstItem(
        in bytes: ArraySlice<UInt8>, options: CBORDecodingOptions = .strict
    ) throws(CBORError) -> Int {
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
    public func peekMajorType() throws(CBORError) -> CBORMajorType {
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
    public mutating func readUnsigned() throws(CBORError) -> UInt64 {
        try consumeHead(.unsigned, expecting: "unsigned integer").argument
    }

    /// Reads an integer of major type 0 or 1 that fits in `Int64`.
    ///
    /// - Throws: ``CBORError`` with code `typeMismatch` for a non-integer, `integerOutOfRange`
    ///   for an integer outside `Int64`.
    public mutating func readInt() throws(CBORError) -> Int64 {
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
    public mutating func readByteString() throws(CBORError) -> ArraySlice<UInt8> {
        try readString(.byteString, expecting: "byte string")
    }

    /// Reads the UTF-8 bytes of a text string (major type 3) without making a `String`: a slice
    /// of the input for definite lengths. Useful to compare keys against known names.
    ///
    /// - Throws: ``CBORError`` with code `typeMismatch` for any other item.
    public mutating func readTextStringBytes() throws(CBORError) -> ArraySlice<UInt8> {
        try readString(.textString, expecting: "text string")
    }

    /// Reads a text string (major type 3).
    ///
    /// - Throws: ``CBORError`` with code `typeMismatch` for any other item, `invalidUTF8` when
    ///   its bytes are not UTF-8 (possible only when the options skip UTF-8 validation).
    public mutating func readTextString() throws(CBORError) -> String {
        let start = offset
        let utf8 = try readTextStringBytes()
        guard let text = String(validating: utf8, as: UTF8.self) else {
            throw CBORError(.invalidUTF8, at: start)
        }
        return text
    }

    private mutating func readString(
        _ majorType: CBORMajorType, expecting what: String
    )
        throws(CBORError) -> ArraySlice<UInt8>
    {
        let start = offset
        let head = try consumeHead(majorType, expecting: what)
        if head.isIndefinite {
            var joined: [UInt8] = []
            while input[input.startIndex + offset] != 0xff {
                let chunk = try consumeHead(majorType, expecting: what)
                let begin = input.startIndex + offset
                joined.append(contentsOf: input[begin..<begin + Int(chunk.argument)])
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
    public mutating func readArrayHeader() throws(CBORError) -> Int {
        try readContainerHeader(.array, expecting: "array")
    }

    /// Reads the head of a definite-length map and returns its entry count; read key, value,
    /// key, … next.
    ///
    /// - Throws: ``CBORError`` with code `typeMismatch` for any other item, and
    ///   `indefiniteLengthNotAllowed` for an indefinite-length map (use ``readValue()``).
    public mutating func readMapHeader() throws(CBORError) -> Int {
        try readContainerHeader(.map, expecting: "map")
    }

    private mutating func readContainerHeader(
        _ majorType: CBORMajorType, expecting what: String
    )
        throws(CBORError) -> Int
    {
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
    public mutating func readTag() throws(CBORError) -> UInt64 {
        try consumeHead(.tag, expecting: "tag").argument
    }

    /// Reads `false` or `true`.
    ///
    /// - Throws: ``CBORError`` with code `typeMismatch` for any other item.
    public mutating func readBool() throws(CBORError) -> Bool {
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
    public mutating func readNull() throws(CBORError) {
        let head = try head()
        guard head.majorType == 7, head.additionalInfo == 22 else {
            throw CBORError(.typeMismatch, at: offset, detail: "expected null")
        }
        offset = head.contentStart
    }

    /// Reads a half-, single- or double-precision float.
    ///
    /// - Throws: ``CBORError`` with code `typeMismatch` for any other item (integers included).
    public mutating func readFloat() throws(CBORError) -> Double {
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
    public mutating func skipItem() throws(CBORError) {
        _ = try readEncodedItem()
    }

    /// Returns the encoded bytes of the next item (a slice of the input) and moves past it.
    ///
    /// - Throws: ``CBORError/Code-swift.struct/truncated`` at the end of the input.
    public mutating func readEncodedItem() throws(CBORError) -> ArraySlice<UInt8> {
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
