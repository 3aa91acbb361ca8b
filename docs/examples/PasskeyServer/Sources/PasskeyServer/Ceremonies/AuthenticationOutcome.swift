/// The answer to a sign-in that verified:
/// `{"verified": true, "username": "alice", "signCount": 7}`.
struct AuthenticationOutcome: Encodable, Sendable {
    /// Always true: a sign-in that failed is answered with a ``ServerError``.
    let verified = true
    /// The user who signed in.
    let username: String
    /// The signature counter the authenticator reported (0 for one that keeps none).
    let signCount: UInt32

    private enum CodingKeys: String, CodingKey {
        case verified
        case username
        case signCount
    }
}
