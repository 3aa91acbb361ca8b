import GRDB

/// The server's SQLite database: users, credentials, sessions, ceremony states and the
/// server's keys (``StoreSchema``).
///
/// One file, opened in WAL mode so that readers (a second server on the same file, the
/// `sqlite3` shell, a test) never block a sign-in; writes are serialized transactions that wait
/// up to five seconds for another process's lock.
struct PasskeyStore: Sendable {
    private let queue: DatabaseQueue

    /// Opens (or creates) the database at `path` and brings its schema up to date.
    ///
    /// - Throws: ``ServerError`` `storageFailure` when the file cannot be opened or migrated.
    init(path: String) throws(ServerError) {
        var configuration = Configuration()
        configuration.journalMode = .wal
        configuration.busyMode = .timeout(5)
        do {
            queue = try DatabaseQueue(path: path, configuration: configuration)
            try StoreSchema.migrator.migrate(queue)
        } catch {
            throw .storageFailure(error)
        }
    }

    /// Runs `body` in one write transaction, committed when it returns and rolled back when
    /// it throws.
    ///
    /// - Throws: ``ServerError``: `storageFailure` when the database fails; what `body` threw
    ///   otherwise, as ``ServerError/wrapping(_:)`` reads it.
    func write<Value: Sendable>(
        _ body: @escaping @Sendable (Database) throws -> Value
    ) async throws(ServerError) -> Value {
        do {
            return try await queue.write(body)
        } catch let error as DatabaseError {
            throw .storageFailure(error)
        } catch {
            throw .wrapping(error)
        }
    }
}
