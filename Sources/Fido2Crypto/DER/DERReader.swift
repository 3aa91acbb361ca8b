/// A strict, zero-copy reader of DER (X.690 distinguished encoding rules).
///
/// The reader walks one level of a DER structure: ``readElement()`` returns the next element
/// and ``readConstructed(_:_:)`` (``readSequence(_:)``, ``readSet(_:)``, ``readExplicit(_:_:)``)
/// hands a nested reader over a constructed element's contents to a closure, which must consume
/// them all. Typed reads (`readInteger`, `readObjectIdentifier`, …) check the tag and the
/// type's DER rules. Elements are slices of the input; nothing is copied until a value is
/// decoded.
///
/// Strictness: definite lengths only, in the fewest octets; tag numbers in the fewest octets;
/// every declared length within the remaining input; nesting at most
/// ``Limits-swift.struct/maximumDepth`` readers deep and input at most
/// ``Limits-swift.struct/maximumSize`` bytes. Every failure is a ``CryptoError`` with a `der…`
/// code and the byte ``CryptoError/offset`` counted from the start of the input.
@_spi(Fido2Internals) public struct DERReader: Sendable {
    /// Bounds on what a reader accepts.
    @_spi(Fido2Internals) public struct Limits: Hashable, Sendable {
        /// How many constructed elements deep nested readers may go (the outermost reader is
        /// depth 0).
        @_spi(Fido2Internals) public var maximumDepth: Int
        /// The largest input, in bytes.
        @_spi(Fido2Internals) public var maximumSize: Int

        /// Limits that fit X.509 certificates and their extensions with room to spare: depth
        /// 32, 1 MiB.
        @_spi(Fido2Internals) public init(maximumDepth: Int = 32, maximumSize: Int = 1 << 20) {
            self.maximumDepth = maximumDepth
            self.maximumSize = maximumSize
        }
    }

    private let input: ArraySlice<UInt8>
    private var position: Int
    /// The index of the first byte of the outermost input, for offsets.
    private let origin: Int
    private let depth: Int
    /// The limits this reader enforces.
    @_spi(Fido2Internals) public let limits: Limits

    /// A reader over `bytes`.
    ///
    /// - Throws: ``CryptoError/Code-swift.struct/derLimitExceeded`` when `bytes` is larger
    ///   than `limits.maximumSize`.
    @_spi(Fido2Internals) public init(
        _ bytes: ArraySlice<UInt8>, limits: Limits = Limits()
    ) throws(CryptoError) {
        guard bytes.count <= limits.maximumSize else {
            throw CryptoError(
                .derLimitExceeded,
                "input of \(bytes.count) bytes is larger than \(limits.maximumSize)", offset: 0)
        }
        input = bytes
        position = bytes.startIndex
        origin = bytes.startIndex
        depth = 0
        self.limits = limits
    }

    /// A reader over `bytes`; see ``init(_:limits:)-(ArraySlice<UInt8>,_)``.
    ///
    /// - Throws: as ``init(_:limits:)-(ArraySlice<UInt8>,_)``.
    @_spi(Fido2Internals) public init(
        _ bytes: [UInt8], limits: Limits = Limits()
    ) throws(CryptoError) {
        try self.init(bytes[...], limits: limits)
    }

    private init(nested contents: ArraySlice<UInt8>, origin: Int, depth: Int, limits: Limits) {
        input = contents
        position = contents.startIndex
        self.origin = origin
        self.depth = depth
        self.limits = limits
    }

    /// Reads `bytes` as exactly one element.
    ///
    /// - Throws: as ``readElement()``, and ``CryptoError/Code-swift.struct/derTrailingBytes``
    ///   when bytes follow the element.
    package static func singleElement(
        _ bytes: ArraySlice<UInt8>, limits: Limits = Limits()
    ) throws(CryptoError) -> DERElement {
        var reader = try DERReader(bytes, limits: limits)
        let element = try reader.readElement()
        try reader.finish()
        return element
    }

    /// Reads `bytes` as exactly one element; see ``singleElement(_:limits:)-(ArraySlice<UInt8>,_)``.
    ///
    /// - Throws: as ``singleElement(_:limits:)-(ArraySlice<UInt8>,_)``.
    package static func singleElement(
        _ bytes: [UInt8], limits: Limits = Limits()
    ) throws(CryptoError) -> DERElement {
        try singleElement(bytes[...], limits: limits)
    }

    /// Checks that `bytes` is exactly one element whose every constructed descendant is
    /// well-formed DER as well (the whole tree, not only the outer element), within `limits`.
    ///
    /// - Throws: the first error found, as ``readElement()`` and ``finish()`` report them.
    @_spi(Fido2Internals) public static func validate(
        _ bytes: ArraySlice<UInt8>, limits: Limits = Limits()
    ) throws(CryptoError) {
        var reader = try DERReader(bytes, limits: limits)
        let element = try reader.readElement()
        // Inside first, so the error reported is the first fault in the input.
        try reader.validateTree(element)
        try reader.finish()
    }

