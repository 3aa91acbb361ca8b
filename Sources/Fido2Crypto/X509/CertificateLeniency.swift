/// Encodings of deployed certificates that RFC 5280's DER forbids but OpenSSL reads, which
/// ``Certificate/init(derEncoded:tolerating:)`` may accept and report.
///
/// Each one changes which encodings parse, never what a signature or an interpreted extension
/// means: a certificate with any of them still has to pass OpenSSL's `d2i_X509`, and the
/// extensions a verifier relies on (basicConstraints, keyUsage, extKeyUsage, subjectAltName,
/// the FIDO AAGUID) must still be well-formed.
public struct CertificateLeniency: OptionSet, Sendable, Hashable {
    /// The raw bits.
    public let rawValue: UInt8

    /// The leniencies of `rawValue`.
    public init(rawValue: UInt8) { self.rawValue = rawValue }

    /// A signature BIT STRING that declares unused bits (early YubiKey U2F attestation
    /// certificates declare two). The octets are kept as they are. OpenSSL, which refuses to
    /// verify a signature whose BIT STRING declares unused bits, is given the certificate with
    /// the count set to zero: the count is outside what the issuer signed, so a chain through
    /// the certificate verifies as it does in the FIDO metadata's and other relying parties'
    /// readings, and ``Certificate/derEncoded`` stays the bytes received.
    public static let unusedSignatureBits = CertificateLeniency(rawValue: 1 << 0)

    /// Opaque elements (attribute values, algorithm parameters, extension contents this module
    /// does not interpret) that are BER rather than DER, or not valid encodings at all, as
    /// OpenSSL keeps them without looking.
    public static let opaqueElementsNotDER = CertificateLeniency(rawValue: 1 << 1)

    /// An authorityKeyIdentifier or subjectKeyIdentifier extension that does not have the
    /// structure RFC 5280 §4.2.1.1–2 defines (seen in FIDO conformance-tool certificates). Both
    /// are hints for building a path; the malformed one is read as absent.
    public static let malformedKeyIdentifiers = CertificateLeniency(rawValue: 1 << 2)

    /// Every leniency: what a relying party facing deployed authenticators accepts.
    public static let all: CertificateLeniency = [
        .unusedSignatureBits, .opaqueElementsNotDER, .malformedKeyIdentifiers,
    ]
}
