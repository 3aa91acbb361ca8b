/// A minimal DER writer: the same inputs always give the same bytes.
///
/// Constructed elements are written by a closure (``appendSequence(_:)``, ``appendSet(_:)``,
/// ``appendExplicit(_:_:)``); the writer fills in the length afterwards in the fewest octets,
/// and sorts a SET OF's elements as DER requires. It is meant for certificates and other small
/// structures, not for hot paths: nesting moves each level's contents once.
@_spi(Fido2Internals) public struct DERWriter: Sendable {
    /// The DER written so far.
    @_spi(Fido2Internals) public private(set) var bytes: [UInt8] = []

    /// An empty writer.
    @_spi(Fido2Internals) public init() {}

    // MARK: Elements

    /// Appends an element with `tag` and the given contents octets, as they are.
    @_spi(Fido2Internals) public mutating func appendElement<C: Collection<UInt8>>(
        _ tag: DERTag, contents: C
    ) {
        tag.append(to: &bytes)
        Self.appendLength(contents.count, to: &bytes)
        bytes.append(contentsOf: contents)
    }

    /// Appends an already encoded element, which must be exactly one well-formed DER element.
    ///
    /// - Throws: as ``DERReader/singleElement(_:limits:)-(ArraySlice<UInt8>,_)``.
    package mutating func appendEncoded<C: Collection<UInt8>>(
        _ element: C
    ) throws(CryptoError) {
        let copy = Array(element)
        _ = try DERReader.singleElement(copy)
        bytes.append(contentsOf: copy)
    }

    /// Appends bytes this module already knows to be one well-formed element.
    mutating func appendTrustedEncoded<C: Collection<UInt8>>(_ element: C) {
        bytes.append(contentsOf: element)
    }

    /// Appends a constructed element with `tag` whose contents `body` writes.
    ///
    /// - Throws: what `body` throws; the writer is then as it was before the call.
    @_spi(Fido2Internals) public mutating func appendConstructed<E: Error>(
        _ tag: DERTag, _ body: (inout DERWriter) throws(E) -> Void
    ) throws(E) {
        let start = bytes.count
        do throws(E) {
            try body(&self)
        } catch {
            bytes.removeSubrange(start...)
            throw error
        }
        var header: [UInt8] = []
        tag.append(to: &header)
        Self.appendLength(bytes.count - start, to: &header)
        bytes.insert(contentsOf: header, at: start)
    }

    /// Appends a SEQUENCE whose elements `body` writes.
    ///
    /// - Throws: what `body` throws.
    package mutating func appendSequence<E: Error>(
        _ body: (inout DERWriter) throws(E) -> Void
    ) throws(E) {
        try appendConstructed(.sequence, body)
    }

    /// Appends a SET OF whose elements `body` writes; they are sorted into DER order (X.690
    /// §11.6: by their encodings, as octet strings).
    ///
    /// - Throws: what `body` throws.
    package mutating func appendSet(
        _ body: (inout DERWriter) throws(CryptoError) -> Void
    ) throws(CryptoError) {
        var inner = DERWriter()
        try body(&inner)
        var reader = try DERReader(inner.bytes)
        var elements: [ArraySlice<UInt8>] = []
        while !reader.isAtEnd { elements.append(try reader.readElement().encoded) }
        elements.sort { Self.setOrder($0, $1) }
        appendElement(.set, contents: elements.joined())
    }

    /// Appends `[number] EXPLICIT`, wrapping the one element `body` writes.
    ///
    /// - Throws: what `body` throws.
    package mutating func appendExplicit<E: Error>(
        _ number: UInt32, _ body: (inout DERWriter) throws(E) -> Void
    ) throws(E) {
        try appendConstructed(.contextSpecific(number, constructed: true), body)
    }

    // MARK: Primitive values

    /// Appends a non-negative INTEGER given as big-endian unsigned octets (leading zeros are
    /// dropped, and a zero octet is added when the high bit would read as a sign).
    @_spi(Fido2Internals) public mutating func appendInteger<C: Collection<UInt8>>(
        unsignedBigEndian magnitude: C, tag: DERTag = .integer
    ) {
        let significant = magnitude.drop { $0 == 0 }
        var contents: [UInt8] = []
        contents.reserveCapacity(significant.count + 1)
        if significant.first.map({ $0 >= 0x80 }) ?? true { contents.append(0) }
        contents.append(contentsOf: significant)
        appendElement(tag, contents: contents)
    }

    /// Appends an INTEGER (minimal two's complement).
    @_spi(Fido2Internals) public mutating func appendInteger(_ value: Int64, tag: DERTag = .integer)
    {
        appendElement(tag, contents: Self.minimalTwosComplement(value))
    }

    /// Appends an ENUMERATED.
    package mutating func appendEnumerated(
        _ value: Int64, tag: DERTag = .enumerated
    ) {
        appendElement(tag, contents: Self.minimalTwosComplement(value))
    }

    /// Appends a BOOLEAN (0xff for true).
    @_spi(Fido2Internals) public mutating func appendBoolean(_ value: Bool, tag: DERTag = .boolean)
    {
        appendElement(tag, contents: CollectionOfOne(value ? 0xff : 0x00))
    }

    /// Appends a NULL.
    package mutating func appendNull(tag: DERTag = .null) {
        appendElement(tag, contents: EmptyCollection())
    }

    /// Appends an OCTET STRING.
    package mutating func appendOctetString<C: Collection<UInt8>>(
        _ contents: C, tag: DERTag = .octetString
    ) {
        appendElement(tag, contents: contents)
    }