    private func validateTree(_ element: DERElement) throws(CryptoError) {
        guard element.tag.isConstructed else { return }
        var nested = try nestedReader(element)
        while !nested.isAtEnd {
            let child = try nested.readElement()
            try nested.validateTree(child)
        }
    }

    // MARK: Position

    /// Whether every byte has been read.
    @_spi(Fido2Internals) public var isAtEnd: Bool { position == input.endIndex }

    /// The offset of the next byte to read, from the start of the outermost input.
    @_spi(Fido2Internals) public var offset: Int { position - origin }

    /// Throws unless every byte has been read.
    ///
    /// - Throws: ``CryptoError/Code-swift.struct/derTrailingBytes`` at the first unread byte.
    @_spi(Fido2Internals) public func finish() throws(CryptoError) {
        guard isAtEnd else {
            throw CryptoError(
                .derTrailingBytes, "\(input.endIndex - position) bytes after the last element",
                offset: offset)
        }
    }

    // MARK: Elements

    /// The tag of the next element without reading it, or nil at the end.
    ///
    /// - Throws: as ``readElement()`` for a malformed identifier.
    package func peekTag() throws(CryptoError) -> DERTag? {
        guard !isAtEnd else { return nil }
        var copy = self
        return try copy.readTag()
    }

    /// Reads the next element.
    ///
    /// - Throws: ``CryptoError/Code-swift.struct/derTruncated`` when the input ends inside
    ///   the element; ``CryptoError/Code-swift.struct/derIndefiniteLength`` for a length octet
    ///   of 0x80; ``CryptoError/Code-swift.struct/derNonMinimalEncoding`` for a length or tag
    ///   number in more octets than needed; ``CryptoError/Code-swift.struct/derInvalidValue``
    ///   for the reserved length octet 0xff; ``CryptoError/Code-swift.struct/derLimitExceeded``
    ///   for a tag number above `UInt32.max` or a length above `Int.max`.
    @_spi(Fido2Internals) public mutating func readElement() throws(CryptoError) -> DERElement {
        let start = position
        guard !isAtEnd else {
            throw CryptoError(.derTruncated, "expected an element, found the end", offset: offset)
        }
        let tag = try readTag()
        let length = try readLength()
        let contentsStart = position
        guard length <= input.endIndex - position else {
            throw CryptoError(
                .derTruncated,
                "length \(length) exceeds the \(input.endIndex - position) bytes that remain",
                offset: start - origin)
        }
        position += length
        return DERElement(
            tag: tag, encoded: input[start..<position], contents: input[contentsStart..<position],
            offset: start - origin, contentsOffset: contentsStart - origin)
    }

    /// Reads the next element and checks its tag.
    ///
    /// - Throws: ``CryptoError/Code-swift.struct/derUnexpectedTag`` for another tag; otherwise
    ///   as ``readElement()``.
    @_spi(Fido2Internals) public mutating func readElement(
        _ tag: DERTag
    ) throws(CryptoError) -> DERElement {
        let element = try readElement()
        guard element.tag == tag else {
            throw CryptoError(
                .derUnexpectedTag, "expected \(tag), found \(element.tag)", offset: element.offset)
        }
        return element
    }

    /// Reads the next element if it has `tag` (an OPTIONAL or DEFAULT component); returns nil,
    /// reading nothing, at the end or when the next tag differs.
    ///
    /// - Throws: as ``readElement()``.
    package mutating func readOptionalElement(
        _ tag: DERTag
    ) throws(CryptoError) -> DERElement? {
        guard try peekTag() == tag else { return nil }
        return try readElement()
    }

    /// A reader over a constructed element's contents, one level deeper.
    ///
    /// - Throws: ``CryptoError/Code-swift.struct/derUnexpectedTag`` when `element` is
    ///   primitive; ``CryptoError/Code-swift.struct/derLimitExceeded`` past the depth limit.
    @_spi(Fido2Internals) public func nestedReader(
        _ element: DERElement
    ) throws(CryptoError) -> DERReader {
        guard element.tag.isConstructed else {
            throw CryptoError(
                .derUnexpectedTag, "\(element.tag) is not constructed", offset: element.offset)
        }
        guard depth < limits.maximumDepth else {
            throw CryptoError(
                .derLimitExceeded, "nesting deeper than \(limits.maximumDepth)",
                offset: element.offset)
        }
        return DERReader(
            nested: element.contents, origin: origin, depth: depth + 1, limits: limits)
    }

