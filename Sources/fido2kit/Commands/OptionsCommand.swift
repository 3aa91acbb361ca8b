import ArgumentParser
import Fido2Crypto
import Fido2Encoding
import Fido2WebAuthn
import Fido2WebAuthnWire

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// `fido2kit options`: the relying party's side of a ceremony's beginning, so that `register`,
/// `assert` and `verify` run on options and states no one wrote by hand.
struct OptionsCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "options",
        abstract: "Write creation or request options, and the ceremony state to verify with.",
        discussion: """
            The options go to standard output, ready for `register --options` or `assert \
            --options`; the state (the challenge, the RP ID, what the options asked for, an \
            expiry) goes to --state-out, ready for `verify registration --state` or `verify \
            assertion --state`. Each run makes a fresh random challenge.
            """,
        subcommands: [Registration.self, Authentication.self]
    )

    /// What both subcommands share.
    struct Common: ParsableArguments {
        @Option(name: .customLong("rp-id"), help: "The RP ID the options name.")
        var rpID: String

        @Option(
            name: .customLong("user-verification"),
            help: "required, preferred (default) or discouraged.")
        var userVerification: String = "preferred"

        @Option(help: "How long the ceremony may take, in milliseconds (default 300000).")
        var timeout: UInt32 = 300_000

        @Option(
            name: .customLong("state-out"),
            help:
                "Write the ceremony state (JSON, mode 0600) to this file, replacing it: `verify … --state` reads it."
        )
        var stateOut: String?

        /// A relying party for `--rp-id` (the origins do not matter to the options).
        func relyingParty(name: String? = nil) -> RelyingParty {
            RelyingParty(
                identifiers: [rpID], name: name,
                origins: OriginPolicy(allowedOrigins: ["https://" + rpID]))
        }

        /// `--user-verification`.
        func userVerificationRequirement() throws(CommandFailure) -> UserVerificationRequirement {
            let value = UserVerificationRequirement(rawValue: userVerification)
            guard [.required, .preferred, .discouraged].contains(value) else {
                throw CommandFailure.usage(
                    "--user-verification \(userVerification): use required, preferred or discouraged"
                )
            }
            return value
        }

        /// Checks the options before any work.
        func validate() throws {
            guard timeout > 0 else { throw ValidationError("--timeout must be above 0") }
            if let stateOut, stateOut == "-" {
                throw ValidationError(
                    "--state-out -: standard output carries the options; name a file")
            }
        }

        /// Writes the options to standard output and the state to `--state-out`; the state
        /// first, so that options never leave without their state.
        func deliver(options: [UInt8], state: [UInt8]) throws(CommandFailure) {
            if let stateOut { try StateFile.write(state + [UInt8(ascii: "\n")], to: stateOut) }
            try StandardStreams.write(options + [UInt8(ascii: "\n")])
        }
    }

    /// `fido2kit options registration`.
    struct Registration: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "registration",
            abstract: "Write PublicKeyCredentialCreationOptionsJSON (and the state).",
            discussion: """
                The options offer ES256, EdDSA and RS256 (or --alg), ask for a discoverable \
                credential when possible (--resident-key) and for --attestation (none by \
                default). Without --user-id the user handle is 16 random bytes.
                """
        )

        @OptionGroup var common: Common

        @Option(
            name: .customLong("rp-name"), help: "The RP name shown to users (default the RP ID).")
        var rpName: String?

        @Option(name: .customLong("user-name"), help: "The account's user name.")
        var userName: String

        @Option(
            name: .customLong("display-name"),
            help: "The account's display name (default the user name).")
        var displayName: String?

        @Option(
            name: .customLong("user-id"), parsing: .unconditional,
            help:
                "The user handle, unpadded base64url of 1 to 64 bytes (it may begin with -); default 16 random bytes."
        )
        var userID: String?

        @Option(help: "The attestation to ask for: none (default), indirect, direct or enterprise.")
        var attestation: String = "none"

        @Option(
            name: .customLong("resident-key"),
            help: "discouraged, preferred (default) or required.")
        var residentKey: String = "preferred"

        @Option(
            help: "An algorithm to offer, by name (ES256) or COSE number, in order; repeatable.")
        var alg: [String] = []

        func validate() throws {
            try common.validate()
        }

        func run() throws {
            try failingCleanly {
                var options = RegistrationOptions()
                options.userVerification = try common.userVerificationRequirement()
                options.timeout = common.timeout
                options.attestation = AttestationConveyancePreference(rawValue: attestation)
                guard [.none, .indirect, .direct, .enterprise].contains(options.attestation) else {
                    throw CommandFailure.usage(
                        "--attestation \(attestation): use none, indirect, direct or enterprise")
                }
                options.residentKey = ResidentKeyRequirement(rawValue: residentKey)
                guard [.discouraged, .preferred, .required].contains(options.residentKey) else {
                    throw CommandFailure.usage(
                        "--resident-key \(residentKey): use discouraged, preferred or required")
                }
                if !alg.isEmpty {
                    options.algorithms = []
                    for name in alg {
                        guard let algorithm = COSEAlgorithm(name: name) else {
                            throw CommandFailure.usage(
                                "--alg \(name): not an algorithm name or COSE number")
                        }
                        if !options.algorithms.contains(algorithm) {
                            options.algorithms.append(algorithm)
                        }
                    }
                }
                let handle = try userHandle()
                let pending = try common.relyingParty(name: rpName).beginRegistration(
                    user: PublicKeyCredentialUserEntityJSON(
                        id: handle, name: userName, displayName: displayName ?? userName),
                    options: options)
                try common.deliver(
                    options: pending.options.jsonBytes(), state: pending.state.jsonBytes())
            }
        }

        /// `--user-id`, or 16 random bytes.
        private func userHandle() throws -> [UInt8] {
            guard let userID else { return try SystemRandomSource().bytes(count: 16) }
            return try Base64URLOption.decode(
                userID, option: "--user-id", length: (1...64, "a user handle"))
        }
    }

    /// `fido2kit options authentication`.
    struct Authentication: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "authentication",
            abstract: "Write PublicKeyCredentialRequestOptionsJSON (and the state).",
            discussion: """
                With --credential-id, only those credentials may answer (the user is known); \
                without, any discoverable credential for the RP ID may (the response's \
                userHandle names the user).
                """
        )

        @OptionGroup var common: Common

        @Option(
            name: .customLong("credential-id"), parsing: .unconditionalSingleValue,
            help:
                "A credential ID that may answer, unpadded base64url (it may begin with -); repeatable."
        )
        var credentialIDs: [String] = []

        func validate() throws {
            try common.validate()
        }

        func run() throws {
            try failingCleanly {
                var allowed: [[UInt8]] = []
                for text in credentialIDs {
                    allowed.append(
                        try Base64URLOption.decode(
                            text, option: "--credential-id", length: (1...1023, "a credential ID")))
                }
                var options = AuthenticationOptions()
                options.userVerification = try common.userVerificationRequirement()
                options.timeout = common.timeout
                // The ceremony begins with no allowed credential (records would need keys the
                // command line does not have); the IDs are then put in the options and state.
                let begun = try common.relyingParty().beginAuthentication(options: options)
                var request = begun.options
                request.allowCredentials = allowed.map {
                    PublicKeyCredentialDescriptorJSON(id: $0)
                }
                let state = AuthenticationState(
                    challenge: begun.state.challenge, relyingPartyID: begun.state.relyingPartyID,
                    userVerification: begun.state.userVerification, allowedCredentials: allowed,
                    extensionPolicy: begun.state.extensionPolicy, expiresAt: begun.state.expiresAt)
                let pending = PendingAuthentication(options: request, state: state)
                try common.deliver(
                    options: pending.options.jsonBytes(), state: pending.state.jsonBytes())
            }
        }
    }
}

