import Fido2Encoding
import Fido2WebAuthn
import Foundation
import GRDB

/// A row of the `credentials` table: one registered credential, the user it belongs to and its
/// credential record in the record's own stable JSON form (`CredentialRecord.jsonBytes()`).
///
/// The sign count is a column of its own beside the record, so that the database shows how
/// often a credential was used; the record's `signCount` is the one verification reads, and
/// both are written together.
struct CredentialRow: Codable, Sendable, FetchableRecord, PersistableRecord {
    static let databaseTableName = "credentials"

    /// The credential ID, base64url without padding (as `credentialId` in the API).
    var id: String
    /// The `users` row the credential belongs to.
    var userID: Int64
    /// The credential record's JSON form.
    var record: String
    /// The signature counter last seen (the record's `signCount`).
    var signCount: Int64
    /// When the credential was registered, in milliseconds since the Unix epoch.
    var createdAt: Int64
    /// The name the user gave the passkey (``PasskeyName``).
    var name: String
    /// When the credential last signed in, in milliseconds since the Unix epoch; nil before
    /// its first sign-in.
    var lastUsedAt: Int64?

    enum CodingKeys: String, CodingKey {
        case id
        case userID = "user_id"
        case record
        case signCount = "sign_count"
        case createdAt = "created_at"
        case lastUsedAt = "last_used_at"
        case name
    }

    enum Columns {
        static let userID = Column(CodingKeys.userID)
    }

    /// A row as stored.
    init(
        id: String, userID: Int64, record: String, signCount: Int64, createdAt: Int64,
        name: String, lastUsedAt: Int64?
    ) {
        self.id = id
        self.userID = userID
        self.record = record
        self.signCount = signCount
        self.createdAt = createdAt
        self.name = name
        self.lastUsedAt = lastUsedAt
    }

    /// Reads a row by column name: the sign-in path's reads, faster than through `Decodable`.
    ///
    /// - Throws: GRDB's `RowDecodingError` when a column is missing or of another type.
    init(row: Row) throws {
        id = try row.decode(forColumn: "id")
        userID = try row.decode(forColumn: "user_id")
        record = try row.decode(forColumn: "record")
        signCount = try row.decode(forColumn: "sign_count")
        createdAt = try row.decode(forColumn: "created_at")
        name = try row.decode(forColumn: "name")
        lastUsedAt = try row.decode(forColumn: "last_used_at")
    }

    /// A new row for `record`, registered now by the user of row `userID`, named `name`.
    init(record: CredentialRecord, userID: Int64, name: String) {
        self.name = name
        self.id = Base64URL.encode(record.id)
        self.userID = userID
        self.record = String(decoding: record.jsonBytes(), as: UTF8.self)
        self.signCount = Int64(record.signCount)
        self.createdAt = ServerClock.nowMilliseconds()
        self.lastUsedAt = nil
    }

    /// The stored credential record.
    ///
    /// - Throws: ``ServerError`` `corruptData` when the stored JSON is not a credential record.
    func credentialRecord() throws(ServerError) -> CredentialRecord {
        do {
            return try CredentialRecord(jsonBytes: Array(record.utf8))
        } catch {
            throw .corruptData("the record of credential \(id)", error)
        }
    }

    /// The row after a sign-in that moved the record on to `updated`.
    func signedIn(updating updated: CredentialRecord) -> CredentialRow {
        var row = self
        row.record = String(decoding: updated.jsonBytes(), as: UTF8.self)
        row.signCount = Int64(updated.signCount)
        row.lastUsedAt = ServerClock.nowMilliseconds()
        return row
    }

    /// The credential whose ID is `credentialID`, or nil.
    static func withID(_ credentialID: [UInt8], in db: Database) throws -> CredentialRow? {
        try CredentialRow.fetchOne(
            db.cachedStatement(sql: "SELECT * FROM credentials WHERE id = ?"),
            arguments: [Base64URL.encode(credentialID)])
    }

    /// The credential rows of the user of row `userID`, oldest first (by credential ID within one
    /// millisecond, as the PostgreSQL store orders them).
    static func rows(ofUser userID: Int64, in db: Database) throws -> [CredentialRow] {
        try CredentialRow.fetchAll(
            db.cachedStatement(
                sql: "SELECT * FROM credentials WHERE user_id = ? ORDER BY created_at, id"),
            arguments: [userID])
    }

    /// The credential records of the user of row `userID`, in the order of
    /// ``rows(ofUser:in:)``.
    static func records(ofUser userID: Int64, in db: Database) throws -> [CredentialRecord] {
        try rows(ofUser: userID, in: db).map { try $0.credentialRecord() }
    }
}
