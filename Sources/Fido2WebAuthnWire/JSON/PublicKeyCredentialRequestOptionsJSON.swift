@_spi(Fido2Internals) import Fido2Encoding

/// Options for getting an assertion, as a relying party sends them
/// (WebAuthn Level 3 `PublicKeyCredentialRequestOptionsJSON`).
///
/// Members with IDL defaults (`allowCredentials`, `userVerification`, `hints`) read as their
/// default when absent and are always written.
public struct PublicKeyCredentialRequestOptionsJSON: WebAuthnJSONForm {
    /// The challenge (base64url in JSON).
    public var challenge: [UInt8]
    /// How long the relying party will wait, in milliseconds.
    public var timeout: UInt32?
    /// The RP ID; when absent the client uses the origin's effective domain.
    public var rpId: String?
    /// Credentials that may answer; empty means any discoverable credential. Default empty.
    public var allowCredentials: [PublicKeyCredentialDescriptorJSON]
    /// Whether user verification is wanted. Default `preferred`.
    public var userVerification: UserVerificationRequirement
    /// Which kinds of authenticator to offer first. Default empty.
    public var hints: [PublicKeyCredentialHint]
    /// Extension inputs, kept as raw JSON.
    public var extensions: JSONObject?

    /// Request options; arguments not given take the specification's defaults.
    public init(
        challenge: [UInt8], timeout: UInt32? = nil, rpId: String? = nil,
        allowCredentials: [PublicKeyCredentialDescriptorJSON] = [],
        userVerification: UserVerificationRequirement = .preferred,
        hints: [PublicKeyCredentialHint] = [], extensions: JSONObject? = nil
    ) {
        self.challenge = challenge
        self.timeout = timeout
        self.rpId = rpId
        self.allowCredentials = allowCredentials
        self.userVerification = userVerification
        self.hints = hints
        self.extensions = extensions
    }

    /// Reads request options; unknown members are ignored.
    ///
    /// - Throws: ``WebAuthnError`` naming the missing or mistyped member.
    @_spi(Fido2Internals) public init(scanning scanner: inout JSONScanner) throws(WebAuthnError) {
        var challenge: [UInt8]?
        var options = PublicKeyCredentialRequestOptionsJSON(challenge: [])
        try scanner.members { (scanner, member) throws(WebAuthnError) in
            switch member {
            case "challenge": challenge = try scanner.base64URL()
            case "timeout":
                options.timeout = try scanner.optional { (scanner) throws(WebAuthnError) in
                    try scanner.unsignedLong()
                }
            case "rpId":
                options.rpId = try scanner.optional { (scanner) throws(WebAuthnError) in
                    try scanner.string()
                }
            case "allowCredentials":
                options.allowCredentials =
                    try scanner.optional { (scanner) throws(WebAuthnError) in try scanner.forms() }
                    ?? []
            case "userVerification":
                options.userVerification =
                    try scanner.optional { (scanner) throws(WebAuthnError) in
                        UserVerificationRequirement(rawValue: try scanner.string())
                    } ?? .preferred
            case "hints":
                options.hints =
                    try scanner.optional { (scanner) throws(WebAuthnError) in
                        try scanner.enumerations()
                    } ?? []
            case "extensions":
                options.extensions = try scanner.optional { (scanner) throws(WebAuthnError) in
                    try scanner.rawObject()
                }
            default: try scanner.skip()
            }
        }
        guard let challenge else { throw missingMember("challenge") }
        options.challenge = challenge
        self = options
    }

    /// Writes the options, members in IDL order.
    public func write(to writer: inout JSONWriter) {
        writer.beginObject()
        writer.name("challenge")
        writer.base64URL(challenge)
        if let timeout {
            writer.name("timeout")
            writer.number(Int64(timeout))
        }
        if let rpId {
            writer.name("rpId")
            writer.string(rpId)
        }
        writer.name("allowCredentials")
        writer.forms(allowCredentials)
        writer.name("userVerification")
        writer.string(userVerification.rawValue)
        writer.name("hints")
        writer.enumerations(hints)
        if let extensions {
            writer.name("extensions")
            writer.object(extensions)
        }
        writer.endObject()
    }
}
