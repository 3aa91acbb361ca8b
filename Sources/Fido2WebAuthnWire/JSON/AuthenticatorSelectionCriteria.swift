@_spi(Fido2Internals) import Fido2Encoding

/// What the relying party asks of the authenticator (WebAuthn `AuthenticatorSelectionCriteria`).
public struct AuthenticatorSelectionCriteria: WebAuthnJSONForm {
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
    /// filling the defaults; unknown members are ignored.
    ///
    /// - Throws: ``WebAuthnError`` naming the mistyped member.
    @_spi(Fido2Internals) public init(scanning scanner: inout JSONScanner) throws(WebAuthnError) {
        var criteria = AuthenticatorSelectionCriteria()
        try scanner.members { (scanner, member) throws(WebAuthnError) in
            switch member {
            case "authenticatorAttachment":
                criteria.authenticatorAttachment = try scanner.optional {
                    (scanner) throws(WebAuthnError) in
                    AuthenticatorAttachment(rawValue: try scanner.string())
                }
            case "residentKey":
                criteria.residentKey = try scanner.optional { (scanner) throws(WebAuthnError) in
                    ResidentKeyRequirement(rawValue: try scanner.string())
                }
            case "requireResidentKey":
                criteria.requireResidentKey =
                    try scanner.optional { (scanner) throws(WebAuthnError) in try scanner.bool() }
                    ?? false
            case "userVerification":
                criteria.userVerification =
                    try scanner.optional { (scanner) throws(WebAuthnError) in
                        UserVerificationRequirement(rawValue: try scanner.string())
                    } ?? .preferred
            default: try scanner.skip()
            }
        }
        self = criteria
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
