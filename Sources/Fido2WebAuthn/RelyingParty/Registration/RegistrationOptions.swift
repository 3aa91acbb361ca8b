import Fido2Crypto
import Fido2Encoding
@_spi(Fido2Internals) import Fido2WebAuthnWire

/// How ``RelyingParty/beginRegistration(user:excludeCredentials:options:)`` asks for a
/// credential: every member of the creation options it writes, and what the finishing call then
/// accepts. The defaults suit passkeys.
///
/// ```swift
/// var options = RegistrationOptions()
/// options.userVerification = .required
/// options.attestation = .direct
/// let registration = try rp.beginRegistration(user: user, options: options)
/// ```
public struct RegistrationOptions: Sendable, Hashable {
    /// The algorithms offered, most preferred first: ES256 (every platform authenticator),
    /// EdDSA (security keys) and RS256 (Windows Hello), as the common peers offer.
    public static let defaultAlgorithms: [COSEAlgorithm] = [.es256, .edDSA, .rs256]
    /// Five minutes, in milliseconds: the lower end of what WebAuthn recommends when the user
    /// may be asked to verify.
    public static let defaultTimeout: UInt32 = 300_000

    /// The RP ID of the options, one of the relying party's ``RelyingParty/identifiers``; nil
    /// (the default) for the first.
    public var relyingPartyID: String?
    /// `authenticatorSelection.userVerification`; `preferred` by default. With `required`, the
    /// finishing call fails a response without UV.
    public var userVerification: UserVerificationRequirement = .preferred
    /// `authenticatorSelection.residentKey`; `preferred` by default, so that platform
    /// authenticators make discoverable credentials (passkeys) and security keys that cannot
    /// still register. `requireResidentKey` is written as true exactly when this is `required`.
    public var residentKey: ResidentKeyRequirement = .preferred
    /// `authenticatorSelection.authenticatorAttachment`; nil (any) by default.
    public var authenticatorAttachment: AuthenticatorAttachment?
    /// `attestation`; `none` by default. Anything else makes the finishing call judge the
    /// attestation chain: against the relying party's ``AttestationTrustPolicy``, or the
    /// ``WellKnownAttestationRoots`` when that policy names no anchors.
    public var attestation: AttestationConveyancePreference = .none
    /// `attestationFormats`, most preferred first; empty by default.
    public var attestationFormats: [String] = []
    /// The algorithms offered in `pubKeyCredParams`, and the only ones accepted.
    public var algorithms: [COSEAlgorithm] = defaultAlgorithms
    /// `timeout` in milliseconds, and how long the state stays valid.
    public var timeout: UInt32 = defaultTimeout
    /// `hints`; none by default.
    public var hints: [PublicKeyCredentialHint] = []
    /// `extensions`, as raw JSON inputs (`{"credProps": true}`); none by default.
    public var extensions: JSONObject?
    /// The attestation types accepted; all by default.
    public var acceptedAttestationTypes: Set<AttestationType> =
        RegistrationExpectations.allAttestationTypes
    /// The authenticator extension outputs accepted; all by default.
    public var extensionPolicy: ExtensionPolicy = .acceptAll

    /// The defaults; set members to change them.
    public init() {}
}
