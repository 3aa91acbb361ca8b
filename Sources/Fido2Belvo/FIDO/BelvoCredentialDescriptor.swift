/// A credential descriptor as Belvo sends it (`allowCredentials[]`, `excludeCredentials[]`):
/// `{"id": "<base64url>", "type": "public-key", "transports": [...]}`.
public struct BelvoCredentialDescriptor: Decodable, Sendable, Hashable {
    /// The credential type; only `public-key` entries are used, others are skipped (WebAuthn).
    public let type: String
    /// The credential id, base64url.
    public let id: String
    /// Transport hints, when given; not used by a platform authenticator.
    public let transports: [String]?

    /// A descriptor from its members (for tests and fixtures).
    public init(type: String = "public-key", id: String, transports: [String]? = nil) {
        self.type = type
        self.id = id
        self.transports = transports
    }
}
