@_spi(Fido2Internals) import Fido2WebAuthnWire

/// An authenticator status from a FIDO Metadata Service status report (MDS3 §3.1.3,
/// `AuthenticatorStatus`), such as `FIDO_CERTIFIED_L1` or `REVOKED`.
///
/// The set is open: a BLOB may carry statuses this library does not name, and they are kept
/// verbatim in ``rawValue``.
public struct AuthenticatorStatus: RawRepresentable, Sendable, Hashable, CustomStringConvertible {
    /// The status as the BLOB spells it.
    public let rawValue: String

    /// The status spelled `rawValue`.
    public init(rawValue: String) { self.rawValue = rawValue }

    /// The status spelled `rawValue`.
    public init(_ rawValue: String) { self.rawValue = rawValue }

    /// The model is not FIDO certified.
    public static let notFIDOCertified = Self("NOT_FIDO_CERTIFIED")
    /// The model passed FIDO functional certification (before levels existed).
    public static let fidoCertified = Self("FIDO_CERTIFIED")
    /// The model can be tricked into reporting user verification it did not perform.
    public static let userVerificationBypass = Self("USER_VERIFICATION_BYPASS")
    /// An attestation key of the model is compromised.
    public static let attestationKeyCompromise = Self("ATTESTATION_KEY_COMPROMISE")
    /// User keys of the model can be extracted remotely.
    public static let userKeyRemoteCompromise = Self("USER_KEY_REMOTE_COMPROMISE")
    /// User keys of the model can be extracted with physical access.
    public static let userKeyPhysicalCompromise = Self("USER_KEY_PHYSICAL_COMPROMISE")
    /// A firmware update is available.
    public static let updateAvailable = Self("UPDATE_AVAILABLE")
    /// The FIDO Alliance revoked the model's certification.
    public static let revoked = Self("REVOKED")
    /// The vendor completed a self-assertion checklist.
    public static let selfAssertionSubmitted = Self("SELF_ASSERTION_SUBMITTED")
    /// Certified at level 1.
    public static let fidoCertifiedL1 = Self("FIDO_CERTIFIED_L1")
    /// Certified at level 1+.
    public static let fidoCertifiedL1Plus = Self("FIDO_CERTIFIED_L1plus")
    /// Certified at level 2.
    public static let fidoCertifiedL2 = Self("FIDO_CERTIFIED_L2")
    /// Certified at level 2+.
    public static let fidoCertifiedL2Plus = Self("FIDO_CERTIFIED_L2plus")
    /// Certified at level 3.
    public static let fidoCertifiedL3 = Self("FIDO_CERTIFIED_L3")
    /// Certified at level 3+.
    public static let fidoCertifiedL3Plus = Self("FIDO_CERTIFIED_L3plus")

    /// The statuses a ``MetadataTrustPolicy`` refuses by default: ``revoked``,
    /// ``userVerificationBypass``, ``attestationKeyCompromise``, ``userKeyRemoteCompromise`` and
    /// ``userKeyPhysicalCompromise``.
    public static let refusedByDefault: Set<AuthenticatorStatus> = [
        .revoked, .userVerificationBypass, .attestationKeyCompromise, .userKeyRemoteCompromise,
        .userKeyPhysicalCompromise,
    ]

    /// The certification level this status states, or nil for a status that states none
    /// (``updateAvailable``, a compromise, …). ``fidoCertified`` counts as level 1.
    public var certificationLevel: CertificationLevel? {
        switch rawValue {
        case "NOT_FIDO_CERTIFIED": .notCertified
        case "FIDO_CERTIFIED", "FIDO_CERTIFIED_L1": .l1
        case "FIDO_CERTIFIED_L1plus": .l1Plus
        case "FIDO_CERTIFIED_L2": .l2
        case "FIDO_CERTIFIED_L2plus": .l2Plus
        case "FIDO_CERTIFIED_L3": .l3
        case "FIDO_CERTIFIED_L3plus": .l3Plus
        default: nil
        }
    }

    /// The status as the BLOB spells it.
    public var description: String { rawValue }
}
