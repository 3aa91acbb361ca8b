import Foundation
import GRDB

/// A row of the `users` table: an account, known by a unique username and, to authenticators,
/// by a random user handle.
///
/// The user handle is the `user.id` of the creation options and the `userHandle` of a
/// discoverable sign-in: random bytes, never the username, so that an authenticator learns
/// nothing about the account from it.
struct UserRow: Codable, Sendable, FetchableRecord, MutablePersistableRecord {
    static let databaseTableName = "users"

    /// How many random bytes a new user handle has (WebAuthn allows 1 to 64; 16 or more
    /// makes collisions negligible).
    static let userHandleLength = 32

    /// The row ID; nil until inserted.
    var id: Int64?
    /// The name the user types, unique among users.
    var username: String
    /// The user handle: `userHandleLength` random bytes, unique among users.
    var userHandle: Data
    /// When the account was created, in milliseconds since the Unix epoch.
    var createdAt: Int64

    enum CodingKeys: String, CodingKey {
        case id
        case username
        case userHandle = "user_handle"
        case createdAt = "created_at"
    }

    /// Reads a row by column name: the sign-in path's reads, faster than through `Decodable`.
    ///
    /// - Throws: GRDB's `RowDecodingError` when a column is missing or of another type.
    init(row: Row) throws {
        id = try row.decode(forColumn: "id")
        username = try row.decode(forColumn: "username")
        userHandle = try row.decode(forColumn: "user_handle")
        createdAt = try row.decode(forColumn: "created_at")
    }

    /// An account as stored, or a new one (`id` nil) to insert.
    init(id: Int64?, username: String, userHandle: Data, createdAt: Int64) {
        self.id = id
        self.username = username
        self.userHandle = userHandle
        self.createdAt = createdAt
    }

    enum Columns {
        static let username = Column(CodingKeys.username)
        static let userHandle = Column(CodingKeys.userHandle)
    }

    mutating func didInsert(_ inserted: InsertionSuccess) {
        id = inserted.rowID
    }

    /// The account named `username`, or nil.
    static func named(_ username: String, in db: Database) throws -> UserRow? {
        try UserRow.fetchOne(
            db.cachedStatement(sql: "SELECT * FROM users WHERE username = ?"),
            arguments: [username])
    }

    /// The account of row `id`, or nil.
    static func withID(_ id: Int64, in db: Database) throws -> UserRow? {
        try UserRow.fetchOne(
            db.cachedStatement(sql: "SELECT * FROM users WHERE id = ?"), arguments: [id])
    }

    /// The account whose user handle is `userHandle`, or nil.
    static func withUserHandle(_ userHandle: [UInt8], in db: Database) throws -> UserRow? {
        try UserRow.fetchOne(
            db.cachedStatement(sql: "SELECT * FROM users WHERE user_handle = ?"),
            arguments: [Data(userHandle)])
    }
}
