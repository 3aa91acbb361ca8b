/// The answer to a sign-in that verified:
/// `{"verified": true, "username": "alice", "signCount": 7, "currentUserDetails": {…}}`, the
/// last the `signalCurrentUserDetails` payload the page sends where the browser has it.
struct AuthenticationOutcome: Encodable, Sendable {
    /// Always true: a sign-in that failed is answered with a ``ServerError``.
    let verified = true
    /// The user who signed in.
    let username: String
    /// The signature counter the authenticator reported (0 for one that keeps none).
    let signCount: UInt32
    /// `signalCurrentUserDetails`'s argument for the account.
    var currentUserDetails: SignalPayloads.CurrentUserDetails?

    private enum CodingKeys: String, CodingKey {
        case verified
        case username
        case signCount
        case currentUserDetails
    }
}
