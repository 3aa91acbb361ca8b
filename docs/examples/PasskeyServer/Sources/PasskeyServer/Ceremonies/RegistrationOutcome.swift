/// The answer to a registration that verified:
/// `{"verified": true, "credentialId": "…", "username": "alice"}`; the user is signed in.
struct RegistrationOutcome: Encodable, Sendable {
    /// Always true: a registration that failed is answered with a ``ServerError``.
    let verified = true
    /// The new credential's ID, base64url without padding (the credential's `id`).
    let credentialId: String
    /// The account the credential belongs to, now signed in.
    let username: String

    private enum CodingKeys: String, CodingKey {
        case verified
        case credentialId
        case username
    }
}
