import Fido2Encoding

/// What the relying party asks of the authenticator (WebAuthn `AuthenticatorSelectionCriteria`).
public struct AuthenticatorSelectionCriteria: WebAuthnJSONForm, JSONFieldsDecodable {
    /// Platform or roaming authenticator, when the relying party cares.
    public var authenticatorAttachment: AuthenticatorAttachment?
    /// Whether a discoverable credential is wanted; when absent, `requireResidentKey` decides.
    public var residentKey: ResidentKeyRequirement?
    /// The Level 1 flag: true means `residentKey` `required`. Default false.
    public var requireResidentKey: Bool
    /// Whether user verification is wanted. Default `preferred`.
    public var userVerification: UserVerificationRequirement

    /// Criteria with the specification's defaults.
    public init(
        authenticatorAttachment: AuthenticatorAttachment? = nil,
        residentKey: ResidentKeyRequirement? = nil, requireResidentKey: Bool = false,
        userVerification: UserVerificationRequirement = .preferred
    ) {
        self.authenticatorAttachment = authenticatorAttachment
        self.residentKey = residentKey
        self.requireResidentKey = requireResidentKey
        self.userVerification = userVerification
    }

    /// Reads `{authenticatorAttachment?, residentKey?, requireResidentKey?, userVerification?}`,
    /// filling the defaults.
    ///
    /// - Throws: ``WebAuthnError`` naming the mistyped member.
    public init(jsonValue: JSONValue, path: String) throws(WebAuthnError) {
        self = try Self.decode(jsonValue, path: path)
    }

    /// Reads the members; errors name them relative to this object.
    init(fields: JSONFields) throws(WebAuthnError) {
        authenticatorAttachment = try fields.optionalString("authenticatorAttachment").map {
            AuthenticatorAttachment(rawValue: $0)
        }
        residentKey = try fields.optionalString("residentKey").map {
            ResidentKeyRequirement(rawValue: $0)
        }
        requireResidentKey = try fields.optionalBool("requireResidentKey") ?? false
        userVerification = UserVerificationRequirement(
            rawValue: try fields.optionalString("userVerification") ?? "preferred")
    }

    /// Writes the members in IDL order; members with defaults are always written.
    public func write(to writer: inout JSONWriter) {
        writer.beginObject()
        if let authenticatorAttachment {
            writer.name("authenticatorAttachment")
            writer.string(authenticatorAttachment.rawValue)
        }
        if let residentKey {
            writer.name("residentKey")
            writer.string(residentKey.rawValue)
        }
        writer.name("requireResidentKey")
        writer.bool(requireResidentKey)
        writer.name("userVerification")
        writer.string(userVerification.rawValue)
        writer.endObject()
    }
}
