@_spi(Fido2Internals) import Fido2Encoding
@_spi(Fido2Internals) import Fido2WebAuthnWire

/// What ``RelyingParty/finishAuthentication(responseJSON:state:credential:)`` needs of the
/// options that ``RelyingParty/beginAuthentication(allowCredentials:options:)`` made: keep it
/// between the two calls, in the server's session store, and delete it when the ceremony ends.
///
/// A state is `Codable` and has a stable JSON form (``jsonBytes()``). It must come back
/// unaltered (keep it on the server), and once: take it out of the store when the response
/// arrives, so that a response can never be replayed against it.
public struct AuthenticationState: WebAuthnJSONForm, CeremonyState {
    static let ceremony = "authentication"

    /// The challenge the options carried.
    public let challenge: [UInt8]
    /// The RP ID the options named; the assertion must be scoped to it.
    public let relyingPartyID: String
    /// The user verification the options asked for; `required` makes UV mandatory.
    public let userVerification: UserVerificationRequirement
    /// The IDs of `allowCredentials`; empty for a discoverable sign-in, where the response's
    /// `userHandle` names the user.
    public let allowedCredentials: [[UInt8]]
    /// The authenticator extension outputs accepted.
    public let extensionPolicy: ExtensionPolicy
    /// When the state stops being accepted, in milliseconds since the Unix epoch: the moment
    /// of the beginning call plus the options' timeout.
    public let expiresAt: Int64
    /// The AppID the options asked the client to use (`appid`, §10.1.1); nil when none.
    public let appID: String?

    /// A state from its parts; ``RelyingParty/beginAuthentication(allowCredentials:options:)``
    /// makes them.
    public init(
        challenge: [UInt8], relyingPartyID: String, userVerification: UserVerificationRequirement,
        allowedCredentials: [[UInt8]], extensionPolicy: ExtensionPolicy, expiresAt: Int64,
        appID: String? = nil
    ) {
        self.appID = appID
        self.challenge = challenge
        self.relyingPartyID = relyingPartyID
        self.userVerification = userVerification
        self.allowedCredentials = allowedCredentials
        self.extensionPolicy = extensionPolicy
        self.expiresAt = expiresAt
    }

    /// What §7.2 verifies the response against, answered by `credential`.
    func expectations(credential: CredentialRecord) -> AuthenticationExpectations {
        AuthenticationExpectations(
            challenge: challenge, credential: credential, allowCredentials: allowedCredentials,
            userIdentification: allowedCredentials.isEmpty ? .byUserHandle : .beforeCeremony,
            requiresUserVerification: userVerification == .required, extensions: extensionPolicy,
            appID: appID)
    }

    // MARK: JSON form

    /// Reads the state's JSON form (version 1); unknown members are ignored.
    ///
    /// - Throws: `WebAuthnError` naming the member: `missingMember`, `wrongType`,
    ///   `invalidValue` (another version), `ceremonyStateMismatch` for a registration state.
    @_spi(Fido2Internals) public init(scanning scanner: inout JSONScanner) throws(WebAuthnError) {
        var version: Int?
        var ceremony: String?
        var challenge: [UInt8]?
        var relyingPartyID: String?
        var userVerification: UserVerificationRequirement?
        var allowedCredentials: [[UInt8]] = []
        var extensionPolicy = ExtensionPolicy.acceptAll
        var expiresAt: Int64?
        var appID: String?
        try scanner.members { (scanner, member) throws(WebAuthnError) in
            switch member {
            case "version": version = try scanner.integer(in: 0...Int(Int32.max))
            case "ceremony": ceremony = try scanner.string()
            case "challenge": challenge = try scanner.base64URL()
            case "relyingPartyID": relyingPartyID = try scanner.string()
            case "userVerification":
                userVerification = UserVerificationRequirement(rawValue: try scanner.string())
            case "allowedCredentials": allowedCredentials = try scanner.base64URLs()
            case "allowedExtensions":
                extensionPolicy =
                    try scanner.optional { (scanner) throws(WebAuthnError) in
                        ExtensionPolicy.allowOnly(Set(try scanner.strings()))
                    } ?? .acceptAll
            case "expiresAt": expiresAt = try scanner.int64()
            case "appID": appID = try scanner.string()
            default: try scanner.skip()
            }
        }
        try CeremonySupport.checkHeader(Self.self, version: version, ceremony: ceremony)
        guard let challenge else { throw missingMember("challenge") }
        guard let relyingPartyID else { throw missingMember("relyingPartyID") }
        guard let userVerification else { throw missingMember("userVerification") }
        guard let expiresAt else { throw missingMember("expiresAt") }
        self.init(
            challenge: challenge, relyingPartyID: relyingPartyID,
            userVerification: userVerification, allowedCredentials: allowedCredentials,
            extensionPolicy: extensionPolicy, expiresAt: expiresAt, appID: appID)
    }

    /// Writes the state's JSON form, version 1.
    public func write(to writer: inout JSONWriter) {
        writer.beginObject()
        CeremonySupport.writeHeader(Self.self, to: &writer)
        writer.name("challenge")
        writer.base64URL(challenge)
        writer.name("relyingPartyID")
        writer.string(relyingPartyID)
        writer.name("userVerification")
        writer.string(userVerification.rawValue)
        writer.name("allowedCredentials")
        writer.base64URLs(allowedCredentials)
        if let allowed = extensionPolicy.allowedIdentifiers {
            writer.name("allowedExtensions")
            writer.strings(allowed)
        }
        writer.name("expiresAt")
        writer.number(expiresAt)
        if let appID {
            writer.name("appID")
            writer.string(appID)
        }
        writer.endObject()
    }
}
