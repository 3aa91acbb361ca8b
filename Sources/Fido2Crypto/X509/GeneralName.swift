/// One entry of a subjectAltName (RFC 5280 §4.2.1.6 GeneralName).
public enum GeneralName: Hashable, Sendable, CustomStringConvertible {
    /// `[0] otherName`: a type identifier and the DER element of its value.
    case otherName(type: ASN1ObjectIdentifier, value: [UInt8])
    /// `[1] rfc822Name`: an e-mail address.
    case rfc822Name(String)
    /// `[2] dNSName`.
    case dnsName(String)
    /// `[4] directoryName`: a Name, as the TPM AIK certificate uses for the TPM manufacturer,
    /// model and version.
    case directoryName(DistinguishedName)
    /// `[6] uniformResourceIdentifier`.
    case uniformResourceIdentifier(String)
    /// `[7] iPAddress`: 4 or 16 octets (or 8 or 32 in name constraints).
    case ipAddress([UInt8])
    /// `[8] registeredID`.
    case registeredID(ASN1ObjectIdentifier)
    /// `[3] x400Address`, `[5] ediPartyName` or any other tag: the whole DER element.
    case other(tag: DERTag, encoded: [UInt8])

    /// A short text such as `DNS:example.org` or `DirName:CN=…`.
    public var description: String {
        switch self {
        case .otherName(let type, _): "othername:\(type)"
        case .rfc822Name(let text): "email:\(text)"
        case .dnsName(let text): "DNS:\(text)"
        case .directoryName(let name): "DirName:\(name)"
        case .uniformResourceIdentifier(let text): "URI:\(text)"
        case .ipAddress(let bytes): "IP:\(bytes.map { String($0) }.joined(separator: "."))"
        case .registeredID(let oid): "RID:\(oid)"
        case .other(let tag, _): "other:\(tag)"
        }
    }
}

extension DERReader {
    /// Reads one GeneralName.
    mutating func readGeneralName() throws(CryptoError) -> GeneralName {
        let element = try readElement()
        let tag = element.tag
        guard tag.tagClass == .contextSpecific else {
            throw CryptoError(
                .derUnexpectedTag, "GeneralName must be context-specific, found \(tag)",
                offset: element.offset)
        }
        switch (tag.number, tag.isConstructed) {
        case (0, true):
            var inner = try nestedReader(element)
            let type = try inner.readObjectIdentifier()
            let value = try inner.readExplicit(0) { (reader) throws(CryptoError) in
                try reader.readElement().encoded
            }
            try inner.finish()
            return .otherName(type: type, value: Array(value))
        case (1, false):
            return .rfc822Name(try element.decodeString(as: .ia5String))
        case (2, false):
            return .dnsName(try element.decodeString(as: .ia5String))
        case (4, true):
            var inner = try nestedReader(element)
            let name = try inner.readDistinguishedName()
            try inner.finish()
            return .directoryName(name)
        case (6, false):
            return .uniformResourceIdentifier(try element.decodeString(as: .ia5String))
        case (7, false):
            return .ipAddress(Array(element.contents))
        case (8, false):
            return .registeredID(try element.decodeObjectIdentifier())
        case (3, true), (5, true):
            return .other(tag: tag, encoded: Array(element.encoded))
        default:
            throw CryptoError(
                .derUnexpectedTag, "\(tag) is not a GeneralName", offset: element.offset)
        }
    }
}
