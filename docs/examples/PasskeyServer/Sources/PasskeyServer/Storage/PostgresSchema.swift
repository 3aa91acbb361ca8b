import Foundation
import Logging
import PostgresNIO

/// The PostgreSQL schema: the tables of ``StoreSchema``'s SQLite file, in PostgreSQL's types,
/// made or migrated when an instance starts.
///
/// Instances that start together take a transaction-scoped advisory lock first
/// (`pg_advisory_xact_lock`): one migrates while the others wait, then find the schema at its
/// version and change nothing. `schema_version` records the versions applied.
enum PostgresSchema {
    /// The advisory lock's key, the same in every instance: "fido2kit" in ASCII.
    static let lockKey: Int64 = 0x6669_646F_326B_6974

    /// The migrations, oldest first: version and statements.
    static let migrations: [(version: Int32, statements: [String])] = [
        (
            1,
            [
                """
                CREATE TABLE users (
                    id BIGSERIAL PRIMARY KEY,
                    username TEXT NOT NULL UNIQUE,
                    user_handle BYTEA NOT NULL UNIQUE,
                    created_at BIGINT NOT NULL)
                """,
                """
                CREATE TABLE credentials (
                    id TEXT PRIMARY KEY,
                    user_id BIGINT NOT NULL REFERENCES users ON DELETE CASCADE,
                    record TEXT NOT NULL,
                    sign_count BIGINT NOT NULL,
                    created_at BIGINT NOT NULL,
                    last_used_at BIGINT,
                    name TEXT NOT NULL DEFAULT 'Passkey')
                """,
                "CREATE INDEX credentials_user_id ON credentials (user_id)",
                """
                CREATE TABLE ceremonies (
                    session TEXT NOT NULL,
                    ceremony TEXT NOT NULL,
                    user_id BIGINT REFERENCES users ON DELETE CASCADE,
                    username TEXT,
                    user_handle BYTEA,
                    state TEXT NOT NULL,
                    expires_at BIGINT NOT NULL,
                    PRIMARY KEY (session, ceremony))
                """,
                "CREATE INDEX ceremonies_expires_at ON ceremonies (expires_at)",
                """
                CREATE TABLE sessions (
                    id TEXT PRIMARY KEY,
                    user_id BIGINT REFERENCES users ON DELETE CASCADE,
                    created_at BIGINT NOT NULL,
                    expires_at BIGINT NOT NULL)
                """,
                "CREATE INDEX sessions_expires_at ON sessions (expires_at)",
                "CREATE TABLE server_keys (name TEXT PRIMARY KEY, key BYTEA NOT NULL)",
            ]
        )
    ]

    /// Brings the schema up to date on `connection`, which is in a transaction.
    static func migrate(on connection: PostgresConnection, logger: Logger) async throws {
        // Longer than a request's 5 s: instances started together wait here for the first one's
        // migration, and a migration may rewrite a large table.
        try await connection.query("SET LOCAL lock_timeout = '5min'", logger: logger)
        try await connection.query("SET LOCAL statement_timeout = '5min'", logger: logger)
        try await connection.query("SELECT pg_advisory_xact_lock(\(lockKey))", logger: logger)
        try await connection.query(
            "CREATE TABLE IF NOT EXISTS schema_version (version INTEGER PRIMARY KEY)",
            logger: logger)
        var applied: Int32 = 0
        let rows = try await connection.query(
            "SELECT coalesce(max(version), 0) FROM schema_version", logger: logger)
        for try await version in rows.decode(Int32.self) { applied = version }
        for migration in migrations where migration.version > applied {
            for statement in migration.statements {
                try await connection.query(PostgresQuery(unsafeSQL: statement), logger: logger)
            }
            try await connection.query(
                "INSERT INTO schema_version (version) VALUES (\(migration.version))",
                logger: logger)
        }
        // The key decoy credential IDs are derived under, one per database: the first instance
        // makes it, the others keep it.
        let key = Data(RandomBytes.make(count: 32))
        try await connection.query(
            """
            INSERT INTO server_keys (name, key) VALUES (\(ServerKey.decoyName), \(key))
            ON CONFLICT (name) DO NOTHING
            """, logger: logger)
    }
}
