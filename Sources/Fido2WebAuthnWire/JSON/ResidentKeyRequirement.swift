/// Whether the relying party wants a discoverable credential (WebAuthn `ResidentKeyRequirement`).
public struct ResidentKeyRequirement: WebAuthnStringEnumeration {
    /// The spelling in JSON.
    public let rawValue: String

    /// The value spelled `rawValue`, known or not.
    public init(rawValue: String) {
        self.rawValue = rawValue
    }

    /// `discouraged`: prefer a server-side credential.
    public static let discouraged = ResidentKeyRequirement(rawValue: "discouraged")

    /// `preferred`: prefer a discoverable credential.
    public static let preferred = ResidentKeyRequirement(rawValue: "preferred")

    /// `required`: a discoverable credential or an error.
    public static let required = ResidentKeyRequirement(rawValue: "required")
}
