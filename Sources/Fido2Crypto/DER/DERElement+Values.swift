extension DERElement {
    /// The contents as an INTEGER: the two's-complement octets, big-endian, as encoded.
    ///
    /// - Throws: ``CryptoError/Code-swift.struct/derInvalidValue`` when empty;
    ///   ``CryptoError/Code-swift.struct/derNonMinimalEncoding`` when the first nine bits are
    ///   all zero or all one (a redundant leading octet).
    @_spi(Fido2Internals) public func decodeInteger() throws(CryptoError) -> ArraySlice<UInt8> {
        guard let first = contents.first else { throw invalid("empty INTEGER") }
        if contents.count > 1 {
            let second = contents[contents.startIndex + 1]
            if (first == 0x00 && second < 0x80) || (first == 0xff && second >= 0x80) {
                throw invalid(
                    "INTEGER with a redundant leading octet", code: .derNonMinimalEncoding)
            }
        }
        return contents
    }

    /// The contents as an INTEGER that fits an `Int64`.
    ///
    /// - Throws: ``CryptoError/Code-swift.struct/derLimitExceeded`` when it does not fit;
    ///   otherwise as ``decodeInteger()``.
    @_spi(Fido2Internals) public func decodeInt64() throws(CryptoError) -> Int64 {
        let bytes = try decodeInteger()
        guard bytes.count <= 8 else {
            throw invalid(
                "INTEGER of \(bytes.count) octets does not fit 64 bits",
                code: .derLimitExceeded)
        }
        var value: Int64 = (bytes.first ?? 0) >= 0x80 ? -1 : 0
        for byte in bytes { value = value << 8 | Int64(byte) }
        return value
    }

    /// The contents as a BOOLEAN: one octet, 0x00 or 0xff (DER).
    ///
    /// - Throws: ``CryptoError/Code-swift.struct/derInvalidValue`` otherwise.
    @_spi(Fido2Internals) public func decodeBoolean() throws(CryptoError) -> Bool {
        guard contents.count == 1, let byte = contents.first, byte == 0 || byte == 0xff else {
            throw invalid("BOOLEAN must be one octet, 00 or ff")
        }
        return byte == 0xff
    }

    /// Checks the contents of a NULL (none).
    ///
    /// - Throws: ``CryptoError/Code-swift.struct/derInvalidValue`` when there are contents.
    @_spi(Fido2Internals) public func decodeNull() throws(CryptoError) {
        guard contents.isEmpty else { throw invalid("NULL with contents") }
    }

    /// The contents as a BIT STRING.
    ///
    /// - Throws: ``CryptoError/Code-swift.struct/derInvalidValue`` for a missing or too large
    ///   unused-bit count, or padding bits that are not zero.
    @_spi(Fido2Internals) public func decodeBitString() throws(CryptoError) -> DERBitString {
        guard let unused = contents.first, unused < 8 else {
            throw invalid("BIT STRING needs an unused-bit count of 0–7")
        }
        let bytes = contents.dropFirst()
        if bytes.isEmpty, unused != 0 {
            throw invalid("empty BIT STRING with unused bits")
        }
        if let last = bytes.last, last & ~(0xff << unused) != 0 {
            throw invalid("BIT STRING padding bits are not zero")
        }
        return DERBitString(bytes: bytes, unusedBitCount: Int(unused))
    }

    /// The contents as an OBJECT IDENTIFIER.
    ///
    /// - Throws: as ``ASN1ObjectIdentifier/init(derContents:)``, at this element's offset.
    @_spi(Fido2Internals) public func decodeObjectIdentifier() throws(CryptoError)
        -> ASN1ObjectIdentifier
    {
        do throws(CryptoError) {
            return try ASN1ObjectIdentifier(decoding: contents)
        } catch {
            throw CryptoError(
                error.code, error.reason, offset: contentsOffset + (error.offset ?? 0))
        }
    }

    /// The contents as a character string of type `type` (by default this element's own tag,
    /// which must then be universal): UTF8String, PrintableString, IA5String, NumericString,
    /// VisibleString, TeletexString (read as ISO 8859-1), BMPString (UTF-16BE) or
    /// UniversalString (UTF-32BE). Each type's character set is enforced.
    ///
    /// - Throws: ``CryptoError/Code-swift.struct/derUnexpectedTag`` when `type` is not one of
    ///   these; ``CryptoError/Code-swift.struct/derInvalidValue`` for bytes outside the type's
    ///   character set or encoding.
    @_spi(Fido2Internals) public func decodeString(
        as type: DERTag? = nil
    ) throws(CryptoError) -> String {
        let kind = type ?? tag
        switch kind.number {
        case DERTag.utf8String.number where kind.tagClass == .universal:
            guard let text = String(validating: contents, as: UTF8.self) else {
                throw invalid("UTF8String is not UTF-8")
            }
            return text
        case DERTag.printableString.number where kind.tagClass == .universal:
            return try ascii("PrintableString") { Self.isPrintable($0) }
        case DERTag.ia5String.number where kind.tagClass == .universal:
            return try ascii("IA5String") { $0 < 0x80 }
        case DERTag.numericString.number where kind.tagClass == .universal:
            return try ascii("NumericString") { $0 == 0x20 || (0x30...0x39).contains($0) }
        case DERTag.visibleString.number where kind.tagClass == .universal:
            return try ascii("VisibleString") { (0x20...0x7e).contains($0) }
        case DERTag.teletexString.number where kind.tagClass == .universal:
            var text = ""
            text.unicodeScalars.append(contentsOf: contents.map { Unicode.Scalar($0) })
            return text
        case DERTag.bmpString.number where kind.tagClass == .universal:
            return try decodeWide(width: 2)
        case DERTag.universalString.number where kind.tagClass == .universal:
            return try decodeWide(width: 4)
        default:
            throw CryptoError(
                .derUnexpectedTag, "\(kind) is not a character string type", offset: offset)
        }
    }

    /// The contents as a UTCTime (`YYMMDDHHMMSSZ`, years 1950–2049) or GeneralizedTime
    /// (`YYYYMMDDHHMMSSZ`), as `type` (by default this element's tag) says, in seconds since
    /// 1970-01-01T00:00:00Z. Only the RFC 5280 forms are accepted: UTC (`Z`), seconds present,
    /// no fraction.
    ///
    /// - Throws: ``CryptoError/Code-swift.struct/derUnexpectedTag`` when `type` is neither;
    ///   ``CryptoError/Code-swift.struct/derInvalidValue`` for any other form or an impossible
    ///   date.
    @_spi(Fido2Internals) public func decodeTime(
        as type: DERTag? = nil
    ) throws(CryptoError) -> Int64 {
        let kind = type ?? tag
        let isUTC: Bool
        switch kind {
        case .utcTime: isUTC = true
        case .generalizedTime: isUTC = false
        default:
            throw CryptoError(
                .derUnexpectedTag, "\(kind) is not UTCTime or GeneralizedTime", offset: offset)
        }
        guard let seconds = DERTime.parse(contents, utc: isUTC) else {
            throw invalid(
                isUTC
                    ? "UTCTime must be YYMMDDHHMMSSZ and a real date"
                    : "GeneralizedTime must be YYYYMMDDHHMMSSZ and a real date")
        }
        return seconds
    }

    private func ascii(
        _ typeName: String, _ allowed: (UInt8) -> Bool
    ) throws(CryptoError) -> String {
        for (index, byte) in zip(contents.indices, contents) where !allowed(byte) {
            throw CryptoError(
                .derInvalidValue,
                "octet 0x\(String(byte, radix: 16)) not allowed in \(typeName)",
                offset: contentsOffset + (index - contents.startIndex))
        }
        return String(decoding: contents, as: UTF8.self)
    }

    private func decodeWide(width: Int) throws(CryptoError) -> String {
        guard contents.count % width == 0 else {
            throw invalid("string length is not a multiple of \(width)")
        }
        var text = ""
        if width == 2 {
            var units: [UInt16] = []
            units.reserveCapacity(contents.count / 2)
            var index = contents.startIndex
            while index < contents.endIndex {
                units.append(UInt16(contents[index]) << 8 | UInt16(contents[index + 1]))
                index += 2
            }
            var iterator = units.makeIterator()
            var decoder = UTF16()
            loop: while true {
                switch decoder.decode(&iterator) {
                case .scalarValue(let scalar): text.unicodeScalars.append(scalar)
                case .emptyInput: break loop
                case .error: throw invalid("BMPString is not UTF-16")
                }
            }
            return text
        }
        var index = contents.startIndex
        while index < contents.endIndex {
            var value: UInt32 = 0
            for offset in 0..<4 { value = value << 8 | UInt32(contents[index + offset]) }
            guard let scalar = Unicode.Scalar(value) else {
                throw invalid("UniversalString holds a value that is not a Unicode scalar")
            }
            text.unicodeScalars.append(scalar)
            index += 4
        }
        return text
    }

    /// PrintableString's character set (X.680 §41.4).
    static func isPrintable(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"),
            UInt8(ascii: "0")...UInt8(ascii: "9"):
            return true
        default:
            return " '()+,-./:=?".utf8.contains(byte)
        }
    }
}
