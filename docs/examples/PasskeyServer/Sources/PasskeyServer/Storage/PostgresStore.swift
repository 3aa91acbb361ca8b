import Fido2Encoding
import Fido2WebAuthn
import Foundation
import Logging
import PostgresNIO

/// The server's PostgreSQL database (`--database postgres://USER[:PASSWORD]@HOST:PORT/DB`):
/// the same tables as the SQLite file, shared by every instance of the server behind a load
/// balancer, through a pool of connections (``PostgresClient``).
///
/// Every call is one statement or one transaction; what two instances could decide at the same
/// moment is decided by the database (``PasskeyStorage``): the ceremony state is deleted and
/// returned by one `DELETE … RETURNING`, the sign-in's update is a compare-and-set on the
/// stored counter and record, and IDs and names are unique by constraint. The schema is made
/// at start under an advisory lock (``PostgresSchema``), so instances starting together do not
/// race.
///
/// The connection is not encrypted: the example runs PostgreSQL on loopback or a private
/// network; a deployment across hosts adds TLS (`PostgresClient.Configuration.tls`).
struct PostgresStore: PasskeyStorage {
    private let client: PostgresClient
    private let logger: Logger

    /// A store on the database `url` names; ``run()`` must be running for queries to go out.
    ///
    /// - Throws: ``ServerError`` `storageFailure` when `url` is not a `postgres://` URL.
    init(url: String, maximumConnections: Int = 20) throws(ServerError) {
        guard let components = URLComponents(string: url),
            ["postgres", "postgresql"].contains(components.scheme ?? ""),
            let host = components.host, !host.isEmpty,
            let user = components.user, !user.isEmpty
        else {
            throw .storageFailure(
                PostgresURLError(url: url, reason: "not postgres://USER@HOST[:PORT]/DATABASE"))
        }
        let database = components.path.hasPrefix("/") ? String(components.path.dropFirst()) : ""
        var configuration = PostgresClient.Configuration(
            host: host, port: components.port ?? 5432, username: user,
            password: components.password, database: database.isEmpty ? nil : database,
            tls: .disable)
        configuration.options.maximumConnections = maximumConnections
        // Every statement, lock wait and open transaction is bounded, as SQLite's busy time-out
        // bounds its waits: a stalled database or a held row lock fails a request (500) instead
        // of holding it, and its connection, for good. The migration sets its own, longer.
        configuration.options.additionalStartupParameters = [
            ("statement_timeout", "5s"), ("lock_timeout", "5s"),
            ("idle_in_transaction_session_timeout", "15s"),
        ]
        var logger = Logger(label: "passkey-server.postgres")
        logger.logLevel = .error
        self.logger = logger
        client = PostgresClient(configuration: configuration, backgroundLogger: logger)
    }

    /// Runs the connection pool until the task is cancelled.
    func run() async {
        await client.run()
    }

    /// Creates or migrates the schema, one instance at a time (``PostgresSchema``).
    func migrate() async throws(ServerError) {
        try await transaction { connection in
            try await PostgresSchema.migrate(on: connection, logger: logger)
        }
    }

    // MARK: PasskeyStorage

    func serverKey(named name: String) async throws(ServerError) -> [UInt8] {
        try await statement { client, logger in
            let rows = try await client.query(
                "SELECT key FROM server_keys WHERE name = \(name)", logger: logger)
            for try await key in rows.decode(Data.self) { return Array(key) }
            throw ServerError.corruptData("server_keys", "no key named \(name)")
        }
    }

    func currentOrNewSession(_ id: String?) async throws(ServerError) -> SessionRow {
        try await transaction { connection in
            if let session = try await Self.currentSession(id, on: connection, logger: logger) {
                return session
            }
            return try await Self.startSession(userID: nil, on: connection, logger: logger)
        }
    }

