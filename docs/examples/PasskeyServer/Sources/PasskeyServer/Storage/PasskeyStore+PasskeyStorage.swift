import Fido2Encoding
import Fido2WebAuthn
import Foundation
import GRDB

/// The SQLite store's transactions. Writes are serialized (one writer per file at a time, in
/// every process on it), so a look-up and the write that depends on it cannot interleave with
/// another's; the single-use state and the counter's compare-and-set are done the same way as
/// on PostgreSQL all the same, so that both stores keep the same rules.
extension PasskeyStore: PasskeyStorage {
    func serverKey(named name: String) async throws(ServerError) -> [UInt8] {
        try await write { db in try ServerKey.named(name, in: db) }
    }

    func currentOrNewSession(_ id: String?) async throws(ServerError) -> SessionRow {
        try await write { db in try SessionRow.currentOrNew(id, in: db) }
    }

    func signedInUser(session: String?) async throws(ServerError) -> UserRow {
        try await write { db in
            guard let session = try SessionRow.current(session, in: db),
                let userID = session.userID, let user = try UserRow.withID(userID, in: db)
            else { throw ServerError.notSignedIn }
            return user
        }
    }

    func user(named username: String) async throws(ServerError) -> UserRow? {
        try await write { db in try UserRow.named(username, in: db) }
    }

    func user(id: Int64) async throws(ServerError) -> UserRow? {
        try await write { db in try UserRow.withID(id, in: db) }
    }

    func credentials(ofUser userID: Int64) async throws(ServerError) -> [CredentialRow] {
        try await write { db in try CredentialRow.rows(ofUser: userID, in: db) }
    }

    func authenticationCandidates(
        session: String?, username: String?
    ) async throws(ServerError) -> AuthenticationCandidates {
        try await write { db in
            let current = try SessionRow.currentOrNew(session, in: db)
            guard let username, let user = try UserRow.named(username, in: db),
                let userID = user.id
            else { return AuthenticationCandidates(session: current, user: nil, credentials: []) }
            return AuthenticationCandidates(
                session: current, user: user,
                credentials: try CredentialRow.rows(ofUser: userID, in: db))
        }
    }

    func putCeremony(_ ceremony: CeremonyRow) async throws(ServerError) {
        try await write { db in try ceremony.put(in: db) }
    }

    func takeCeremony(
        session: String, kind: CeremonyKind
    ) async throws(ServerError) -> CeremonyRow? {
        try await write { db in try CeremonyRow.take(session: session, kind: kind, in: db) }
    }

    func register(
        _ record: CredentialRecord, ceremony: CeremonyRow
    ) async throws(ServerError) -> (user: UserRow, session: SessionRow) {
        try await write { db in
            guard let session = try SessionRow.current(ceremony.session, in: db) else {
                throw ServerError.noCeremony(.registration)
            }
            // §7.1 step 26, the server's part; the primary key says it again on insert.
            guard try CredentialRow.withID(record.id, in: db) == nil else {
                throw ServerError.credentialExists
            }
            let user = try Self.account(for: ceremony, session: session, in: db)
            guard let userID = user.id else { throw ServerError.corruptData("users", "no row ID") }
            let count = try CredentialRow.filter(CredentialRow.Columns.userID == userID)
                .fetchCount(db)
            try CredentialRow(record: record, userID: userID, name: "Passkey \(count + 1)")
                .insert(db)
            let signedIn = try SessionRow.signIn(replacing: session, userID: userID, in: db)
            return (user, signedIn)
        }
    }

