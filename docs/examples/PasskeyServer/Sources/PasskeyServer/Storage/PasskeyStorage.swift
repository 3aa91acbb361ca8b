import Fido2WebAuthn

/// What the server keeps and how: users, credentials, sessions, ceremony states and the
/// server's keys, in SQLite (``PasskeyStore``, one file, the default) or PostgreSQL
/// (``PostgresStore``, for several instances behind a load balancer).
///
/// Each call is one transaction. The calls that decide something another instance could be
/// deciding at the same moment do it in the database, not in memory:
///
/// - ``takeCeremony(session:kind:)`` deletes the state and returns it in one statement
///   (`DELETE … RETURNING`), so that a state is used once even when the same response reaches
///   two instances at once: one of them gets it, the other `noCeremony`;
/// - ``signIn(ceremony:checked:updated:)`` writes the new counter and backup state only if the
///   stored record is still the one the signature was checked against (compare-and-set), and
///   refuses otherwise (``ServerError/credentialChanged``), never 500;
/// - a credential ID is unique by the table's primary key, and a username and a user handle by
///   unique constraints, whatever checked them first.
protocol PasskeyStorage: Sendable {
    /// The key named `name` (``ServerKey``), made once per database.
    func serverKey(named name: String) async throws(ServerError) -> [UInt8]

    /// The current session `id`, or a new session without a user.
    func currentOrNewSession(_ id: String?) async throws(ServerError) -> SessionRow

    /// The user signed in on the current session `session`.
    ///
    /// - Throws: ``ServerError`` `notSignedIn`.
    func signedInUser(session: String?) async throws(ServerError) -> UserRow

    /// The account named `username`, or nil.
    func user(named username: String) async throws(ServerError) -> UserRow?

    /// The account of row `id`, or nil.
    func user(id: Int64) async throws(ServerError) -> UserRow?

    /// The credential rows of the user of row `userID`, oldest first.
    func credentials(ofUser userID: Int64) async throws(ServerError) -> [CredentialRow]

    /// What a sign-in's options need: the current session `session` (or a new one without a
    /// user), the account named `username` (when given) and its credential rows, oldest first.
    ///
    /// The SQLite store reads them in one transaction; the default composes
    /// ``currentOrNewSession(_:)``, ``user(named:)`` and ``credentials(ofUser:)``.
    func authenticationCandidates(
        session: String?, username: String?
    ) async throws(ServerError) -> AuthenticationCandidates

    /// Takes the session's sign-in state out, as ``takeCeremony(session:kind:)`` does, and when
    /// there was one reads the credential `credentialID` and the owner of `userHandle`, as
    /// ``credential(id:userHandle:)`` does.
    ///
    /// The SQLite store does both in one transaction; the default composes the two calls.
    func takeAuthentication(
        session: String, credentialID: [UInt8], userHandle: [UInt8]?
    ) async throws(ServerError) -> TakenAuthentication

    /// Keeps `ceremony`, replacing the session's state for the same kind.
    func putCeremony(_ ceremony: CeremonyRow) async throws(ServerError)

    /// Deletes the session's state for `kind` and returns it, in one statement; nil when there
    /// is none (never begun, or taken already).
    func takeCeremony(
        session: String, kind: CeremonyKind
    ) async throws(ServerError)
        -> CeremonyRow?

    /// In one transaction: checks that the ceremony's session is current and the credential ID
    /// is nobody's, makes the account for a sign-up, stores the credential and replaces the
    /// session by a signed-in one.
    ///
    /// - Throws: ``ServerError`` `noCeremony`, `credentialExists`, `usernameUnavailable`,
    ///   `notSignedIn`.
    func register(
        _ record: CredentialRecord, ceremony: CeremonyRow
    ) async throws(ServerError)
        -> (user: UserRow, session: SessionRow)

    /// The credential whose ID is `credentialID`, and the user whose handle is `userHandle`
    /// (when given), as stored now.
    func credential(
        id credentialID: [UInt8], userHandle: [UInt8]?
    ) async throws(ServerError) -> (credential: CredentialRow?, handleOwner: UserRow?)

    /// In one transaction: checks that the ceremony's session is current, stores `updated` in
    /// place of `checked` only if the stored row is still `checked` (compare-and-set) and
    /// replaces the session by one signed in as the credential's user.
    ///
    /// - Throws: ``ServerError`` `noCeremony`; `credentialChanged` when another sign-in with
    ///   the credential was stored meanwhile.
    func signIn(
        ceremony: CeremonyRow, checked: CredentialRow, updated: CredentialRecord
    ) async throws(ServerError) -> (user: UserRow, session: SessionRow)

    /// Renames passkey `credentialID` of the user of row `userID`.
    ///
    /// - Throws: ``ServerError`` `passkeyNotFound`.
    func renamePasskey(
        _ credentialID: String, userID: Int64, to name: String)
        async throws(ServerError)

    /// Deletes passkey `credentialID` of the user of row `userID`, unless it is their last.
    ///
    /// - Throws: ``ServerError`` `passkeyNotFound`, `lastPasskey`.
    func deletePasskey(_ credentialID: String, userID: Int64) async throws(ServerError)

    /// Ends session `id` and its ceremonies.
    func endSession(_ id: String) async throws(ServerError)

    /// Deletes expired ceremony states and sessions; returns how many rows went.
    func pruneExpired() async throws(ServerError) -> Int
}

extension PasskeyStorage {
    func authenticationCandidates(
        session: String?, username: String?
    ) async throws(ServerError) -> AuthenticationCandidates {
        let current = try await currentOrNewSession(session)
        guard let username, let user = try await user(named: username), let userID = user.id
        else { return AuthenticationCandidates(session: current, user: nil, credentials: []) }
        return AuthenticationCandidates(
            session: current, user: user, credentials: try await credentials(ofUser: userID))
    }

    func takeAuthentication(
        session: String, credentialID: [UInt8], userHandle: [UInt8]?
    ) async throws(ServerError) -> TakenAuthentication {
        guard let ceremony = try await takeCeremony(session: session, kind: .authentication) else {
            return TakenAuthentication(ceremony: nil, credential: nil, handleOwner: nil)
        }
        let found = try await credential(id: credentialID, userHandle: userHandle)
        return TakenAuthentication(
            ceremony: ceremony, credential: found.credential, handleOwner: found.handleOwner)
    }
}