    func signedInUser(session: String?) async throws(ServerError) -> UserRow {
        guard let session else { throw .notSignedIn }
        let now = ServerClock.nowMilliseconds()
        let user = try await statement { client, logger in
            try await Self.firstUser(
                client.query(
                    """
                    SELECT u.id, u.username, u.user_handle, u.created_at
                    FROM sessions s JOIN users u ON u.id = s.user_id
                    WHERE s.id = \(session) AND s.expires_at > \(now)
                    """, logger: logger))
        }
        guard let user else { throw .notSignedIn }
        return user
    }

    func user(named username: String) async throws(ServerError) -> UserRow? {
        try await statement { client, logger in
            try await Self.firstUser(
                client.query(
                    "SELECT \(unescaped: Self.userColumns) FROM users WHERE username = \(username)",
                    logger: logger))
        }
    }

    func user(id: Int64) async throws(ServerError) -> UserRow? {
        try await statement { client, logger in
            try await Self.firstUser(
                client.query(
                    "SELECT \(unescaped: Self.userColumns) FROM users WHERE id = \(id)",
                    logger: logger))
        }
    }

    func credentials(ofUser userID: Int64) async throws(ServerError) -> [CredentialRow] {
        try await statement { client, logger in
            try await Self.credentialRows(
                client.query(
                    """
                    SELECT \(unescaped: Self.credentialColumns) FROM credentials
                    WHERE user_id = \(userID) ORDER BY created_at, id
                    """, logger: logger))
        }
    }

    func putCeremony(_ ceremony: CeremonyRow) async throws(ServerError) {
        try await statement { client, logger in
            try await client.query(
                """
                INSERT INTO ceremonies
                    (session, ceremony, user_id, username, user_handle, state, expires_at)
                VALUES (\(ceremony.session), \(ceremony.ceremony.rawValue), \(ceremony.userID),
                    \(ceremony.username), \(ceremony.userHandle), \(ceremony.state),
                    \(ceremony.expiresAt))
                ON CONFLICT (session, ceremony) DO UPDATE SET user_id = EXCLUDED.user_id,
                    username = EXCLUDED.username, user_handle = EXCLUDED.user_handle,
                    state = EXCLUDED.state, expires_at = EXCLUDED.expires_at
                """, logger: logger)
        }
    }

    func takeCeremony(
        session: String, kind: CeremonyKind
    ) async throws(ServerError) -> CeremonyRow? {
        try await statement { client, logger in
            let rows = try await client.query(
                """
                DELETE FROM ceremonies WHERE session = \(session) AND ceremony = \(kind.rawValue)
                RETURNING user_id, username, user_handle, state, expires_at
                """, logger: logger)
            for try await (userID, username, userHandle, state, expiresAt) in rows.decode(
                (Int64?, String?, Data?, String, Int64).self)
            {
                return CeremonyRow(
                    session: session, ceremony: kind, userID: userID, username: username,
                    userHandle: userHandle, state: state, expiresAt: expiresAt)
            }
            return nil
        }
    }

