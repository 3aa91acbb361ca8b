import Fido2Encoding
import Fido2WebAuthn
import GRDB

/// A row of the `sessions` table: a session the server issued, and who is signed in on it.
///
/// Session IDs come from the server only: a cookie naming no current session is replaced by a
/// new one, never adopted. Signing in (or registering) ends the session and starts a new one
/// under a fresh ID, so that an ID someone planted or saw before the sign-in is worth nothing.
struct SessionRow: Codable, Sendable, FetchableRecord, PersistableRecord {
    static let databaseTableName = "sessions"

    /// How many random bytes an ID has: 32, written as 43 base64url characters.
    static let idLength = 32
    /// How long a session without a user lasts, in milliseconds: it only holds ceremonies.
    static let anonymousLifetime: Int64 = 60 * 60 * 1000
    /// How long a signed-in session lasts, in milliseconds, from the sign-in.
    static let signedInLifetime: Int64 = 12 * 60 * 60 * 1000

    /// The session ID the cookie carries.
    var id: String
    /// The user signed in on the session; nil before a sign-in.
    var userID: Int64?
    /// When the session began, in milliseconds since the Unix epoch.
    var createdAt: Int64
    /// When the session ends, in milliseconds since the Unix epoch.
    var expiresAt: Int64

    enum CodingKeys: String, CodingKey {
        case id
        case userID = "user_id"
        case createdAt = "created_at"
        case expiresAt = "expires_at"
    }

    /// Reads a row by column name: the sign-in path's reads, faster than through `Decodable`.
    ///
    /// - Throws: GRDB's `RowDecodingError` when a column is missing or of another type.
    init(row: Row) throws {
        id = try row.decode(forColumn: "id")
        userID = try row.decode(forColumn: "user_id")
        createdAt = try row.decode(forColumn: "created_at")
        expiresAt = try row.decode(forColumn: "expires_at")
    }

    /// A session as stored.
    init(id: String, userID: Int64?, createdAt: Int64, expiresAt: Int64) {
        self.id = id
        self.userID = userID
        self.createdAt = createdAt
        self.expiresAt = expiresAt
    }

    enum Columns {
        static let id = Column(CodingKeys.id)
        static let expiresAt = Column(CodingKeys.expiresAt)
    }

    /// The current (unexpired) session whose ID is `id`, or nil.
    static func current(_ id: String?, in db: Database) throws -> SessionRow? {
        guard let id else { return nil }
        return try SessionRow.fetchOne(
            db.cachedStatement(sql: "SELECT * FROM sessions WHERE id = ? AND expires_at > ?"),
            arguments: [id, ServerClock.nowMilliseconds()])
    }

    /// The current session whose ID is `id`, or a new session without a user.
    static func currentOrNew(_ id: String?, in db: Database) throws -> SessionRow {
        if let session = try current(id, in: db) { return session }
        return try start(userID: nil, in: db)
    }

    /// A new session under a fresh random ID, signed in as `userID` when it is not nil.
    static func start(userID: Int64?, in db: Database) throws -> SessionRow {
        let now = ServerClock.nowMilliseconds()
        let session = SessionRow(
            id: Base64URL.encode(RandomBytes.make(count: idLength)), userID: userID,
            createdAt: now,
            expiresAt: now + (userID == nil ? anonymousLifetime : signedInLifetime))
        try db.cachedStatement(
            sql: "INSERT INTO sessions (id, user_id, created_at, expires_at) VALUES (?, ?, ?, ?)"
        ).execute(arguments: [session.id, session.userID, session.createdAt, session.expiresAt])
        return session
    }

    /// Ends the session `id` and its ceremonies.
    static func end(_ id: String, in db: Database) throws {
        try db.cachedStatement(sql: "DELETE FROM sessions WHERE id = ?").execute(arguments: [id])
        try CeremonyRow.deleteAll(session: id, in: db)
    }

    /// Ends `session` and starts a new one signed in as `userID`, under a fresh ID.
    static func signIn(
        replacing session: SessionRow, userID: Int64, in db: Database
    ) throws
        -> SessionRow
    {
        try end(session.id, in: db)
        return try start(userID: userID, in: db)
    }

    /// Deletes every session past its end; returns how many.
    @discardableResult
    static func pruneExpired(in db: Database) throws -> Int {
        try SessionRow.filter(Columns.expiresAt <= ServerClock.nowMilliseconds()).deleteAll(db)
    }
}
