import Foundation
import GRDB

/// A row of the `ceremonies` table: the state of a ceremony in progress, kept on the server
/// between the options request and the verify request, under the session cookie's random ID.
///
/// A session has at most one state per ceremony kind; beginning again replaces it. The verify
/// request takes the state out (``take(session:kind:in:)``) before anything is verified, so a
/// state is used once whatever the outcome; expired states are refused by the library and
/// pruned here (``pruneExpired(in:)``).
struct CeremonyRow: Codable, Sendable, FetchableRecord, PersistableRecord {
    static let databaseTableName = "ceremonies"

    /// The session ID the cookie carries.
    var session: String
    /// Which ceremony the state is for.
    var ceremony: CeremonyKind
    /// The user the ceremony is for: the signed-in user a passkey is added for, or the user a
    /// sign-in by name is for; nil for a sign-up (the account does not exist yet), for a
    /// discoverable sign-in (the response names the user) and for a sign-in by an unknown name.
    var userID: Int64?
    /// A sign-up's username, for the account its first passkey creates; nil otherwise.
    var username: String?
    /// A sign-up's user handle, given to the authenticator and kept for the account.
    var userHandle: Data?
    /// The library's state in its stable JSON form (`RegistrationState` or
    /// `AuthenticationState`).
    var state: String
    /// When the state stops being accepted (the state's own `expiresAt`), in milliseconds
    /// since the Unix epoch.
    var expiresAt: Int64

    enum CodingKeys: String, CodingKey {
        case session
        case ceremony
        case userID = "user_id"
        case username
        case userHandle = "user_handle"
        case state
        case expiresAt = "expires_at"
    }

    enum Columns {
        static let session = Column(CodingKeys.session)
        static let expiresAt = Column(CodingKeys.expiresAt)
    }

    /// Keeps the row, replacing the session's state for the same ceremony if there is one.
    func put(in db: Database) throws {
        try db.cachedStatement(
            sql: """
                INSERT OR REPLACE INTO ceremonies
                    (session, ceremony, user_id, username, user_handle, state, expires_at)
                VALUES (?, ?, ?, ?, ?, ?, ?)
                """
        ).execute(arguments: [
            session, ceremony.rawValue, userID, username, userHandle, state, expiresAt,
        ])
    }

    /// Takes the session's state for `kind` out of the table: deletes it and returns it, in one
    /// statement (`DELETE … RETURNING`, SQLite 3.35 or later).
    static func take(session: String, kind: CeremonyKind, in db: Database) throws -> CeremonyRow? {
        try CeremonyRow.fetchOne(
            db.cachedStatement(
                sql: "DELETE FROM ceremonies WHERE session = ? AND ceremony = ? RETURNING *"),
            arguments: [session, kind.rawValue])
    }

    /// Deletes the states of session `session`.
    static func deleteAll(session: String, in db: Database) throws {
        try db.cachedStatement(sql: "DELETE FROM ceremonies WHERE session = ?")
            .execute(arguments: [session])
    }

    /// Deletes every state past its expiry; returns how many.
    @discardableResult
    static func pruneExpired(in db: Database) throws -> Int {
        try CeremonyRow.filter(Columns.expiresAt < ServerClock.nowMilliseconds()).deleteAll(db)
    }
}
