import ArgumentParser

/// The `fido2kit` command-line tool: CBOR inspection, the software authenticator, relying-party
/// verification, vector suites and the Belvo Biometric Pix adapter.
@main
struct Fido2Kit: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "fido2kit",
        abstract: "FIDO2/WebAuthn toolkit: CBOR, COSE, authenticator, relying party, vectors.",
        subcommands: [
            CBORCommand.self, RegisterCommand.self, AssertCommand.self, VerifyCommand.self,
            MDSCommand.self,
            VectorsCommand.self, BelvoCommand.self, DemoCommand.self,
        ]
    )

    /// ArgumentParser's entry point, after ``StandardStreams/prepare()`` has made the standard
    /// descriptors safe (`SIGPIPE` ignored, closed ones refilled or refused).
    static func main() async {
        StandardStreams.prepare()
        do {
            var command = try parseAsRoot()
            if var asyncCommand = command as? AsyncParsableCommand {
                try await asyncCommand.run()
            } else {
                try command.run()
            }
        } catch {
            exit(withError: error)
        }
    }
}