/// Writes a ceremony state file: mode 0600, replaced whole (a temporary file renamed into
/// place), never through a symbolic link.
enum StateFile {
    /// Writes `bytes` to `path`.
    ///
    /// - Throws: ``CommandFailure`` saying why the file cannot be written.
    static func write(_ bytes: [UInt8], to path: String) throws(CommandFailure) {
        var generator = SystemRandomNumberGenerator()
        let temporary = path + ".tmp-" + String(generator.next() as UInt64, radix: 16)
        let descriptor = open(
            temporary, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else {
            throw CommandFailure("cannot write \(path): \(StandardStreams.describe(errno))")
        }
        var offset = 0
        var failure: Int32?
        while offset < bytes.count {
            let written = bytes.withUnsafeBytes { buffer in
                systemWrite(
                    descriptor, buffer.baseAddress.map { $0 + offset }, buffer.count - offset)
            }
            if written < 0 {
                if errno == EINTR { continue }
                failure = errno
                break
            }
            offset += written
        }
        if failure == nil, fsync(descriptor) != 0 { failure = errno }
        if close(descriptor) != 0, failure == nil { failure = errno }
        if failure == nil, rename(temporary, path) != 0 { failure = errno }
        if let failure {
            _ = unlink(temporary)
            throw CommandFailure("cannot write \(path): \(StandardStreams.describe(failure))")
        }
    }
}

/// `write(2)`, under a name `StateFile.write` does not hide.
private func systemWrite(_ descriptor: Int32, _ bytes: UnsafeRawPointer?, _ count: Int) -> Int {
    write(descriptor, bytes, count)
}
