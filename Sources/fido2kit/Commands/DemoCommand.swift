import ArgumentParser
import Fido2Belvo
import Foundation

/// `fido2kit demo`: the Belvo Biometric Pix flow end to end, against an in-process stand-in or,
/// with `--base-url`, any server speaking Belvo's API over HTTP.
struct DemoCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "demo",
        abstract: "Run Belvo's Biometric Pix enrollment and payment flow end to end.",
        discussion: """
            Enrolls a software "iPhone" (fido2kit's authenticator, ES256, a fresh temporary \
            credential store) and authorizes a Pix payment with it, step by step as Belvo's \
            integration guide names them, then verifies the confirm and authorize bodies with \
            fido2kit's relying party (WebAuthn §7.1 and §7.2). Exits 1 at the first step that \
            fails.

            Offline by default: an in-process stand-in answers with the guide's sample \
            payloads; nothing talks to Belvo. With --base-url the same flow goes over HTTP to \
            that server (Belvo's sandbox, https://sandbox.belvo.com, or a test server) with \
            HTTP Basic (--secret-id and --secret-password, or BELVO_SECRET_ID and \
            BELVO_SECRET_PASSWORD), polling on the guide's policy on the real clock; the \
            bank's approval follows redirect_url through HTTP redirects to the callback URL, \
            unless --callback-url gives the URL the bank sent a person back to. The customer \
            and beneficiary account are the demo's unless BELVO_CUSTOMER_ID and \
            BELVO_BENEFICIARY_BANK_ACCOUNT name real ones (as Belvo's sandbox needs).
            """
    )

    @Option(
        name: .customLong("base-url"),
        help: "The API host to run the flow against over HTTP (default: offline).")
    var baseURL: String?

    @Option(
        name: .customLong("secret-id"),
        help: "The Payments API secret id (default: $BELVO_SECRET_ID).")
    var secretID: String?

    @Option(
        name: .customLong("secret-password"),
        help: "The Payments API secret password (default: $BELVO_SECRET_PASSWORD).")
    var secretPassword: String?

    @Option(
        name: .customLong("callback-url"),
        help: ArgumentHelp(
            "The URL the bank sent the payer back to, with state, code and id_token "
                + "(with --base-url; default: follow redirect_url)."))
    var callbackURL: String?

    @Option(
        name: .customLong("risk-signals"),
        help: "The risk signals JSON object file, with a deviceId (default: the demo's).")
    var riskSignals: String?

    func run() async throws {
        let server: BelvoDemoServer?
        let signals: BelvoRiskSignals?
        do throws(CommandFailure) {
            server = try makeServer()
            signals = try readRiskSignals()
        } catch {
            throw error.exit()
        }
        let directory = FileManager.default.temporaryDirectory
            .appendingPathComponent("fido2kit-demo-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: directory) }
        // A line that cannot be written ends the demo at once, without leaving its store behind.
        let write = { (line: String) in
            do throws(CommandFailure) {
                try StandardStreams.write(Array((line + "\n").utf8))
            } catch {
                try? FileManager.default.removeItem(atPath: directory)
                StandardStreams.printError("fido2kit: \(error.message)")
                Foundation.exit(1)
            }
        }
        do {
            try await BelvoDemo(
                storePath: directory, server: server, riskSignals: signals, write: write
            ).run()
        } catch {
            throw CommandFailure("demo failed: \(error)").exit()
        }
    }

    /// The HTTP server of `--base-url` with its credentials, or nil offline.
    private func makeServer() throws(CommandFailure) -> BelvoDemoServer? {
        let environment = ProcessInfo.processInfo.environment
        guard let baseURL else {
            if secretID != nil || secretPassword != nil || callbackURL != nil {
                throw CommandFailure.usage(
                    "--secret-id, --secret-password and --callback-url need --base-url")
            }
            return nil
        }
        guard let url = URL(string: baseURL), let scheme = url.scheme?.lowercased(),
            scheme == "http" || scheme == "https", url.host != nil
        else {
            throw CommandFailure.usage("--base-url \(baseURL) is not an http or https URL")
        }
        guard let id = secretID ?? environment["BELVO_SECRET_ID"], !id.isEmpty else {
            throw CommandFailure.usage("--base-url needs --secret-id (or BELVO_SECRET_ID)")
        }
        guard let password = secretPassword ?? environment["BELVO_SECRET_PASSWORD"],
            !password.isEmpty
        else {
            throw CommandFailure.usage(
                "--base-url needs --secret-password (or BELVO_SECRET_PASSWORD)")
        }
        return BelvoDemoServer(
            baseURL: url, secretID: id, secretPassword: password, callbackURL: callbackURL,
            customerID: environment["BELVO_CUSTOMER_ID"].flatMap { $0.isEmpty ? nil : $0 },
            beneficiaryBankAccount: environment["BELVO_BENEFICIARY_BANK_ACCOUNT"].flatMap {
                $0.isEmpty ? nil : $0
            })
    }

    /// `--risk-signals`' object, or nil for the demo's.
    private func readRiskSignals() throws(CommandFailure) -> BelvoRiskSignals? {
        guard let riskSignals else { return nil }
        var bytes = ArraySlice(try InputFile.read(riskSignals, limit: .belvoJSON))
        // A file's trailing newline is not part of the signals; inside, every byte is kept.
        let whitespace: Set<UInt8> = [0x20, 0x09, 0x0A, 0x0D]
        while let last = bytes.last, whitespace.contains(last) { bytes.removeLast() }
        while let first = bytes.first, whitespace.contains(first) { bytes.removeFirst() }
        do {
            return try BelvoRiskSignals(json: bytes)
        } catch {
            throw CommandFailure("--risk-signals \(riskSignals): \(error)")
        }
    }
}
