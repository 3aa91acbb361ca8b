/// A relying party's hint about which authenticator to use (WebAuthn `PublicKeyCredentialHint`).
public struct PublicKeyCredentialHint: WebAuthnStringEnumeration {
    /// The spelling in JSON.
    public let rawValue: String

    /// The value spelled `rawValue`, known or not.
    public init(rawValue: String) {
        self.rawValue = rawValue
    }

    /// `security-key`: a physical security key.
    public static let securityKey = PublicKeyCredentialHint(rawValue: "security-key")

    /// `client-device`: the platform authenticator of the device in use.
    public static let clientDevice = PublicKeyCredentialHint(rawValue: "client-device")

    /// `hybrid`: a general-purpose authenticator such as a phone.
    public static let hybrid = PublicKeyCredentialHint(rawValue: "hybrid")
}
