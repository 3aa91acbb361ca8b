extension DERReader {
    /// Reads an INTEGER (or `[n] IMPLICIT INTEGER` with `tag`) as its two's-complement
    /// big-endian octets.
    ///
    /// - Throws: as ``readElement(_:)`` and ``DERElement/decodeInteger()``.
    package mutating func readInteger(
        tag: DERTag = .integer
    ) throws(CryptoError) -> ArraySlice<
        UInt8
    > {
        try readElement(tag).decodeInteger()
    }

    /// Reads an INTEGER that fits an `Int64`.
    ///
    /// - Throws: as ``readElement(_:)`` and ``DERElement/decodeInt64()``.
    package mutating func readInt64(
        tag: DERTag = .integer
    ) throws(CryptoError) -> Int64 {
        try readElement(tag).decodeInt64()
    }

    /// Reads an ENUMERATED that fits an `Int64`.
    ///
    /// - Throws: as ``readElement(_:)`` and ``DERElement/decodeInt64()``.
    package mutating func readEnumerated(
        tag: DERTag = .enumerated
    ) throws(CryptoError) -> Int64 {
        try readElement(tag).decodeInt64()
    }

    /// Reads a BOOLEAN.
    ///
    /// - Throws: as ``readElement(_:)`` and ``DERElement/decodeBoolean()``.
    package mutating func readBoolean(
        tag: DERTag = .boolean
    ) throws(CryptoError) -> Bool {
        try readElement(tag).decodeBoolean()
    }

    /// Reads a NULL.
    ///
    /// - Throws: as ``readElement(_:)`` and ``DERElement/decodeNull()``.
    @_spi(Fido2Internals) public mutating func readNull(tag: DERTag = .null) throws(CryptoError) {
        try readElement(tag).decodeNull()
    }

    /// Reads an OCTET STRING's contents.
    ///
    /// - Throws: as ``readElement(_:)``.
    package mutating func readOctetString(
        tag: DERTag = .octetString
    ) throws(CryptoError)
        -> ArraySlice<UInt8>
    {
        try readElement(tag).contents
    }

    /// Reads a BIT STRING.
    ///
    /// - Throws: as ``readElement(_:)`` and ``DERElement/decodeBitString()``.
    package mutating func readBitString(
        tag: DERTag = .bitString
    ) throws(CryptoError)
        -> DERBitString
    {
        try readElement(tag).decodeBitString()
    }

    /// Reads an OBJECT IDENTIFIER.
    ///
    /// - Throws: as ``readElement(_:)`` and ``DERElement/decodeObjectIdentifier()``.
    package mutating func readObjectIdentifier(
        tag: DERTag = .objectIdentifier
    ) throws(CryptoError) -> ASN1ObjectIdentifier {
        try readElement(tag).decodeObjectIdentifier()
    }

    /// Reads a character string of any universal string type (UTF8String, PrintableString,
    /// IA5String, …), decoded by its own tag.
    ///
    /// - Throws: ``CryptoError/Code-swift.struct/derUnexpectedTag`` when the next element is
    ///   not a character string; otherwise as ``DERElement/decodeString(as:)``.
    @_spi(Fido2Internals) public mutating func readString() throws(CryptoError) -> String {
        try readElement().decodeString()
    }

    /// Reads a character string of one type, `tag` (or an implicit tag standing for `type`).
    ///
    /// - Throws: as ``readElement(_:)`` and ``DERElement/decodeString(as:)``.
    @_spi(Fido2Internals) public mutating func readString(
        tag: DERTag, as type: DERTag? = nil
    ) throws(CryptoError) -> String {
        try readElement(tag).decodeString(as: type ?? tag)
    }

    /// Reads a UTCTime or GeneralizedTime (RFC 5280 forms), whichever comes, as seconds since
    /// the Unix epoch.
    ///
    /// - Throws: ``CryptoError/Code-swift.struct/derUnexpectedTag`` for any other element;
    ///   otherwise as ``DERElement/decodeTime(as:)``.
    package mutating func readTime() throws(CryptoError) -> Int64 {
        try readElement().decodeTime()
    }
}
