import Fido2CBOR

/// One entry of a certificate revocation list (RFC 5280 §5.1.2.6): which certificate of the
/// CRL's issuer is revoked, and since when.
public struct RevokedCertificate: Hashable, Sendable, CustomStringConvertible {
    /// The revoked certificate's serial number as INTEGER contents: two's-complement big-endian
    /// octets, in the same form as ``Certificate/serialNumber``, so the two compare directly.
    public let serialNumber: [UInt8]
    /// When the certificate was revoked, in seconds since the Unix epoch.
    public let revocationDate: Int64
    /// The entry's extensions (crlEntryExtensions, such as a reason code), in encoded order.
    public let extensions: [CertificateExtension]

    /// An entry revoking the certificate with `serialNumber` (big-endian; a
    /// ``Certificate/serialNumber`` can be passed as it is) at `revocationDate`.
    ///
    /// The serial number is kept as given; `CertificateRevocationListBuilder` writes it
    /// minimally.
    public init(
        serialNumber: [UInt8], revocationDate: Int64, extensions: [CertificateExtension] = []
    ) {
        self.serialNumber = serialNumber
        self.revocationDate = revocationDate
        self.extensions = extensions
    }

    /// `"RevokedCertificate(serial: 0a1b, at: 1704067200)"`.
    public var description: String {
        "RevokedCertificate(serial: \(CBORDiagnostic.hex(serialNumber)), at: \(revocationDate))"
    }

}
