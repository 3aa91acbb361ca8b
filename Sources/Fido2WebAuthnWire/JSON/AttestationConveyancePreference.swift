/// What attestation the relying party wants (WebAuthn `AttestationConveyancePreference`).
public struct AttestationConveyancePreference: WebAuthnStringEnumeration {
    /// The spelling in JSON.
    public let rawValue: String

    /// The value spelled `rawValue`, known or not.
    public init(rawValue: String) {
        self.rawValue = rawValue
    }

    /// `none`: no attestation.
    public static let none = AttestationConveyancePreference(rawValue: "none")

    /// `indirect`: an attestation the client may anonymise.
    public static let indirect = AttestationConveyancePreference(rawValue: "indirect")

    /// `direct`: the authenticator's attestation as made.
    public static let direct = AttestationConveyancePreference(rawValue: "direct")

    /// `enterprise`: an attestation that may identify the device.
    public static let enterprise = AttestationConveyancePreference(rawValue: "enterprise")
}
