import ArgumentParser
import Fido2WebAuthn

/// `passkey-server`: registers passkeys and signs in with them, in a browser, on fido2kit.
///
/// ```sh
/// swift run -c release --package-path docs/examples/PasskeyServer passkey-server
/// # then open http://localhost:8080
/// ```
@main
struct PasskeyServerCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "passkey-server",
        abstract: "A passkey sign-in page and its JSON API, on fido2kit's relying party.",
        discussion: """
            Serves http://localhost:PORT/ (RP ID localhost; browsers treat localhost as a \
            secure context, so WebAuthn works there without TLS). Users, credential records \
            and ceremony states are kept in the SQLite file --database.
            """)

    /// The TCP port; the page's origin is `http://localhost:PORT`.
    @Option(help: "The TCP port to listen on; the origin is http://localhost:PORT.")
    var port = 8080

    /// The address to bind.
    @Option(help: "The address to listen on.")
    var hostname = "127.0.0.1"

    /// The SQLite file.
    @Option(help: "The SQLite database file, created when missing.")
    var database = "passkeys.sqlite"

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
    }

    func run() async throws {
        let origin = "http://localhost:\(port)"
        let relyingParty = RelyingParty(
            id: "localhost", name: "fido2kit passkeys", origins: [origin])
        let service = PasskeyService(
            relyingParty: relyingParty, store: try PasskeyStore(path: database),
            ceremonyTimeout: UInt32(ceremonyTimeout) * 1000)
        let application = PasskeyApplication.make(
            service: service, page: try PageRoutes(), hostname: hostname, port: port,
            origin: origin)
        try await application.runService()
    }
}
