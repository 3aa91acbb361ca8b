import Fido2Crypto
@_spi(Fido2Internals) import Fido2WebAuthnWire

/// Which attestation certificates a relying party trusts, per statement format, and when.
///
/// Trust is the caller's decision. In a ceremony whose options ask for attestation, each format
/// is judged against the caller's anchors for it **and** the ``WellKnownAttestationRoots``
/// fido2kit ships for it (`apple`, `android-key`, `android-safetynet`, `tpm`): an anchor added
/// for `packed` leaves the shipped `tpm` root in force. Leaving the shipped roots out is an
/// explicit choice, ``excludingWellKnownRoots()``. With no anchors for a format, a statement's
/// signatures and rules are still verified in full, the result says the trust path was not
/// evaluated (``TrustPathEvaluation/notEvaluated(reason:)``) and the verdict is
/// ``AttestationTrust/unverified``: a relying party that accepts only proven attestation
/// (see ``RegistrationExpectations/acceptedAttestationTypes``) refuses it.
///
/// Revocation is not checked unless ``revocation`` says so; it then applies to every format's
/// chain that is judged against anchors.
///
/// With ``metadata`` (a verified FIDO metadata BLOB), an attested authenticator's metadata
/// entry supplies the anchors for its chain instead of ``anchors``, and its status reports
/// decide whether it is trusted at all; see ``MetadataTrustPolicy``.
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
    /// Whether attestation chains are checked for revocation, and against which CRLs (shared
    /// by every format; each certificate is judged by its own issuer's CRL): `.none` (the
    /// default) checks nothing; `.leaf(crls)` the attestation certificate; `.chain(crls)` every
    /// certificate of the path but the anchor. A revoked certificate fails registration with
    /// `WebAuthnError.Code.attestationCertificateRevoked`; a certificate in
    /// scope without a usable CRL fails closed with
    /// `WebAuthnError.Code.attestationRevocationStatusUnknown`. See
    /// `RevocationCheck` for the rules. Chains of formats without anchors are not judged at
    /// all, so neither is their revocation.
    public var revocation: RevocationCheck = .none
    /// Rules of the `android-key` verifier that a relying party may relax (strict by default).
    public var androidKey = AndroidKeyAttestationOptions()
    /// Rules of the `android-safetynet` verifier: the timestamp window and the CTS profile
    /// verdict (strict by default).
    public var androidSafetyNet = AndroidSafetyNetAttestationOptions()
    /// Trust from a verified FIDO metadata BLOB (MDS3): nil (the default) uses none. When set,
    /// every statement with a certificate chain is judged against its authenticator's entry
    /// (see ``MetadataTrustPolicy`` for the look-up, the status rules and the strict and
    /// permissive modes).
    public var metadata: MetadataTrustPolicy?
    /// Whether a ceremony that asks for attestation also trusts ``WellKnownAttestationRoots``
    /// for their formats, beside the anchors configured here (true by default); see
    /// ``excludingWellKnownRoots()``.
    public var includesWellKnownRoots = true

    /// A policy trusting `anchors` per format, judged at `validationTime` (nil: now), checking
    /// revocation as `revocation` says (default: not at all).
    public init(
        anchors: [String: [Certificate]] = [:], validationTime: Int64? = nil,
        allowedCriticalExtensions: Set<ASN1ObjectIdentifier> = [],
        revocation: RevocationCheck = .none
    ) {
        self.anchors = anchors
        self.validationTime = validationTime
        self.allowedCriticalExtensions = allowedCriticalExtensions
        self.revocation = revocation
    }

    /// The anchors configured for `format` (empty when none are).
    public func anchors(for format: String) -> [Certificate] { anchors[format] ?? [] }

    /// A copy that trusts only the anchors configured here (and metadata roots): the roots
    /// fido2kit ships (``WellKnownAttestationRoots``) are no longer added for their formats.
    /// For a relying party that pins its own roots for `apple`, `android-key`,
    /// `android-safetynet` or `tpm`.
    public func excludingWellKnownRoots() -> Self {
        var copy = self
        copy.includesWellKnownRoots = false
        return copy
    }

    /// A copy that trusts `certificates` for `format` as well.
    public func trusting(_ certificates: [Certificate], for format: String) -> Self {
        var copy = self
        copy.anchors[format, default: []].append(contentsOf: certificates)
        return copy
    }
}
