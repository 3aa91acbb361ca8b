/// FIDO registration options exactly as Belvo sends them from
/// `GET /enrollments/{id}/fido-registration-options/`.
///
/// The documented sample decodes as is:
/// ```json
/// {"rp": {"id": "belvo.com", "name": "Raidiam Mockbank - Pipeline NRJ"},
///  "user": {"id": "a5bd0ef9-f8ab-41a2-b968-489761a91de6", "name": "Ralph Bragg",
///           "displayName": "Ralph Bragg"},
///  "challenge": "R3dsT2REOE5oZ25JbVE",
///  "pubKeyCredParams": [{"alg": -257, "type": "public-key"}, {"alg": -7, "type": "public-key"}],
///  "extensions": {"appid": "true"}}
/// ```
/// Strings stay strings here (`user.id` is a UUID string, `challenge` base64url); turning them
/// into bytes is ``BelvoRegistrationOptions``' job. Members Belvo adds are tolerated.
public struct BelvoFidoRegistrationOptions: Decodable, Sendable, Hashable {
    /// The relying party (`rp`).
    public struct RelyingParty: Decodable, Sendable, Hashable {
        /// The RP ID, e.g. `belvo.com`.
        public let id: String
        /// The RP's display name.
        public let name: String
    }

    /// The user account (`user`).
    public struct User: Decodable, Sendable, Hashable {
        /// The user id as Belvo sends it: a UUID string, not base64url bytes.
        public let id: String
        /// The account name.
        public let name: String
        /// The name to display.
        public let displayName: String
    }

    /// One entry of `pubKeyCredParams`.
    public struct Parameter: Decodable, Sendable, Hashable {
        /// The COSE algorithm identifier (`-7` ES256, `-257` RS256, …).
        public let alg: Int
        /// The credential type, `public-key`.
        public let type: String
    }

    /// `authenticatorSelection`, when sent.
    public struct AuthenticatorSelection: Decodable, Sendable, Hashable {
        /// `platform` or `cross-platform`.
        public let authenticatorAttachment: String?
        /// `discouraged`, `preferred` or `required`.
        public let residentKey: String?
        /// The Level 1 spelling of a resident-key requirement.
        public let requireResidentKey: Bool?
        /// `discouraged`, `preferred` or `required`.
        public let userVerification: String?
    }

    /// The relying party.
    public let rp: RelyingParty
    /// The user account.
    public let user: User
    /// The challenge, base64url.
    public let challenge: String
    /// The acceptable algorithms in the RP's order of preference.
    public let pubKeyCredParams: [Parameter]
    /// The ceremony time-out in milliseconds, when sent.
    public let timeout: Int?
    /// Credentials already registered, when sent.
    public let excludeCredentials: [BelvoCredentialDescriptor]?
    /// Authenticator requirements, when sent.
    public let authenticatorSelection: AuthenticatorSelection?
    /// The attestation conveyance preference, when sent.
    public let attestation: String?
    /// The extensions asked for, when sent.
    public let extensions: BelvoFidoExtensions?

    /// The options decoded from Belvo's JSON.
    ///
    /// - Throws: ``BelvoError/Code/malformedFidoOptions`` naming the member at fault when the
    ///   JSON lacks a required member or has one of the wrong type.
    public init(json: some Collection<UInt8>) throws {
        self = try JSONReading.decode(
            Self.self, from: json, code: .malformedFidoOptions,
            what: "FIDO registration options")
    }
}
