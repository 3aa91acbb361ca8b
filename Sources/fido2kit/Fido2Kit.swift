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
            VectorsCommand.self, BelvoCommand.self, DemoCommand.self,
        ]
    )
}
