import Fido2Crypto
@_spi(Fido2Internals) import Fido2WebAuthnWire

/// One status report of a metadata entry (MDS3 §3.1.3, `StatusReport`): a status, the day it
/// took effect and, for a compromise, the certificates it concerns.
public struct MetadataStatusReport: Sendable, Hashable {
    /// The status reported.
    public let status: AuthenticatorStatus
    /// The day the status took effect, `YYYY-MM-DD` as the BLOB writes it; nil when absent.
    public let effectiveDate: String?
    /// The certificate number of a certification status, when stated.
    public let certificateNumber: String?
    /// The certification descriptor (the model's name as certified), when stated.
    public let certificationDescriptor: String?
    /// The DER certificates the report names (its `certificate` and `batchCertificate`
    /// members, base64 in the BLOB): for ``AuthenticatorStatus/attestationKeyCompromise``,
    /// the attestation certificates (or their batch's CA) whose key is compromised. Empty when
    /// it names none.
    public let certificates: [[UInt8]]
    /// Whether the report had a `certificate` or `batchCertificate` member that is not
    /// base64; such a report is treated as naming no certificate (it then concerns every key
    /// of its entry).
    public let hasUnreadableCertificate: Bool

    /// A report of `status` effective on `effectiveDate`, naming the DER `certificates`.
    public init(
        status: AuthenticatorStatus, effectiveDate: String? = nil,
        certificateNumber: String? = nil, certificationDescriptor: String? = nil,
        certificates: [[UInt8]] = [], hasUnreadableCertificate: Bool = false
    ) {
        self.status = status
        self.effectiveDate = effectiveDate
        self.certificateNumber = certificateNumber
        self.certificationDescriptor = certificationDescriptor
        self.certificates = certificates
        self.hasUnreadableCertificate = hasUnreadableCertificate
    }

    /// Whether the report concerns an authenticator whose attestation path (attestation
    /// certificate first, anchor included when known) is `path`: an attestation key
    /// compromise that names certificates concerns only the paths holding one of them; any
    /// other report, and a compromise report naming none (or naming one that does not read),
    /// concerns every key of its entry.
    public func concerns(path: [Certificate]) -> Bool {
        guard status == .attestationKeyCompromise, !certificates.isEmpty,
            !hasUnreadableCertificate
        else { return true }
        return path.contains { certificate in
            certificates.contains { $0 == certificate.derEncoded }
        }
    }
}
