import Fido2Crypto
@_spi(Fido2Internals) import Fido2Encoding
@_spi(Fido2Internals) import Fido2WebAuthnWire

/// What ``RelyingParty/finishRegistration(responseJSON:state:)`` needs of the options that
/// ``RelyingParty/beginRegistration(user:excludeCredentials:options:)`` made: keep it between
/// the two calls, in the server's session store, and delete it when the ceremony ends.
///
/// A state is `Codable` and has a stable JSON form (``jsonBytes()``); it holds no secret (the
/// challenge went to the browser) but must come back unaltered, so keep it on the server, not
/// in a cookie the client can edit. Single use is the server's part: take the state out of the
/// store when the response arrives, so that a response can never be replayed against it.
///
/// ```swift
/// let registration = try rp.beginRegistration(user: user)
/// try await sessions.set("registration", registration.state, for: sessionID)
/// // … the browser answers …
/// guard let state: RegistrationState = try await sessions.take("registration", for: sessionID)
/// else { throw LoginError.noCeremony }
/// let record = try rp.finishRegistration(responseJSON: body, state: state)
/// ```
public struct RegistrationState: WebAuthnJSONForm, CeremonyState {
    static let ceremony = "registration"

    /// What §7.1 verifies the response against: the challenge, the UV requirement, the
    /// algorithms offered, the attestation asked for and the types accepted, the excluded
    /// credentials and the extension policy, kept once here rather than copied beside it.
    public let expectations: RegistrationExpectations
    /// The RP ID the options named; the credential must be scoped to it.
    public let relyingPartyID: String
    /// The user account the credential is created for; its `id` becomes the record's user
    /// handle.
    public let user: PublicKeyCredentialUserEntityJSON
    /// The user verification the options asked for; `required` makes UV mandatory.
    public let userVerification: UserVerificationRequirement
    /// When the state stops being accepted, in milliseconds since the Unix epoch: the moment
    /// of the beginning call plus the options' timeout.
    public let expiresAt: Int64

    /// The challenge the options carried.
    public var challenge: [UInt8] { expectations.challenge }
    /// The algorithms the options offered, the only ones accepted.
    public var algorithms: [COSEAlgorithm] { expectations.allowedAlgorithms }
    /// The attestation the options asked for.
    public var attestation: AttestationConveyancePreference { expectations.attestation }
    /// The credential IDs the options excluded (the user's existing credentials).
    public var excludedCredentials: [[UInt8]] { expectations.excludedCredentials }
    /// The attestation types accepted.
    public var acceptedAttestationTypes: Set<AttestationType> {
        expectations.acceptedAttestationTypes
    }
    /// The authenticator extension outputs accepted.
    public var extensionPolicy: ExtensionPolicy { expectations.extensions }

    /// A state from its parts; ``RelyingParty/beginRegistration(user:excludeCredentials:options:)``
    /// makes them.
    public init(
        challenge: [UInt8], relyingPartyID: String, user: PublicKeyCredentialUserEntityJSON,
        userVerification: UserVerificationRequirement, algorithms: [COSEAlgorithm],
        attestation: AttestationConveyancePreference, excludedCredentials: [[UInt8]],
        acceptedAttestationTypes: Set<AttestationType>, extensionPolicy: ExtensionPolicy,
        expiresAt: Int64
    ) {
        self.expectations = RegistrationExpectations(
            challenge: challenge, requiresUserVerification: userVerification == .required,
            allowedAlgorithms: algorithms, acceptedAttestationTypes: acceptedAttestationTypes,
            extensions: extensionPolicy, attestation: attestation,
            excludedCredentials: excludedCredentials)
        self.relyingPartyID = relyingPartyID
        self.user = user
        self.userVerification = userVerification
        self.expiresAt = expiresAt
    }

    // MARK: JSON form

