import Foundation
import Hummingbird
import HummingbirdCore

/// The Hummingbird application: the page, the API, bound to one address.
enum PasskeyApplication {
    /// How the server treats connections and clients (``PasskeyServerCommand``'s options).
    struct Limits: Sendable {
        /// Requests per minute a client may make to the options routes.
        var optionsPerMinute = 60
        /// Connections open at once; beyond, the server stops accepting until one closes.
        var maximumConnections = 1000
        /// Seconds a connection may be idle (Hummingbird's own time-out).
        var idleTimeout = 30
        /// Seconds a whole request, head and body, may take to arrive (``ConnectionGuard``).
        var requestTimeout = 10
    }

    /// An application serving `page`, the `/.well-known/webauthn` document `wellKnown` and
    /// the API on `service` at `hostname`:`port`, which
    /// prints `listening` with the origin once it accepts connections.
    static func make(
        service: PasskeyService, page: PageRoutes, wellKnown: [UInt8], hostname: String,
        port: Int, origin: String, limits: Limits
    ) -> some ApplicationProtocol {
        let router = Router(context: PasskeyRequestContext.self)
        router.add(middleware: JSONContentTypeMiddleware())
        page.addRoutes(to: router)
        WellKnownRoutes(document: wellKnown).addRoutes(to: router)
        PasskeyAPI(
            service: service, rateLimiter: RateLimiter(perMinute: limits.optionsPerMinute),
            secureCookies: origin.hasPrefix("https://")
        ).addRoutes(to: router)
        return Application(
            router: router,
            server: .http1(
                configuration: HTTP1Channel.Configuration(
                    additionalChannelHandlers: [
                        ConnectionGuard(requestTimeout: .seconds(Int64(limits.requestTimeout)))
                    ],
                    idleTimeout: .seconds(Int64(limits.idleTimeout)))),
            configuration: ApplicationConfiguration(
                address: .hostname(hostname, port: port), serverName: "passkey-server",
                availableConnectionsDelegate: MaximumAvailableConnections(
                    limits.maximumConnections)),
            onServerRunning: { _ in
                // Written unbuffered: `print` to a pipe or file would hold the line until exit,
                // and a script waiting for it would wait in vain.
                let line = "passkey-server: listening on \(hostname):\(port), open \(origin)/\n"
                FileHandle.standardOutput.write(Data(line.utf8))
            })
    }
}
