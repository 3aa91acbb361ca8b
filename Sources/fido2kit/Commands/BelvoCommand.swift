import ArgumentParser
import Fido2Authenticator
import Fido2Belvo
import Fido2BelvoDevice
import Fido2Encoding
import Fido2WebAuthn
import Fido2WebAuthnWire

/// `fido2kit belvo`: the Belvo Biometric Pix bodies a phone running the SDK would send.
struct BelvoCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "belvo",
        abstract: "Belvo Biometric Pix: write the confirm-enrollment and authorize-payment bodies.",
        discussion: """
            The software authenticator stands in for an iPhone running Belvo's BiometricPixSDK: \
            ES256 credentials, user verification, origin https://<RP ID> unless --origin says \
            otherwise. Nothing is sent anywhere: the commands print the request body for you to \
            send (or to feed to the system under test).
            """,
        subcommands: [Enroll.self, Authorize.self]
    )

    /// `fido2kit belvo enroll`.
    struct Enroll: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "enroll",
            abstract: "Registration options in, the confirm-enrollment body out.",
            discussion: """
                Reads the answer of GET /enrollments/{id}/fido-registration-options/ from \
                --fido-options (user.id a UUID, challenge base64url, the appid extension \
                ignored), creates an ES256 credential in --store and prints the body of \
                POST /enrollments/{id}/confirm/ ({"confirmation_data": {…}}). On failure, an \
                unwritable standard output included, the store is unchanged. \
                confirmation_data is the RegistrationResponseJSON: `fido2kit verify \
                registration --response BODY --challenge <the options' challenge> --origin \
                https://<rp.id> --rp-id <rp.id>` verifies the body as it is.
                """
        )

        @Option(
            name: .customLong("fido-options"),
            help: "Belvo's FIDO registration options JSON file (- for standard input).")
        var fidoOptions: String

        @Option(help: "The credential store directory (created when missing).")
        var store: String

        @OptionGroup var storeOptions: StoreOptions

        @Option(help: "The origin to report (default https://<rp.id>).")
        var origin: String?

        func run() throws {
            try failingCleanly {
                let options = try InputFile.read(fidoOptions, limit: .belvoJSON)
                let credentialStore = try storeOptions.store(store, creating: true)
                let device = BelvoDevice(store: credentialStore, origin: origin)
                let request = try device.confirmEnrollmentRequest(fidoOptions: options)
                try AuthenticatorCLI.deliver(
                    request.body + [UInt8(ascii: "\n")],
                    registering: try Base64URL.decode(request.attestation.rawId),
                    in: credentialStore)
            }
        }
    }

    /// `fido2kit belvo authorize`.
    struct Authorize: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "authorize",
            abstract: "A payment intent and risk signals in, the authorize-payment body out.",
            discussion: """
                Reads the answer of POST /payment-intents/ (or GET /payment-intents/{id}/) from \
                --payment-intent and signs its \
                payment_method_information.open_finance_biometric_pix.fido_options with the \
                credential of --store they allow; a file holding the fido_options object alone \
                (with a top-level "challenge") is accepted too. Prints the body of \
                POST /payment-intents/{id}/authorize/ ({"risk_signals": …, "assertion": …}), \
                the risk signals copied byte for byte from --risk-signals (surrounding \
                whitespace aside). On failure the store is unchanged, except that a body that \
                cannot be written leaves the counter advanced (a gap, never a repeat). \
                assertion is the AuthenticationResponseJSON: `fido2kit verify assertion \
                --response BODY …` verifies the body as it is.
                """
        )

        @Option(
            name: .customLong("payment-intent"),
            help: "The payment intent JSON file (- for standard input).")
        var paymentIntent: String

        @Option(
            name: .customLong("risk-signals"),
            help: "The risk signals JSON object file (- for standard input).")
        var riskSignals: String

        @Option(
            help: "The credential store directory (never created: it must hold the credential).")
        var store: String

        @OptionGroup var storeOptions: StoreOptions

        @Option(help: "The origin to report (default https://<rpId>).")
        var origin: String?

        func run() throws {
            try failingCleanly {
                guard !(paymentIntent == "-" && riskSignals == "-") else {
                    throw CommandFailure.usage(
                        "--payment-intent and --risk-signals cannot both be -")
                }
                let intent = try InputFile.read(paymentIntent, limit: .belvoJSON)
                // A file's trailing newline is not part of the signals; inside, every byte is kept.
                let signals = try BelvoRiskSignals(
                    json: Self.trimmed(try InputFile.read(riskSignals, limit: .belvoJSON)))
                let device = BelvoDevice(
                    store: try storeOptions.store(store, creating: false), origin: origin)
                let request: BelvoAuthorizePaymentRequest
                if Self.isBareFidoOptions(intent) {
                    request = try device.authorizePaymentRequest(
                        fidoOptions: intent, riskSignals: signals)
                } else {
                    request = try device.authorizePaymentRequest(
                        paymentIntent: try BelvoPaymentIntent(json: intent), riskSignals: signals)
                }
                try StandardStreams.write(request.body + [UInt8(ascii: "\n")])
            }
        }

        /// `bytes` without leading and trailing JSON whitespace.
        private static func trimmed(_ bytes: [UInt8]) -> ArraySlice<UInt8> {
            let isSpace = { (byte: UInt8) in
                byte == 0x20 || byte == 0x0A || byte == 0x0D || byte == 0x09
            }
            guard let first = bytes.firstIndex(where: { !isSpace($0) }),
                let last = bytes.lastIndex(where: { !isSpace($0) })
            else { return [] }
            return bytes[first...last]
        }

        /// Whether `json` is a `fido_options` object rather than a payment intent: a top-level
        /// `challenge` member, which a payment intent does not have. Repeated names are let
        /// through here so that the reader chosen refuses them with its own message; JSON that
        /// is not JSON goes to the payment intent's reader.
        private static func isBareFidoOptions(_ json: [UInt8]) -> Bool {
            let reader = JSONReader(options: JSONReader.Options(allowsDuplicateMemberNames: true))
            guard case .object(let object)? = try? reader.read(json) else { return false }
            return object.contains(name: "challenge")
        }
    }
}
