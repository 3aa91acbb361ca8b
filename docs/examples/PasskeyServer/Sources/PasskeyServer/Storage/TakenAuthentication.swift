/// A sign-in's state taken out of the store together with what the response names
/// (``PasskeyStorage/takeAuthentication(session:credentialID:userHandle:)``).
struct TakenAuthentication: Sendable {
    /// The session's sign-in state, now deleted; nil when there was none (never begun, or
    /// taken already), and then nothing else was read.
    var ceremony: CeremonyRow?
    /// The credential whose ID the response carries, or nil.
    var credential: CredentialRow?
    /// The user whose handle the response carries (when it carries one), or nil.
    var handleOwner: UserRow?
}
