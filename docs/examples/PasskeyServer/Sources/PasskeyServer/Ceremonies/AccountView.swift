/// The answer to `GET /account`: the signed-in user and their passkeys, oldest first, with the
/// `signalAllAcceptedCredentials` payload that lists them (the page sends it after a
/// deletion, where the browser has the Signal API).
struct AccountView: Encodable, Sendable {
    /// One passkey of the account.
    struct Passkey: Encodable, Sendable {
        /// The credential ID, base64url without padding.
        let credentialId: String
        /// The name the user gave it.
        let name: String
        /// When it was registered, in milliseconds since the Unix epoch.
        let createdAt: Int64
        /// When it last signed in, in milliseconds since the Unix epoch; null before that.
        let lastUsedAt: Int64?
        /// Whether the authenticator may back it up (BE at registration): a synced passkey.
        let backupEligible: Bool
        /// Whether it is backed up (BS last seen).
        let backedUp: Bool
        /// The name of the provider or model that holds it, by the AAGUID of its registration
        /// (`ProviderNameDirectory`); null when unknown. For display only: an AAGUID is the
        /// authenticator's claim.
        let provider: String?

        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(credentialId, forKey: .credentialId)
            try container.encode(name, forKey: .name)
            try container.encode(createdAt, forKey: .createdAt)
            // null rather than absent: the page reads one shape.
            try container.encode(lastUsedAt, forKey: .lastUsedAt)
            try container.encode(backupEligible, forKey: .backupEligible)
            try container.encode(backedUp, forKey: .backedUp)
            try container.encode(provider, forKey: .provider)
        }

        private enum CodingKeys: String, CodingKey {
            case credentialId
            case name
            case createdAt
            case lastUsedAt
            case backupEligible
            case backedUp
            case provider
        }
    }

    /// The account's username.
    let username: String
    /// Its passkeys.
    let passkeys: [Passkey]
    /// `signalAllAcceptedCredentials`'s argument for the account; absent when it cannot be
    /// made (no passkeys).
    let allAcceptedCredentials: SignalPayloads.AllAcceptedCredentials?
}
