import Foundation
import GRDB

/// A row of the `server_keys` table: a secret the server made once and keeps in the database,
/// so that every process on the file uses the same one.
struct ServerKey: Codable, Sendable, FetchableRecord, PersistableRecord {
    static let databaseTableName = "server_keys"

    /// The name of the key decoy credential IDs are derived under
    /// (``PasskeyService/decoyCredentials(for:)``).
    static let decoyName = "decoy"

    /// What the key is for.
    var name: String
    /// The key's bytes.
    var key: Data

    /// The key named `name`.
    ///
    /// - Throws: ``ServerError`` `corruptData` when there is none.
    static func named(_ name: String, in db: Database) throws -> [UInt8] {
        guard let row = try ServerKey.fetchOne(db, key: name) else {
            throw ServerError.corruptData("server_keys", "no key named \(name)")
        }
        return Array(row.key)
    }
}
