import Fido2Encoding
@_spi(Fido2Internals) import Fido2WebAuthnWire

/// How ``RelyingParty/beginAuthentication(allowCredentials:options:)`` asks for an assertion:
/// every member of the request options it writes, and what the finishing call then accepts.
public struct AuthenticationOptions: Sendable, Hashable {
    /// Five minutes, in milliseconds.
    public static let defaultTimeout: UInt32 = 300_000

    /// The RP ID of the options, one of the relying party's ``RelyingParty/identifiers``; nil
    /// (the default) for the first.
    public var relyingPartyID: String?
    /// `userVerification`; `preferred` by default. With `required`, the finishing call fails a
    /// response without UV.
    public var userVerification: UserVerificationRequirement = .preferred
    /// `timeout` in milliseconds, and how long the state stays valid.
    public var timeout: UInt32 = defaultTimeout
    /// `hints`; none by default.
    public var hints: [PublicKeyCredentialHint] = []
    /// `extensions`, as raw JSON inputs; none by default.
    public var extensions: JSONObject?
    /// The authenticator extension outputs accepted; all by default.
    public var extensionPolicy: ExtensionPolicy = .acceptAll

    /// The defaults; set members to change them.
    public init() {}
}
