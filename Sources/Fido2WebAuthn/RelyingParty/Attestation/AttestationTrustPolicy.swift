import Fido2Crypto

/// Which attestation certificates a relying party trusts, per statement format, and when.
///
/// Trust is the caller's decision: fido2kit ships no roots by default. With no anchors for a
/// format, a statement's signatures and rules are still verified in full and the result says
/// the trust path was not evaluated (``TrustPathEvaluation/notEvaluated(reason:)``).
public struct AttestationTrustPolicy: Sendable {
    /// Trust anchors (roots or intermediate CAs) by attestation statement format identifier
    /// (`packed`, `tpm`, `android-key`, `android-safetynet`, `apple`, `fido-u2f`).
    public var anchors: [String: [Certificate]]
    /// The time at which certificates are judged, in seconds since the Unix epoch; nil means
    /// now. Pin it to check recorded data whose certificates have since expired.
    public var validationTime: Int64?
    /// Identifiers of critical certificate extensions that the format verifiers check
    /// themselves, on top of those OpenSSL processes (see `CertificateChainVerifier`).
    public var allowedCriticalExtensions: Set<ASN1ObjectIdentifier>
    /// Rules of the `android-key` verifier that a relying party may relax (strict by default).
    public var androidKey = AndroidKeyAttestationOptions()
    /// Rules of the `android-safetynet` verifier: the timestamp window and the CTS profile
    /// verdict (strict by default).
    public var androidSafetyNet = AndroidSafetyNetAttestationOptions()

    /// A policy trusting `anchors` per format, judged at `validationTime` (nil: now).
    public init(
        anchors: [String: [Certificate]] = [:], validationTime: Int64? = nil,
        allowedCriticalExtensions: Set<ASN1ObjectIdentifier> = []
    ) {
        self.anchors = anchors
        self.validationTime = validationTime
        self.allowedCriticalExtensions = allowedCriticalExtensions
    }

    /// The anchors configured for `format` (empty when none are).
    public func anchors(for format: String) -> [Certificate] { anchors[format] ?? [] }

    /// A copy that trusts `certificates` for `format` as well.
    public func trusting(_ certificates: [Certificate], for format: String) -> Self {
        var copy = self
        copy.anchors[format, default: []].append(contentsOf: certificates)
        return copy
    }
}
