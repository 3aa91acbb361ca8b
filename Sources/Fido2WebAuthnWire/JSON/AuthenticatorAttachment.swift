/// Whether an authenticator is built in or roaming (WebAuthn `AuthenticatorAttachment`).
public struct AuthenticatorAttachment: WebAuthnStringEnumeration {
    /// The spelling in JSON.
    public let rawValue: String

    /// The value spelled `rawValue`, known or not.
    public init(rawValue: String) {
        self.rawValue = rawValue
    }

    /// `platform`: built into the client device.
    public static let platform = AuthenticatorAttachment(rawValue: "platform")

    /// `cross-platform`: a roaming authenticator (security key, phone).
    public static let crossPlatform = AuthenticatorAttachment(rawValue: "cross-platform")
}
