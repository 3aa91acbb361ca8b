/// Whether the relying party wants user verification (WebAuthn `UserVerificationRequirement`).
public struct UserVerificationRequirement: WebAuthnStringEnumeration {
    /// The spelling in JSON.
    public let rawValue: String

    /// The value spelled `rawValue`, known or not.
    public init(rawValue: String) {
        self.rawValue = rawValue
    }

    /// `required`: user verification or an error.
    public static let required = UserVerificationRequirement(rawValue: "required")

    /// `preferred`: user verification when possible.
    public static let preferred = UserVerificationRequirement(rawValue: "preferred")

    /// `discouraged`: no user verification unless unavoidable.
    public static let discouraged = UserVerificationRequirement(rawValue: "discouraged")
}
