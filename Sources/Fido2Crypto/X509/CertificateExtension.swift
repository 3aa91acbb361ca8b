/// One certificate extension (RFC 5280 §4.1.2.9): its identifier, criticality and value.
public struct CertificateExtension: Hashable, Sendable, CustomStringConvertible {
    /// The extension's identifier (extnID).
    public let oid: ASN1ObjectIdentifier
    /// Whether a verifier that does not understand the extension must reject the certificate.
    public let isCritical: Bool
    /// The DER the extension carries (the contents of extnValue's OCTET STRING), such as
    /// `04 10 <AAGUID>` for the FIDO AAGUID extension.
    public let value: [UInt8]

    /// An extension to put in a certificate.
    public init(oid: ASN1ObjectIdentifier, isCritical: Bool, value: [UInt8]) {
        self.oid = oid
        self.isCritical = isCritical
        self.value = value
    }

    /// `"2.5.29.19 (critical, 2 bytes)"`.
    public var description: String {
        "\(oid) (\(isCritical ? "critical" : "non-critical"), \(value.count) bytes)"
    }
}
