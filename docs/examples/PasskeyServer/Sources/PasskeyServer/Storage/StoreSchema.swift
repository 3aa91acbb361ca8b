import Foundation
import GRDB

/// The database schema, as GRDB migrations: each runs once per database file, in order, and an
/// existing file is brought up to date when the server opens it.
enum StoreSchema {
    /// The migrations, oldest first.
    static var migrator: DatabaseMigrator {
        var migrator = DatabaseMigrator()
        migrator.registerMigration("v1: users, credentials, ceremonies") { db in
            try db.create(table: UserRow.databaseTableName) { table in
                table.autoIncrementedPrimaryKey("id")
                table.column("username", .text).notNull().unique()
                table.column("user_handle", .blob).notNull().unique()
                table.column("created_at", .integer).notNull()
            }
            try db.create(table: CredentialRow.databaseTableName) { table in
                table.primaryKey("id", .text)
                table.column("user_id", .integer).notNull().indexed()
                    .references(UserRow.databaseTableName, onDelete: .cascade)
                table.column("record", .text).notNull()
                table.column("sign_count", .integer).notNull()
                table.column("created_at", .integer).notNull()
                table.column("last_used_at", .integer)
            }
            try db.create(table: CeremonyRow.databaseTableName) { table in
                table.column("session", .text).notNull()
                table.column("ceremony", .text).notNull()
                table.column("user_id", .integer)
                    .references(UserRow.databaseTableName, onDelete: .cascade)
                table.column("state", .text).notNull()
                table.column("expires_at", .integer).notNull().indexed()
                table.primaryKey(["session", "ceremony"])
            }
        }
        migrator.registerMigration("v2: accounts made at verify time, sessions, names, decoy key") {
            db in
            // Who is signed in, under which server-issued ID: in the database, so that every
            // server process on the file sees the same sessions.
            try db.create(table: SessionRow.databaseTableName) { table in
                table.primaryKey("id", .text)
                table.column("user_id", .integer).indexed()
                    .references(UserRow.databaseTableName, onDelete: .cascade)
                table.column("created_at", .integer).notNull()
                table.column("expires_at", .integer).notNull().indexed()
            }
            // A sign-up keeps its would-be account in its ceremony, not in `users`: the account
            // exists once its first passkey verifies.
            try db.alter(table: CeremonyRow.databaseTableName) { table in
                table.add(column: "username", .text)
                table.add(column: "user_handle", .blob)
            }
            try db.alter(table: CredentialRow.databaseTableName) { table in
                table.add(column: "name", .text).notNull().defaults(to: "Passkey")
            }
            // The key decoy credential IDs are derived under, one per database so that every
            // process gives the same decoys.
            try db.create(table: ServerKey.databaseTableName) { table in
                table.primaryKey("name", .text)
                table.column("key", .blob).notNull()
            }
            try ServerKey(name: ServerKey.decoyName, key: Data(RandomBytes.make(count: 32)))
                .insert(db)
            // Version 1 made a user at options time: those without a credential never finished
            // signing up.
            try db.execute(
                sql: "DELETE FROM users WHERE id NOT IN (SELECT user_id FROM credentials)")
        }
        return migrator
    }
}
