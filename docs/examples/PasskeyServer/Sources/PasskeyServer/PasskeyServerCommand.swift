import ArgumentParser
import Fido2WebAuthn
import Foundation

/// `passkey-server`: signs users up with passkeys, signs them in and lets them manage their
/// passkeys, in a browser, on fido2kit.
///
/// ```sh
/// swift run -c release --package-path docs/examples/PasskeyServer passkey-server
/// # then open http://localhost:8080
/// ```
@main
struct PasskeyServerCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "passkey-server",
        abstract: "A passkey sign-up, sign-in and account page and its JSON API, on fido2kit.",
        discussion: """
            Serves http://localhost:PORT/ (RP ID localhost; browsers treat localhost as a \
            secure context, so WebAuthn works there without TLS), or the --origin given. \
            Users, credential records, sessions and ceremony states are kept in the SQLite \
            file --database, or in PostgreSQL when --database is a postgres:// URL (several \
            instances on one database, behind a load balancer).
            """)

    /// The TCP port; the page's origin is `http://localhost:PORT` unless `--origin` says.
    @Option(help: "The TCP port to listen on; the origin is http://localhost:PORT by default.")
    var port = 8080

    /// The origins the page is reached at, when not `http://localhost:PORT`: behind a proxy
    /// that terminates TLS, `https://passkeys.example`. Repeatable: the first is the page's
    /// own (its host is the RP ID unless `--rp-id` says, and an `https` origin makes the
    /// session cookie `Secure`); the others are related origins (WebAuthn Level 3 §5.11),
    /// listed in `/.well-known/webauthn` and accepted with the one RP ID.
    @Option(
        help:
            "An origin browsers reach the page at (default http://localhost:PORT); repeat it for related origins. The first one's host is the RP ID unless --rp-id says, and https makes the cookie Secure."
    )
    var origin: [String] = []

    /// The RP ID, when not the first origin's host.
    @Option(
        name: .customLong("rp-id"),
        help: "The RP ID (default: the first --origin's host), served /.well-known/webauthn.")
    var relyingPartyID: String?

    /// The community list of provider names (`aaguid.json`), when the operator has one.
    @Option(
        help:
            "A provider-names list in the community aaguid.json format, consulted before the built-in names (display only)."
    )
    var providerNames: String?

    /// The address to bind.
    @Option(help: "The address to listen on.")
    var hostname = "127.0.0.1"

    /// The SQLite file, by default in the user's state directory, never in the repository; or
    /// a PostgreSQL URL.
    @Option(
        help:
            "The SQLite database file, created when missing (default: $XDG_STATE_HOME or ~/.local/state, fido2kit-passkey-server/passkeys.sqlite), or postgres://USER[:PASSWORD]@HOST[:PORT]/DATABASE."
    )
    var database: String?

    /// The PostgreSQL pool's size.
    @Option(help: "Connections to PostgreSQL each instance keeps at most.")
    var databaseConnections = 20

    /// The options routes' rate limit.
    @Option(help: "Requests a minute one client address may make to the options routes.")
    var optionsRateLimit = 60

    /// The connection cap.
    @Option(help: "Connections open at once; beyond, new ones wait to be accepted.")
    var maximumConnections = 1000

    /// The idle time-out.
    @Option(help: "Seconds a connection may stay idle between requests.")
    var idleTimeout = 30

    /// The request time-out.
    @Option(
        help:
            "Seconds a whole request (head and body) may take to arrive, counted from the connection's opening or its previous response; also how long a connection may wait idle for its next request."
    )
    var requestTimeout = 10

    /// How often expired ceremonies and sessions are deleted.
    @Option(help: "Seconds between two prunings of expired ceremonies and sessions.")
    var pruneInterval = 60

    /// How long a ceremony may take, in seconds (the tests shorten it to see a state expire).
    @Option(
        help: "Seconds a ceremony may take: the options' timeout, after which its state is refused."
    )
    var ceremonyTimeout = 300

    func validate() throws {
        guard (1...65535).contains(port) else {
            throw ValidationError("--port must be between 1 and 65535")
        }
        guard (1...3600).contains(ceremonyTimeout) else {
            throw ValidationError("--ceremony-timeout must be between 1 and 3600 seconds")
        }
        for (name, value) in [
            ("--options-rate-limit", optionsRateLimit),
            ("--maximum-connections", maximumConnections),
            ("--idle-timeout", idleTimeout), ("--request-timeout", requestTimeout),
            ("--prune-interval", pruneInterval), ("--database-connections", databaseConnections),
        ] where !(1...1_000_000).contains(value) {
            throw ValidationError("\(name) must be between 1 and 1000000")
        }
    }

    /// The host of `origin`, `http://` or `https://` and a host with an optional port.
    private static func relyingPartyID(of origin: String) throws -> String {
        guard let url = URL(string: origin), let scheme = url.scheme,
            ["http", "https"].contains(scheme),
            let host = url.host, !host.isEmpty, url.path.isEmpty
        else {
            throw ValidationError("--origin must be http(s)://HOST[:PORT], not \(origin)")
        }
        return host
    }

    /// `--database`, or the default file in the user's state directory (created).
    private func databasePath() throws -> String {
        if let database { return database }
        let environment = ProcessInfo.processInfo.environment
        let state =
            environment["XDG_STATE_HOME"].flatMap { $0.isEmpty ? nil : $0 }
            ?? (NSHomeDirectory() + "/.local/state")
        let directory = state + "/fido2kit-passkey-server"
        try FileManager.default.createDirectory(
            atPath: directory, withIntermediateDirectories: true)
        return directory + "/passkeys.sqlite"
    }

    func run() async throws {
        let origins = origin.isEmpty ? ["http://localhost:\(port)"] : origin
        let relyingParty = RelyingParty(
            id: try relyingPartyID ?? Self.relyingPartyID(of: origins[0]),
            name: "fido2kit passkeys", origins: origins)
        for other in origins.dropFirst() { _ = try Self.relyingPartyID(of: other) }
        let configuration = try RelyingPartyConfiguration(
            relyingParty: relyingParty, providerNamesFile: providerNames)
        let store: any PasskeyStorage
        var postgres: PostgresStore?
        if let database, database.hasPrefix("postgres://") || database.hasPrefix("postgresql://") {
            let pool = try PostgresStore(url: database, maximumConnections: databaseConnections)
            postgres = pool
            store = pool
        } else {
            store = try PasskeyStore(path: try databasePath())
        }
        // The pool runs while the server does; the schema is made (or found) before the first
        // request, under the database's advisory lock.
        let pool = Task { [postgres] in await postgres?.run() }
        defer { pool.cancel() }
        try await postgres?.migrate()
        let service = PasskeyService(
            relyingParty: relyingParty, store: store, providerNames: configuration.providerNames,
            ceremonyTimeout: UInt32(ceremonyTimeout) * 1000,
            decoyKey: try await store.serverKey(named: ServerKey.decoyName))
        let limits = PasskeyApplication.Limits(
            optionsPerMinute: optionsRateLimit, maximumConnections: maximumConnections,
            idleTimeout: idleTimeout, requestTimeout: requestTimeout)
        let application = PasskeyApplication.make(
            service: service, page: try PageRoutes(),
            wellKnown: configuration.relatedOriginsDocument, hostname: hostname, port: port,
            origin: origins[0], limits: limits)
        // Expired ceremonies (with them, sign-ups never finished) and sessions go on a timer,
        // not on requests, so that the tables stay bounded whatever the traffic.
        let interval = pruneInterval
        let pruning = Task {
            while !Task.isCancelled {
                do {
                    try await Task.sleep(for: .seconds(interval))
                } catch {
                    return  // cancelled: the server is stopping
                }
                do {
                    try await service.prune()
                } catch {
                    FileHandle.standardError.write(Data("passkey-server: pruning: \(error)\n".utf8))
                }
            }
        }
        defer { pruning.cancel() }
        try await application.runService()
    }
}
