import ArgumentParser
import Fido2Authenticator
import Fido2WebAuthn
import Fido2WebAuthnWire

/// `fido2kit assert`: the software authenticator answers request options.
struct AssertCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "assert",
        abstract: "Make an assertion: request options JSON in, AuthenticationResponseJSON out.",
        discussion: """
            Reads PublicKeyCredentialRequestOptionsJSON from --options, signs with the first \
            credential of allowCredentials held in --store for the RP ID (rpId, else the \
            origin's host), or with an empty list the first discoverable one, saves its new \
            signature counter and prints the AuthenticationResponseJSON on standard output. \
            The counter is saved before the response is printed: when the response cannot be \
            written, the command fails and the counter keeps its new value (a gap a relying \
            party accepts, never a repeat).
            """
    )

    @Option(help: "The PublicKeyCredentialRequestOptionsJSON file (- for standard input).")
    var options: String

    @Option(help: "The caller's origin, such as https://example.org.")
    var origin: String

    @Option(help: "The credential store directory (never created: it must hold the credential).")
    var store: String

    @OptionGroup var storeOptions: StoreOptions

    func run() throws {
        try failingCleanly {
            let authenticator = SoftwareAuthenticator(
                store: try storeOptions.store(store, creating: false))
            let response = try authenticator.getAssertion(
                optionsJSON: try InputFile.read(options, limit: .webAuthnJSON), origin: origin)
            try StandardStreams.write(response.jsonBytes() + [UInt8(ascii: "\n")])
        }
    }
}
