/// One DER element (tag, length, contents) found by a ``DERReader``: a view into the reader's
/// input, never a copy.
///
/// The typed `decode…` methods read the contents as a given ASN.1 type without looking at the
/// tag, so that implicitly tagged values (`[1] IMPLICIT INTEGER`) decode the same way as
/// universal ones; ``DERReader``'s `read…` methods check the tag first.
@_spi(Fido2Internals) public struct DERElement: Sendable {
    /// The element's identifier.
    @_spi(Fido2Internals) public let tag: DERTag
    /// The whole element: identifier, length and contents octets.
    @_spi(Fido2Internals) public let encoded: ArraySlice<UInt8>
    /// The contents octets.
    @_spi(Fido2Internals) public let contents: ArraySlice<UInt8>
    /// The offset of the identifier octet, from the start of the reader's input.
    @_spi(Fido2Internals) public let offset: Int
    /// The offset of the first contents octet, from the start of the reader's input.
    package let contentsOffset: Int

    init(
        tag: DERTag, encoded: ArraySlice<UInt8>, contents: ArraySlice<UInt8>, offset: Int,
        contentsOffset: Int
    ) {
        self.tag = tag
        self.encoded = encoded
        self.contents = contents
        self.offset = offset
        self.contentsOffset = contentsOffset
    }

    /// An error about this element's contents.
    func invalid(_ reason: String, code: CryptoError.Code = .derInvalidValue) -> CryptoError {
        CryptoError(code, reason, offset: contentsOffset)
    }
}
