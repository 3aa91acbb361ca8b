import ArgumentParser
import Foundation

/// `fido2kit demo`: the Belvo Biometric Pix flow end to end, against an in-process stand-in.
struct DemoCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "demo",
        abstract: "Run Belvo's Biometric Pix enrollment and payment flow end to end, offline.",
        discussion: """
            Enrolls a software "iPhone" (fido2kit's authenticator, ES256, a fresh temporary \
            credential store) and authorizes a Pix payment with it, step by step as Belvo's \
            integration guide names them, then verifies the confirm and authorize bodies with \
            fido2kit's relying party (WebAuthn §7.1 and §7.2). There is no network: an \
            in-process stand-in answers with the guide's sample payloads; nothing talks to \
            Belvo. Exits 1 at the first step that fails.
            """
    )

    func run() async throws {
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
            try await BelvoDemo(storePath: directory, write: write).run()
        } catch {
            throw CommandFailure("demo failed: \(error)").exit()
        }
    }
}