    /// Appends a BIT STRING of whole octets whose last `unusedBitCount` bits are padding.
    ///
    /// - Throws: ``CryptoError/Code-swift.struct/derInvalidValue`` when `unusedBitCount` is
    ///   outside 0–7, non-zero for an empty string, or the padding bits are not zero.
    package mutating func appendBitString<C: Collection<UInt8>>(
        _ octets: C, unusedBitCount: Int = 0, tag: DERTag = .bitString
    ) throws(CryptoError) {
        var contents: [UInt8] = [UInt8(truncatingIfNeeded: unusedBitCount)]
        contents.append(contentsOf: octets)
        let element = DERElement(
            tag: tag, encoded: contents[...], contents: contents[...], offset: 0,
            contentsOffset: 0)
        guard (0...7).contains(unusedBitCount) else {
            throw CryptoError(.derInvalidValue, "unused bit count must be 0–7")
        }
        _ = try element.decodeBitString()
        appendElement(tag, contents: contents)
    }

    /// Appends an OBJECT IDENTIFIER.
    package mutating func appendObjectIdentifier(
        _ identifier: ASN1ObjectIdentifier, tag: DERTag = .objectIdentifier
    ) {
        appendElement(tag, contents: identifier.derContents)
    }

    /// Appends `text` as a character string of type `type` (UTF8String, PrintableString,
    /// IA5String, NumericString, VisibleString, BMPString or UniversalString).
    ///
    /// - Throws: ``CryptoError/Code-swift.struct/derInvalidValue`` when `text` has characters
    ///   the type cannot hold; ``CryptoError/Code-swift.struct/derUnexpectedTag`` for other
    ///   types.
    package mutating func appendString(
        _ text: String, as type: DERTag
    ) throws(CryptoError) {
        let contents: [UInt8]
        switch type {
        case .utf8String:
            contents = Array(text.utf8)
        case .printableString, .ia5String, .numericString, .visibleString:
            contents = Array(text.utf8)
            let element = DERElement(
                tag: type, encoded: contents[...], contents: contents[...], offset: 0,
                contentsOffset: 0)
            _ = try element.decodeString()
        case .bmpString:
            var out: [UInt8] = []
            for unit in text.utf16 {
                out.append(UInt8(unit >> 8))
                out.append(UInt8(truncatingIfNeeded: unit))
            }
            contents = out
        case .universalString:
            var out: [UInt8] = []
            for scalar in text.unicodeScalars {
                let value = scalar.value
                out.append(
                    contentsOf: [24, 16, 8, 0].map { UInt8(truncatingIfNeeded: value >> $0) })
            }
            contents = out
        default:
            throw CryptoError(.derUnexpectedTag, "\(type) is not a writable string type")
        }
        appendElement(type, contents: contents)
    }

    /// Appends a time as RFC 5280 §4.1.2.5 asks: UTCTime for years 1950–2049, GeneralizedTime
    /// otherwise.
    ///
    /// - Throws: ``CryptoError/Code-swift.struct/derInvalidValue`` for years outside 0–9999.
    package mutating func appendTime(_ unixSeconds: Int64) throws(CryptoError) {
        if (1950...2049).contains(DERTime.year(of: unixSeconds)) {
            try appendUTCTime(unixSeconds)
        } else {
            try appendGeneralizedTime(unixSeconds)
        }
    }

    /// Appends a UTCTime `YYMMDDHHMMSSZ`.
    ///
    /// - Throws: ``CryptoError/Code-swift.struct/derInvalidValue`` for years outside 1950–2049.
    package mutating func appendUTCTime(
        _ unixSeconds: Int64
    ) throws(CryptoError) {
        guard let text = DERTime.format(unixSeconds, utc: true) else {
            throw CryptoError(.derInvalidValue, "UTCTime holds only the years 1950–2049")
        }
        appendElement(.utcTime, contents: text)
    }

    /// Appends a GeneralizedTime `YYYYMMDDHHMMSSZ`.
    ///
    /// - Throws: ``CryptoError/Code-swift.struct/derInvalidValue`` for years outside 0–9999.
    package mutating func appendGeneralizedTime(
        _ unixSeconds: Int64
    ) throws(CryptoError) {
        guard let text = DERTime.format(unixSeconds, utc: false) else {
            throw CryptoError(.derInvalidValue, "GeneralizedTime holds only the years 0–9999")
        }
        appendElement(.generalizedTime, contents: text)
    }

    // MARK: Helpers

    /// Appends a definite length in the fewest octets.
    static func appendLength(_ length: Int, to output: inout [UInt8]) {
        guard length >= 0x80 else {
            output.append(UInt8(length))
            return
        }
        var count = 0
        var rest = length
        while rest > 0 {
            count += 1
            rest >>= 8
        }
        output.append(0x80 | UInt8(count))
        for index in stride(from: count - 1, through: 0, by: -1) {
            output.append(UInt8(truncatingIfNeeded: length >> (index * 8)))
        }
    }

    private static func minimalTwosComplement(_ value: Int64) -> [UInt8] {
        var out: [UInt8] = []
        for shift in stride(from: 56, through: 0, by: -8) {
            out.append(UInt8(truncatingIfNeeded: value >> Int64(shift)))
        }
        while out.count > 1,
            (out[0] == 0x00 && out[1] < 0x80) || (out[0] == 0xff && out[1] >= 0x80)
        {
            out.removeFirst()
        }
        return out
    }

    /// X.690 §11.6: compare encodings as octet strings, the shorter padded with zeros.
    private static func setOrder(_ a: ArraySlice<UInt8>, _ b: ArraySlice<UInt8>) -> Bool {
        var i = a.startIndex
        var j = b.startIndex
        while i < a.endIndex || j < b.endIndex {
            let x = i < a.endIndex ? a[i] : 0
            let y = j < b.endIndex ? b[j] : 0
            if x != y { return x < y }
            i += 1
            j += 1
        }
        return false
    }
}
