@_spi(Fido2Internals) import Fido2Encoding

/// Options for creating a credential, as a relying party sends them
/// (WebAuthn Level 3 `PublicKeyCredentialCreationOptionsJSON`).
///
/// Members with IDL defaults (`excludeCredentials`, `hints`, `attestation`,
/// `attestationFormats`) read as their default when absent and are always written.
public struct PublicKeyCredentialCreationOptionsJSON: WebAuthnJSONForm {
    /// The relying party.
    public var rp: PublicKeyCredentialRpEntity
    /// The user account.
    public var user: PublicKeyCredentialUserEntityJSON
    /// The challenge (base64url in JSON).
    public var challenge: [UInt8]
    /// Acceptable algorithms, most preferred first.
    public var pubKeyCredParams: [PublicKeyCredentialParameters]
    /// How long the relying party will wait, in milliseconds.
    public var timeout: UInt32?
    /// Credentials the authenticator must not already hold. Default empty.
    public var excludeCredentials: [PublicKeyCredentialDescriptorJSON]
    /// What the relying party asks of the authenticator.
    public var authenticatorSelection: AuthenticatorSelectionCriteria?
    /// Which kinds of authenticator to offer first. Default empty.
    public var hints: [PublicKeyCredentialHint]
    /// What attestation the relying party wants. Default `none`.
    public var attestation: AttestationConveyancePreference
    /// Attestation statement formats in order of preference. Default empty.
    public var attestationFormats: [String]
    /// Extension inputs, kept as raw JSON.
    public var extensions: JSONObject?

    /// Creation options; arguments not given take the specification's defaults.
    public init(
        rp: PublicKeyCredentialRpEntity, user: PublicKeyCredentialUserEntityJSON,
        challenge: [UInt8],
        pubKeyCredParams: [PublicKeyCredentialParameters], timeout: UInt32? = nil,
        excludeCredentials: [PublicKeyCredentialDescriptorJSON] = [],
        authenticatorSelection: AuthenticatorSelectionCriteria? = nil,
        hints: [PublicKeyCredentialHint] = [], attestation: AttestationConveyancePreference = .none,
        attestationFormats: [String] = [], extensions: JSONObject? = nil
    ) {
        self.rp = rp
        self.user = user
        self.challenge = challenge
        self.pubKeyCredParams = pubKeyCredParams
        self.timeout = timeout
        self.excludeCredentials = excludeCredentials
        self.authenticatorSelection = authenticatorSelection
        self.hints = hints
        self.attestation = attestation
        self.attestationFormats = attestationFormats
        self.extensions = extensions
    }

    /// Reads creation options; unknown members are ignored.
    ///
    /// - Throws: ``WebAuthnError`` naming the missing or mistyped member (`rp.name`,
    ///   `user.id`, `pubKeyCredParams[1].alg`, …).
    @_spi(Fido2Internals) public init(scanning scanner: inout JSONScanner) throws(WebAuthnError) {
        var rp: PublicKeyCredentialRpEntity?
        var user: PublicKeyCredentialUserEntityJSON?
        var challenge: [UInt8]?
        var pubKeyCredParams: [PublicKeyCredentialParameters]?
        var timeout: UInt32?
        var excludeCredentials: [PublicKeyCredentialDescriptorJSON] = []
        var authenticatorSelection: AuthenticatorSelectionCriteria?
        var hints: [PublicKeyCredentialHint] = []
        var attestation = AttestationConveyancePreference.none
        var attestationFormats: [String] = []
        var extensions: JSONObject?
        try scanner.members { (scanner, member) throws(WebAuthnError) in
            switch member {
            case "rp": rp = try scanner.form()
            case "user": user = try scanner.form()
            case "challenge": challenge = try scanner.base64URL()
            case "pubKeyCredParams": pubKeyCredParams = try scanner.forms()
            case "timeout":
                timeout = try scanner.optional { (scanner) throws(WebAuthnError) in
                    try scanner.unsignedLong()
                }
            case "excludeCredentials":
                excludeCredentials =
                    try scanner.optional { (scanner) throws(WebAuthnError) in try scanner.forms() }
                    ?? []
            case "authenticatorSelection":
                authenticatorSelection = try scanner.optional { (scanner) throws(WebAuthnError) in
                    try scanner.form()
                }
            case "hints":
                hints =
                    try scanner.optional { (scanner) throws(WebAuthnError) in
                        try scanner.enumerations()
                    } ?? []
            case "attestation":
                attestation =
                    try scanner.optional { (scanner) throws(WebAuthnError) in
                        AttestationConveyancePreference(rawValue: try scanner.string())
                    } ?? .none
            case "attestationFormats":
                attestationFormats =
                    try scanner.optional { (scanner) throws(WebAuthnError) in try scanner.strings()
                    }
                    ?? []
            case "extensions":
                extensions = try scanner.optional { (scanner) throws(WebAuthnError) in
                    try scanner.rawObject()
                }
            default: try scanner.skip()
            }
        }
        guard let rp else { throw missingMember("rp") }
        guard let user else { throw missingMember("user") }
        guard let challenge else { throw missingMember("challenge") }
        guard let pubKeyCredParams else { throw missingMember("pubKeyCredParams") }
        self.init(
            rp: rp, user: user, challenge: challenge, pubKeyCredParams: pubKeyCredParams,
            timeout: timeout, excludeCredentials: excludeCredentials,
            authenticatorSelection: authenticatorSelection, hints: hints, attestation: attestation,
            attestationFormats: attestationFormats, extensions: extensions)
    }

    /// Writes the options, members in IDL order.
    public func write(to writer: inout JSONWriter) {
        writer.beginObject()
        writer.name("rp")
        writer.form(rp)
        writer.name("user")
        writer.form(user)
        writer.name("challenge")
        writer.base64URL(challenge)
        writer.name("pubKeyCredParams")
        writer.forms(pubKeyCredParams)
        if let timeout {
            writer.name("timeout")
            writer.number(Int64(timeout))
        }
        writer.name("excludeCredentials")
        writer.forms(excludeCredentials)
        if let authenticatorSelection {
            writer.name("authenticatorSelection")
            writer.form(authenticatorSelection)
        }
        writer.name("hints")
        writer.enumerations(hints)
        writer.name("attestation")
        writer.string(attestation.rawValue)
        writer.name("attestationFormats")
        writer.strings(attestationFormats)
        if let extensions {
            writer.name("extensions")
            writer.object(extensions)
        }
        writer.endObject()
    }
}
