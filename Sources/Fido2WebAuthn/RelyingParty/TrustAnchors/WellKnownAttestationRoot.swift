import Fido2Crypto
import Fido2Encoding
@_spi(Fido2Internals) import Fido2WebAuthnWire

/// One public attestation root certificate that fido2kit carries as text, with where it came
/// from and the SHA-256 fingerprint it must have.
///
/// ``certificate()`` parses the PEM and checks the fingerprint every time, so an edited
/// constant can never be trusted silently. The catalogue is ``WellKnownAttestationRoots``.
public struct WellKnownAttestationRoot: Sendable, Hashable, CustomStringConvertible {
    /// A short name, such as `Apple WebAuthn Root CA`.
    public let name: String
    /// The attestation statement formats the root anchors (`apple`, `android-key`, …).
    public let formats: [String]
    /// The SHA-256 of the certificate's DER, lower-case hex.
    public let sha256Fingerprint: String
    /// Where the certificate is published.
    public let source: String
    /// The certificate as a PEM `CERTIFICATE` block.
    public let pem: String

    /// A root description; nothing is checked until ``certificate()``.
    public init(
        name: String, formats: [String], sha256Fingerprint: String, source: String, pem: String
    ) {
        self.name = name
        self.formats = formats
        self.sha256Fingerprint = sha256Fingerprint
        self.source = source
        self.pem = pem
    }

    /// The parsed certificate, after checking that its DER hashes to ``sha256Fingerprint``.
    ///
    /// - Throws: `CryptoError` as `Certificate(pemEncoded:)` for PEM that does not parse;
    ///   `CryptoError` with code `invalidCertificate` when the fingerprint differs.
    public func certificate() throws -> Certificate {
        let certificate = try Certificate(pemEncoded: pem)
        let fingerprint = Hex.encode(DigestAlgorithm.sha256.hash(certificate.derEncoded))
        guard fingerprint == sha256Fingerprint else {
            throw CryptoError(
                .invalidCertificate,
                "\(name): SHA-256 fingerprint is \(fingerprint), expected \(sha256Fingerprint)")
        }
        return certificate
    }

    /// `"Apple WebAuthn Root CA (apple)"`.
    public var description: String { "\(name) (\(formats.joined(separator: ", ")))" }
}