    func register(
        _ record: CredentialRecord, ceremony: CeremonyRow
    ) async throws(ServerError) -> (user: UserRow, session: SessionRow) {
        try await transaction { connection in
            guard
                let session = try await Self.lockedSession(
                    ceremony.session, on: connection, logger: logger)
            else { throw ServerError.noCeremony(.registration) }
            // §7.1 step 26, the server's part, before the account, as the SQLite store does it
            // (the same refusal on both); the primary key says it again on insert.
            let credentialID = Base64URL.encode(record.id)
            let taken = try await connection.query(
                "SELECT 1 FROM credentials WHERE id = \(credentialID)", logger: logger)
            for try await _ in taken.decode(Int32.self) { throw ServerError.credentialExists }
            let user: UserRow
            if let userID = ceremony.userID {
                // Adding a passkey: still the user signed in on this session. The user's row is
                // locked, so two passkeys added at once (two sessions) are counted one after the
                // other for their default names, as SQLite's one writer orders them.
                guard session.userID == userID,
                    let account = try await Self.firstUser(
                        connection.query(
                            """
                            SELECT \(unescaped: Self.userColumns) FROM users
                            WHERE id = \(userID) FOR UPDATE
                            """, logger: logger))
                else { throw ServerError.notSignedIn }
                user = account
            } else {
                guard let username = ceremony.username, let userHandle = ceremony.userHandle else {
                    throw ServerError.corruptData("the registration ceremony", "no username")
                }
                // The name was free at options time; a sign-up that verified first may have
                // taken it: the unique constraint decides, ON CONFLICT answers without an error.
                let now = ServerClock.nowMilliseconds()
                guard
                    let account = try await Self.firstUser(
                        connection.query(
                            """
                            INSERT INTO users (username, user_handle, created_at)
                            VALUES (\(username), \(userHandle), \(now))
                            ON CONFLICT DO NOTHING RETURNING \(unescaped: Self.userColumns)
                            """, logger: logger))
                else { throw ServerError.usernameUnavailable }
                user = account
            }
            guard let userID = user.id else { throw ServerError.corruptData("users", "no row ID") }
            let row = CredentialRow(record: record, userID: userID, name: "")
            // §7.1 step 26, the server's part: the primary key decides; a taken ID inserts
            // nothing.
            let inserted = try await connection.query(
                """
                INSERT INTO credentials (id, user_id, record, sign_count, created_at, name)
                VALUES (\(row.id), \(userID), \(row.record), \(row.signCount), \(row.createdAt),
                    'Passkey ' || (SELECT count(*) + 1 FROM credentials WHERE user_id = \(userID)))
                ON CONFLICT (id) DO NOTHING RETURNING id
                """, logger: logger)
            var stored = false
            for try await _ in inserted.decode(String.self) { stored = true }
            guard stored else { throw ServerError.credentialExists }
            let signedIn = try await Self.signIn(
                replacing: session.id, userID: userID, on: connection, logger: logger)
            return (user, signedIn)
        }
    }

    func credential(
        id credentialID: [UInt8], userHandle: [UInt8]?
    ) async throws(ServerError) -> (credential: CredentialRow?, handleOwner: UserRow?) {
        let id = Base64URL.encode(credentialID)
        let credential = try await statement { client, logger in
            try await Self.credentialRows(
                client.query(
                    "SELECT \(unescaped: Self.credentialColumns) FROM credentials WHERE id = \(id)",
                    logger: logger)
            ).first
        }
        guard let userHandle else { return (credential, nil) }
        let handle = Data(userHandle)
        let owner = try await statement { client, logger in
            try await Self.firstUser(
                client.query(
                    "SELECT \(unescaped: Self.userColumns) FROM users WHERE user_handle = \(handle)",
                    logger: logger))
        }
        return (credential, owner)
    }

    func signIn(
        ceremony: CeremonyRow, checked: CredentialRow, updated: CredentialRecord
    ) async throws(ServerError) -> (user: UserRow, session: SessionRow) {
        let row = checked.signedIn(updating: updated)
        return try await transaction { connection in
            guard
                let session = try await Self.lockedSession(
                    ceremony.session, on: connection, logger: logger)
            else { throw ServerError.noCeremony(.authentication) }
            // Compare-and-set: only over the record the signature was checked against; the
            // loser of a race is refused, not failed.
            let changed = try await connection.query(
                """
                UPDATE credentials SET record = \(row.record), sign_count = \(row.signCount),
                    last_used_at = \(row.lastUsedAt)
                WHERE id = \(row.id) AND sign_count = \(checked.signCount)
                    AND record = \(checked.record)
                RETURNING user_id
                """, logger: logger)
            var updatedRow = false
            for try await _ in changed.decode(Int64.self) { updatedRow = true }
            guard updatedRow else { throw ServerError.credentialChanged }
            guard
                let user = try await Self.firstUser(
                    connection.query(
                        "SELECT \(unescaped: Self.userColumns) FROM users WHERE id = \(row.userID)",
                        logger: logger))
            else { throw ServerError.corruptData("credential \(row.id)", "its user is missing") }
            let signedIn = try await Self.signIn(
                replacing: session.id, userID: row.userID, on: connection, logger: logger)
            return (user, signedIn)
        }
    }

