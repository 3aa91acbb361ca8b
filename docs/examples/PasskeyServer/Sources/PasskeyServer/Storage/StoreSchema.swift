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
        return migrator
    }
}