    /// The account a verified registration adds its credential to: the signed-in user's, or
    /// for a sign-up a new account, made now.
    private static func account(
        for ceremony: CeremonyRow, session: SessionRow, in db: Database
    ) throws -> UserRow {
        if let userID = ceremony.userID {
            // Adding a passkey: still the user signed in on this session.
            guard session.userID == userID, let user = try UserRow.withID(userID, in: db)
            else { throw ServerError.notSignedIn }
            return user
        }
        guard let username = ceremony.username, let userHandle = ceremony.userHandle else {
            throw ServerError.corruptData("the registration ceremony", "no username")
        }
        // The name was free at options time; a sign-up that verified first may have taken it.
        guard try UserRow.named(username, in: db) == nil else {
            throw ServerError.usernameUnavailable
        }
        var user = UserRow(
            id: nil, username: username, userHandle: userHandle,
            createdAt: ServerClock.nowMilliseconds())
        try user.insert(db)
        return user
    }

    func takeAuthentication(
        session: String, credentialID: [UInt8], userHandle: [UInt8]?
    ) async throws(ServerError) -> TakenAuthentication {
        try await write { db in
            guard
                let ceremony = try CeremonyRow.take(
                    session: session, kind: .authentication, in: db)
            else { return TakenAuthentication(ceremony: nil, credential: nil, handleOwner: nil) }
            return TakenAuthentication(
                ceremony: ceremony, credential: try CredentialRow.withID(credentialID, in: db),
                handleOwner: try userHandle.flatMap { handle in
                    try UserRow.withUserHandle(handle, in: db)
                })
        }
    }

    func credential(
        id credentialID: [UInt8], userHandle: [UInt8]?
    ) async throws(ServerError) -> (credential: CredentialRow?, handleOwner: UserRow?) {
        try await write { db in
            (
                try CredentialRow.withID(credentialID, in: db),
                try userHandle.flatMap { handle in try UserRow.withUserHandle(handle, in: db) }
            )
        }
    }

    func signIn(
        ceremony: CeremonyRow, checked: CredentialRow, updated: CredentialRecord
    ) async throws(ServerError) -> (user: UserRow, session: SessionRow) {
        try await write { db in
            guard let session = try SessionRow.current(ceremony.session, in: db) else {
                throw ServerError.noCeremony(.authentication)
            }
            let row = checked.signedIn(updating: updated)
            // Compare-and-set: only over the record the signature was checked against.
            try db.cachedStatement(
                sql: """
                    UPDATE credentials SET record = ?, sign_count = ?, last_used_at = ?
                    WHERE id = ? AND sign_count = ? AND record = ?
                    """
            ).execute(
                arguments: [
                    row.record, row.signCount, row.lastUsedAt, row.id, checked.signCount,
                    checked.record,
                ])
            guard db.changesCount == 1 else { throw ServerError.credentialChanged }
            guard let user = try UserRow.withID(row.userID, in: db) else {
                throw ServerError.corruptData("credential \(row.id)", "its user is missing")
            }
            let signedIn = try SessionRow.signIn(replacing: session, userID: row.userID, in: db)
            return (user, signedIn)
        }
    }

    func renamePasskey(
        _ credentialID: String, userID: Int64, to name: String
    ) async throws(ServerError) {
        try await write { db in
            try db.execute(
                sql: "UPDATE credentials SET name = ? WHERE id = ? AND user_id = ?",
                arguments: [name, credentialID, userID])
            guard db.changesCount == 1 else { throw ServerError.passkeyNotFound }
        }
    }

    func deletePasskey(_ credentialID: String, userID: Int64) async throws(ServerError) {
        try await write { db in
            guard let row = try CredentialRow.fetchOne(db, key: credentialID),
                row.userID == userID
            else { throw ServerError.passkeyNotFound }
            guard
                try CredentialRow.filter(CredentialRow.Columns.userID == userID).fetchCount(db)
                    > 1
            else { throw ServerError.lastPasskey }
            try row.delete(db)
        }
    }

    func endSession(_ id: String) async throws(ServerError) {
        try await write { db in try SessionRow.end(id, in: db) }
    }

    func pruneExpired() async throws(ServerError) -> Int {
        try await write { db in
            try CeremonyRow.pruneExpired(in: db) + SessionRow.pruneExpired(in: db)
        }
    }
}
