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

    enum Columns {
        static let username = Column(CodingKeys.username)
        static let userHandle = Column(CodingKeys.userHandle)
    }

    mutating func didInsert(_ inserted: InsertionSuccess) {
        id = inserted.rowID
    }

    /// The account named `username`, or nil.
    static func named(_ username: String, in db: Database) throws -> UserRow? {
        try UserRow.filter(Columns.username == username).fetchOne(db)
    }

    /// The account whose user handle is `userHandle`, or nil.
    static func withUserHandle(_ userHandle: [UInt8], in db: Database) throws -> UserRow? {
        try UserRow.filter(Columns.userHandle == Data(userHandle)).fetchOne(db)
    }
}
