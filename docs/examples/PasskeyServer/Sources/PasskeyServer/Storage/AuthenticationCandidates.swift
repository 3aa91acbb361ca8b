/// What a sign-in's options are made from, read together
/// (``PasskeyStorage/authenticationCandidates(session:username:)``): the session the ceremony
/// is kept under, and the named account with its credentials.
struct AuthenticationCandidates: Sendable {
    /// The current session, or a new one without a user.
    var session: SessionRow
    /// The account named in the request; nil for a discoverable sign-in or an unknown name.
    var user: UserRow?
    /// The account's credential rows, oldest first; empty when `user` is nil.
    var credentials: [CredentialRow]
}