    /// Reads the state's JSON form (version 1); unknown members are ignored.
    ///
    /// - Throws: `WebAuthnError` naming the member: `missingMember`, `wrongType`,
    ///   `invalidValue` (another version, an unknown attestation type),
    ///   `ceremonyStateMismatch` for an authentication state.
    @_spi(Fido2Internals) public init(scanning scanner: inout JSONScanner) throws(WebAuthnError) {
        var version: Int?
        var ceremony: String?
        var challenge: [UInt8]?
        var relyingPartyID: String?
        var user: PublicKeyCredentialUserEntityJSON?
        var userVerification: UserVerificationRequirement?
        var algorithms: [COSEAlgorithm]?
        var attestation: AttestationConveyancePreference?
        var excludedCredentials: [[UInt8]] = []
        var acceptedAttestationTypes: Set<AttestationType>?
        var extensionPolicy = ExtensionPolicy.acceptAll
        var expiresAt: Int64?
        try scanner.members { (scanner, member) throws(WebAuthnError) in
            switch member {
            case "version": version = try scanner.integer(in: 0...Int(Int32.max))
            case "ceremony": ceremony = try scanner.string()
            case "challenge": challenge = try scanner.base64URL()
            case "relyingPartyID": relyingPartyID = try scanner.string()
            case "user": user = try scanner.form()
            case "userVerification":
                userVerification = UserVerificationRequirement(rawValue: try scanner.string())
            case "algorithms":
                var values: [COSEAlgorithm] = []
                try scanner.elements { (scanner) throws(WebAuthnError) in
                    values.append(COSEAlgorithm(rawValue: try scanner.long()))
                }
                algorithms = values
            case "attestation":
                attestation = AttestationConveyancePreference(rawValue: try scanner.string())
            case "excludedCredentials": excludedCredentials = try scanner.base64URLs()
            case "acceptedAttestationTypes":
                var types: Set<AttestationType> = []
                try scanner.elements { (scanner) throws(WebAuthnError) in
                    let name = try scanner.string()
                    guard let type = AttestationType(rawValue: name) else {
                        throw WebAuthnError(
                            .invalidValue, "\(quotedInput(name)) is not an attestation type")
                    }
                    types.insert(type)
                }
                acceptedAttestationTypes = types
            case "allowedExtensions":
                extensionPolicy =
                    try scanner.optional { (scanner) throws(WebAuthnError) in
                        ExtensionPolicy.allowOnly(Set(try scanner.strings()))
                    } ?? .acceptAll
            case "expiresAt": expiresAt = try scanner.int64()
            default: try scanner.skip()
            }
        }
        try CeremonySupport.checkHeader(Self.self, version: version, ceremony: ceremony)
        guard let challenge else { throw missingMember("challenge") }
        guard let relyingPartyID else { throw missingMember("relyingPartyID") }
        guard let user else { throw missingMember("user") }
        guard let userVerification else { throw missingMember("userVerification") }
        guard let algorithms else { throw missingMember("algorithms") }
        guard let attestation else { throw missingMember("attestation") }
        guard let acceptedAttestationTypes else { throw missingMember("acceptedAttestationTypes") }
        guard let expiresAt else { throw missingMember("expiresAt") }
        self.init(
            challenge: challenge, relyingPartyID: relyingPartyID, user: user,
            userVerification: userVerification, algorithms: algorithms, attestation: attestation,
            excludedCredentials: excludedCredentials,
            acceptedAttestationTypes: acceptedAttestationTypes, extensionPolicy: extensionPolicy,
            expiresAt: expiresAt)
    }

    /// Writes the state's JSON form, version 1.
    public func write(to writer: inout JSONWriter) {
        writer.beginObject()
        CeremonySupport.writeHeader(Self.self, to: &writer)
        writer.name("challenge")
        writer.base64URL(challenge)
        writer.name("relyingPartyID")
        writer.string(relyingPartyID)
        writer.name("user")
        writer.form(user)
        writer.name("userVerification")
        writer.string(userVerification.rawValue)
        writer.name("algorithms")
        writer.beginArray()
        for algorithm in algorithms { writer.number(algorithm.rawValue) }
        writer.endArray()
        writer.name("attestation")
        writer.string(attestation.rawValue)
        writer.name("excludedCredentials")
        writer.base64URLs(excludedCredentials)
        writer.name("acceptedAttestationTypes")
        writer.strings(acceptedAttestationTypes.map(\.rawValue).sorted())
        if let allowed = extensionPolicy.allowedIdentifiers {
            writer.name("allowedExtensions")
            writer.strings(allowed)
        }
        writer.name("expiresAt")
        writer.number(expiresAt)
        writer.endObject()
    }
}
