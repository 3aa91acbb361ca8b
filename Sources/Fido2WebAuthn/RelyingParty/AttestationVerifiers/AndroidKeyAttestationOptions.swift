@_spi(Fido2Internals) import Fido2WebAuthnWire

/// Rules of the `android-key` verifier (WebAuthn §8.4) that a relying party may relax; the
/// defaults are the strict reading. Set them on ``AttestationTrustPolicy/androidKey``.
public struct AndroidKeyAttestationOptions: Sendable, Hashable {
    /// Whether `origin` and `purpose` may come from `softwareEnforced` as well as
    /// `teeEnforced`: §8.4's "union of teeEnforced and softwareEnforced" for relying parties
    /// that accept keys not only from a trusted execution environment. Off by default: only
    /// `teeEnforced` counts.
    public var acceptsSoftwareEnforcedAuthorizations: Bool
    /// Whether the authorization lists considered may omit `origin` or `purpose` altogether.
    /// Values that are present must still be `KM_ORIGIN_GENERATED` and include
    /// `KM_PURPOSE_SIGN`. Off by default: a real keystore states both. The W3C WebAuthn test
    /// vector (`android-key-es256`) has empty lists and verifies only with this relaxation.
    public var acceptsMissingOriginAndPurpose: Bool

    /// Options with each relaxation off unless given.
    public init(
        acceptsSoftwareEnforcedAuthorizations: Bool = false,
        acceptsMissingOriginAndPurpose: Bool = false
    ) {
        self.acceptsSoftwareEnforcedAuthorizations = acceptsSoftwareEnforcedAuthorizations
        self.acceptsMissingOriginAndPurpose = acceptsMissingOriginAndPurpose
    }
}
