/// The answer to a registration that verified: `{"verified": true, "credentialId": "…"}`.
struct RegistrationOutcome: Encodable, Sendable {
    /// Always true: a registration that failed is answered with a ``ServerError``.
    let verified = true
    /// The new credential's ID, base64url without padding (the credential's `id`).
    let credentialId: String

    private enum CodingKeys: String, CodingKey {
        case verified
        case credentialId
    }
}