    /// Reads a constructed element with `tag` and runs `body` on a reader over its contents;
    /// `body` must read them all.
    ///
    /// - Throws: what `body` throws; ``CryptoError/Code-swift.struct/derTrailingBytes`` when
    ///   `body` leaves contents unread; otherwise as ``readElement(_:)`` and ``nestedReader(_:)``.
    package mutating func readConstructed<R>(
        _ tag: DERTag, _ body: (inout DERReader) throws(CryptoError) -> R
    ) throws(CryptoError) -> R {
        let element = try readElement(tag)
        var nested = try nestedReader(element)
        let result = try body(&nested)
        try nested.finish()
        return result
    }

    /// Reads a SEQUENCE; see ``readConstructed(_:_:)``.
    ///
    /// - Throws: as ``readConstructed(_:_:)``.
    package mutating func readSequence<R>(
        _ body: (inout DERReader) throws(CryptoError) -> R
    ) throws(CryptoError) -> R {
        try readConstructed(.sequence, body)
    }

    /// Reads a SET (or SET OF); see ``readConstructed(_:_:)``. The order of a SET OF's
    /// elements is not checked.
    ///
    /// - Throws: as ``readConstructed(_:_:)``.
    package mutating func readSet<R>(
        _ body: (inout DERReader) throws(CryptoError) -> R
    ) throws(CryptoError) -> R {
        try readConstructed(.set, body)
    }

    /// Reads an explicitly tagged `[number] EXPLICIT T`: a constructed context-specific
    /// element wrapping exactly one element, which `body` reads.
    ///
    /// - Throws: as ``readConstructed(_:_:)``.
    package mutating func readExplicit<R>(
        _ number: UInt32, _ body: (inout DERReader) throws(CryptoError) -> R
    ) throws(CryptoError) -> R {
        try readConstructed(.contextSpecific(number, constructed: true), body)
    }

    /// Reads `[number] EXPLICIT T` when the next element has that tag; nil otherwise.
    ///
    /// - Throws: as ``readExplicit(_:_:)``.
    package mutating func readOptionalExplicit<R>(
        _ number: UInt32, _ body: (inout DERReader) throws(CryptoError) -> R
    ) throws(CryptoError) -> R? {
        guard try peekTag() == .contextSpecific(number, constructed: true) else { return nil }
        return try readExplicit(number, body)
    }

    // MARK: Identifier and length octets

    private mutating func readByte() throws(CryptoError) -> UInt8 {
        guard position < input.endIndex else {
            throw CryptoError(.derTruncated, "the input ends inside an element", offset: offset)
        }
        let byte = input[position]
        position += 1
        return byte
    }

    private mutating func readTag() throws(CryptoError) -> DERTag {
        let start = offset
        let first = try readByte()
        let tagClass = DERTag.TagClass(rawValue: first >> 6) ?? .universal
        let constructed = first & 0x20 != 0
        guard first & 0x1f == 0x1f else {
            return DERTag(tagClass, number: UInt32(first & 0x1f), constructed: constructed)
        }
        // High-tag-number form: base-128, no leading 0x80, at least 31.
        var number: UInt64 = 0
        var isFirst = true
        while true {
            let byte = try readByte()
            if isFirst && byte == 0x80 {
                throw CryptoError(
                    .derNonMinimalEncoding, "tag number with a leading 0x80 octet", offset: start)
            }
            isFirst = false
            number = number << 7 | UInt64(byte & 0x7f)
            guard number <= UInt64(UInt32.max) else {
                throw CryptoError(
                    .derLimitExceeded, "tag number larger than \(UInt32.max)", offset: start)
            }
            if byte & 0x80 == 0 { break }
        }
        guard number >= 31 else {
            throw CryptoError(
                .derNonMinimalEncoding, "tag number \(number) in the high-tag-number form",
                offset: start)
        }
        return DERTag(tagClass, number: UInt32(number), constructed: constructed)
    }

    private mutating func readLength() throws(CryptoError) -> Int {
        let start = offset
        let first = try readByte()
        if first < 0x80 { return Int(first) }
        if first == 0x80 {
            throw CryptoError(
                .derIndefiniteLength, "indefinite length (BER only)", offset: start)
        }
        if first == 0xff {
            throw CryptoError(.derInvalidValue, "reserved length octet 0xff", offset: start)
        }
        let count = Int(first & 0x7f)
        guard count <= 8 else {
            throw CryptoError(
                .derLimitExceeded, "length in \(count) octets is too large", offset: start)
        }
        var length: UInt64 = 0
        for index in 0..<count {
            let byte = try readByte()
            if index == 0 && byte == 0 {
                throw CryptoError(
                    .derNonMinimalEncoding, "length with a leading zero octet", offset: start)
            }
            length = length << 8 | UInt64(byte)
        }
        guard length >= 0x80 else {
            throw CryptoError(
                .derNonMinimalEncoding, "length \(length) in the long form", offset: start)
        }
        guard length <= UInt64(Int.max) else {
            throw CryptoError(.derLimitExceeded, "length larger than Int.max", offset: start)
        }
        return Int(length)
    }
}