    func renamePasskey(
        _ credentialID: String, userID: Int64, to name: String
    ) async throws(ServerError) {
        let renamed = try await statement { client, logger in
            let rows = try await client.query(
                """
                UPDATE credentials SET name = \(name)
                WHERE id = \(credentialID) AND user_id = \(userID) RETURNING id
                """, logger: logger)
            var renamed = false
            for try await _ in rows.decode(String.self) { renamed = true }
            return renamed
        }
        guard renamed else { throw .passkeyNotFound }
    }

    func deletePasskey(_ credentialID: String, userID: Int64) async throws(ServerError) {
        try await transaction { connection in
            // The user's rows locked, so that two deletions cannot leave none.
            let rows = try await connection.query(
                "SELECT id FROM credentials WHERE user_id = \(userID) FOR UPDATE", logger: logger)
            var ids: [String] = []
            for try await id in rows.decode(String.self) { ids.append(id) }
            guard ids.contains(credentialID) else { throw ServerError.passkeyNotFound }
            guard ids.count > 1 else { throw ServerError.lastPasskey }
            try await connection.query(
                "DELETE FROM credentials WHERE id = \(credentialID) AND user_id = \(userID)",
                logger: logger)
        }
    }

    func endSession(_ id: String) async throws(ServerError) {
        try await transaction { connection in
            try await connection.query(
                "DELETE FROM ceremonies WHERE session = \(id)", logger: logger)
            try await connection.query("DELETE FROM sessions WHERE id = \(id)", logger: logger)
        }
    }

    func pruneExpired() async throws(ServerError) -> Int {
        let now = ServerClock.nowMilliseconds()
        return try await statement { client, logger in
            let rows = try await client.query(
                """
                WITH c AS (DELETE FROM ceremonies WHERE expires_at < \(now) RETURNING 1),
                    s AS (DELETE FROM sessions WHERE expires_at <= \(now) RETURNING 1)
                SELECT (SELECT count(*) FROM c) + (SELECT count(*) FROM s)
                """, logger: logger)
            for try await count in rows.decode(Int64.self) { return Int(count) }
            return 0
        }
    }

    // MARK: Parts

    private static let userColumns = "id, username, user_handle, created_at"
    private static let credentialColumns =
        "id, user_id, record, sign_count, created_at, name, last_used_at"

    /// The first user of `rows` (``userColumns``), or nil.
    private static func firstUser(_ rows: PostgresRowSequence) async throws -> UserRow? {
        for try await (id, username, handle, createdAt) in rows.decode(
            (Int64, String, Data, Int64).self)
        {
            return UserRow(id: id, username: username, userHandle: handle, createdAt: createdAt)
        }
        return nil
    }

    /// The credential rows of `rows` (``credentialColumns``).
    private static func credentialRows(
        _ rows: PostgresRowSequence
    ) async throws
        -> [CredentialRow]
    {
        var result: [CredentialRow] = []
        for try await (id, userID, record, signCount, createdAt, name, lastUsedAt) in rows.decode(
            (String, Int64, String, Int64, Int64, String, Int64?).self)
        {
            result.append(
                CredentialRow(
                    id: id, userID: userID, record: record, signCount: signCount,
                    createdAt: createdAt, name: name, lastUsedAt: lastUsedAt))
        }
        return result
    }

    /// The current (unexpired) session `id`, or nil.
    private static func currentSession(
        _ id: String?, on connection: PostgresConnection, logger: Logger
    ) async throws -> SessionRow? {
        guard let id else { return nil }
        let now = ServerClock.nowMilliseconds()
        let rows = try await connection.query(
            """
            SELECT user_id, created_at, expires_at FROM sessions
            WHERE id = \(id) AND expires_at > \(now)
            """, logger: logger)
        return try await firstSession(id, rows)
    }

