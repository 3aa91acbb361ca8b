import Foundation
import Hummingbird

/// The Hummingbird application: the page, the API, bound to one address.
enum PasskeyApplication {
    /// An application serving `page` and the API on `service` at `hostname`:`port`, which
    /// prints `listening` with the origin once it accepts connections.
    static func make(
        service: PasskeyService, page: PageRoutes, hostname: String, port: Int, origin: String
    ) -> some ApplicationProtocol {
        let router = Router()
        page.addRoutes(to: router)
        PasskeyAPI(service: service).addRoutes(to: router)
        return Application(
            router: router,
            configuration: ApplicationConfiguration(
                address: .hostname(hostname, port: port), serverName: "passkey-server"),
            onServerRunning: { _ in
                // Written unbuffered: `print` to a pipe or file would hold the line until exit,
                // and a script waiting for it would wait in vain.
                let line = "passkey-server: listening on \(hostname):\(port), open \(origin)/\n"
                FileHandle.standardOutput.write(Data(line.utf8))
            })
    }
}
