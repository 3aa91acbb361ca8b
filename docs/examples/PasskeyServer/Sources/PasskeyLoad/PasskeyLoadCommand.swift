import ArgumentParser
import Fido2Authenticator
import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// `passkey-load`: a bounded load on passkey servers on this machine's loopback, with real keys
/// and signatures (fido2kit's ``SoftwareAuthenticator``), as browsers would send it.
///
/// It signs up `--users` accounts (options, a new P-256 credential, verify), then for each
/// level of `--clients` runs that many client threads for `--seconds`, each signing in again
/// and again as a browser does: `POST /authentication/options {"username"}`, an assertion over
/// the options, `POST /authentication/verify`. It prints sign-ins per second that got 200,
/// p50/p99/max latency of a whole sign-in, failures, and the share of the machine's CPU the
/// client itself used (its own cost on the same cores). Requests go round-robin to the
/// `--port`s given (several instances on one database). It stops by itself.
///
/// The servers need a rate limit above the load: `--options-rate-limit 1000000`.
@main
struct PasskeyLoadCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "passkey-load",
        abstract: "Signs up and signs in against passkey servers on 127.0.0.1, and measures it.")

    @Option(help: "A server's port on 127.0.0.1; repeat for several instances (round-robin).")
    var port: [Int] = []

    @Option(help: "The origin the authenticator writes into clientDataJSON (RP ID localhost).")
    var origin = "http://localhost"

    @Option(help: "Accounts signed up first, each with one passkey; sign-ins pick among them.")
    var users = 64

    @Option(help: "Concurrent clients, a comma-separated list of levels.")
    var clients = "1,8,32"

    @Option(help: "Seconds each level runs.")
    var seconds = 5.0

    @Option(help: "A label printed on each line (which server this is).")
    var label = "passkey-server"

    func validate() throws {
        guard !port.isEmpty, port.allSatisfy({ (1...65535).contains($0) }) else {
            throw ValidationError("give --port, one or more, between 1 and 65535")
        }
        guard (1...10_000).contains(users), (0.1...600).contains(seconds) else {
            throw ValidationError("--users 1...10000, --seconds 0.1...600")
        }
        guard levels.count > 0, levels.allSatisfy({ (1...256).contains($0) }) else {
            throw ValidationError("--clients: levels between 1 and 256")
        }
    }

    private var levels: [Int] { clients.split(separator: ",").compactMap { Int($0) } }

    func run() throws {
        let store = InMemoryCredentialStore()
        let authenticator = SoftwareAuthenticator(store: store)
        let run = UInt64(Date().timeIntervalSince1970 * 1000) % 1_000_000_000
        let names = (0..<users).map { "load\(run)-\($0)" }
        let ports = port.map { UInt16($0) }
        // Sign-ups: 4 threads, to make the accounts (their time is printed, not compared).
        let signUps = Level.run(clients: min(4, users), ports: ports, origin: origin, until: nil) {
            client, index in
            var made = 0
            var at = index
            while at < names.count {
                if try client.signUp(names[at], authenticator: authenticator) { made += 1 }
                at += 4
            }
            return made
        }
        FileHandle.standardError.write(
            Data(
                "\(label): \(signUps.successes) of \(users) sign-ups in \(String(format: "%.1f", signUps.wall)) s\n"
                    .utf8))
        guard signUps.successes == users else { throw ExitCode.failure }
        print(
            "server | clients | sign-ins/s | p50 ms | p99 ms | max ms | failed | client CPU % | load avg"
        )
        for level in levels {
            let deadline = Date().addingTimeInterval(seconds)
            let result = Level.run(clients: level, ports: ports, origin: origin, until: deadline) {
                client, index in
                var successes = 0
                var turn = index
                while Date() < deadline {
                    if try client.signIn(names[turn % names.count], authenticator: authenticator) {
                        successes += 1
                    }
                    turn += level
                }
                return successes
            }
            print(result.line(label: label, clients: level))
        }
    }
}