    /// ``currentSession(_:on:logger:)`` with the row locked (`FOR UPDATE`) until the
    /// transaction ends: a sign-out committed meanwhile is seen (no row), and one that comes
    /// after waits, as SQLite's one writer orders them.
    private static func lockedSession(
        _ id: String, on connection: PostgresConnection, logger: Logger
    ) async throws -> SessionRow? {
        let now = ServerClock.nowMilliseconds()
        let rows = try await connection.query(
            """
            SELECT user_id, created_at, expires_at FROM sessions
            WHERE id = \(id) AND expires_at > \(now) FOR UPDATE
            """, logger: logger)
        return try await firstSession(id, rows)
    }

    private static func firstSession(
        _ id: String, _ rows: PostgresRowSequence
    ) async throws
        -> SessionRow?
    {
        for try await (userID, createdAt, expiresAt) in rows.decode((Int64?, Int64, Int64).self) {
            return SessionRow(id: id, userID: userID, createdAt: createdAt, expiresAt: expiresAt)
        }
        return nil
    }

    /// A new session under a fresh random ID (``SessionRow/start(userID:in:)``).
    private static func startSession(
        userID: Int64?, on connection: PostgresConnection, logger: Logger
    ) async throws -> SessionRow {
        let now = ServerClock.nowMilliseconds()
        let session = SessionRow(
            id: Base64URL.encode(RandomBytes.make(count: SessionRow.idLength)), userID: userID,
            createdAt: now,
            expiresAt: now
                + (userID == nil ? SessionRow.anonymousLifetime : SessionRow.signedInLifetime))
        try await connection.query(
            """
            INSERT INTO sessions (id, user_id, created_at, expires_at)
            VALUES (\(session.id), \(session.userID), \(session.createdAt), \(session.expiresAt))
            """, logger: logger)
        return session
    }

    /// Ends session `id` and its ceremonies and starts one signed in as `userID`.
    private static func signIn(
        replacing id: String, userID: Int64, on connection: PostgresConnection, logger: Logger
    ) async throws -> SessionRow {
        try await connection.query("DELETE FROM ceremonies WHERE session = \(id)", logger: logger)
        try await connection.query("DELETE FROM sessions WHERE id = \(id)", logger: logger)
        return try await startSession(userID: userID, on: connection, logger: logger)
    }

    /// Runs `body` on the pool, outside a transaction (one statement).
    @discardableResult
    private func statement<Value: Sendable>(
        _ body: (PostgresClient, Logger) async throws -> Value
    ) async throws(ServerError) -> Value {
        do {
            return try await body(client, logger)
        } catch {
            throw Self.serverError(error)
        }
    }

    /// Runs `body` in one transaction on one connection of the pool: committed when it
    /// returns, rolled back when it throws.
    private func transaction<Value: Sendable>(
        _ body: (PostgresConnection) async throws -> Value
    ) async throws(ServerError) -> Value {
        do {
            return try await client.withTransaction(logger: logger) { connection in
                try await body(connection)
            }
        } catch let error as PostgresTransactionError {
            throw Self.serverError(error.closureError ?? error)
        } catch {
            throw Self.serverError(error)
        }
    }

    /// What the server answers for `error`: a ``ServerError`` as it is, a database error as
    /// `storageFailure`.
    private static func serverError(_ error: any Error) -> ServerError {
        switch error {
        case let error as ServerError: error
        case let error as WebAuthnError: ServerError(error)
        default: .storageFailure(error)
        }
    }
}

/// A `--database` value that is not a PostgreSQL URL.
struct PostgresURLError: Error, CustomStringConvertible {
    /// The value.
    let url: String
    /// What is wrong with it.
    let reason: String

    /// The value with its password, if any, replaced: this goes to the terminal and to logs.
    var description: String {
        guard var components = URLComponents(string: url) else {
            return "the --database value: \(reason)"
        }
        if components.password != nil { components.password = "redacted" }
        return "\(components.string ?? "the --database value"): \(reason)"
    }
}
