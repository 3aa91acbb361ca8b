import ArgumentParser
import Fido2Authenticator
import Fido2Crypto
import Fido2Encoding
import Fido2WebAuthn
import Fido2WebAuthnWire
import Foundation

/// `fido2kit register`: the software authenticator answers creation options.
struct RegisterCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "register",
        abstract: "Create a credential: creation options JSON in, RegistrationResponseJSON out.",
        discussion: """
            Reads PublicKeyCredentialCreationOptionsJSON from --options, creates a credential in \
            the --store directory (one file per credential, mode 0600) and prints the \
            RegistrationResponseJSON on standard output. The RP ID (rp.id, else the origin's \
            host) must be the origin's host or a registrable suffix of it. When the response \
            cannot be written, the credential is removed again and the command fails.

            --attestation packed alone gives self attestation (the credential key signs). With \
            --attestation-key (a PEM PRIVATE KEY, PKCS#8) and --attestation-chain (PEM \
            CERTIFICATE blocks, the attestation certificate first, then intermediates) it gives \
            full attestation. --attestation fido-u2f takes the same two options (one \
            certificate) and makes an ES256 U2F attestation. --aaguid sets the AAGUID (match \
            the certificate's id-fido-gen-ce-aaguid extension when it has one).
            """
    )

    @Option(help: "The PublicKeyCredentialCreationOptionsJSON file (- for standard input).")
    var options: String

    @Option(help: "The caller's origin, such as https://example.org.")
    var origin: String

    @Option(help: "The credential store directory (created when missing).")
    var store: String

    @Option(help: "none, packed or fido-u2f.")
    var attestation: String = "none"

    @Option(help: "Only this algorithm: ES256, RS256, EdDSA, … or a COSE number such as -7.")
    var alg: String?

    @Option(name: .customLong("attestation-key"), help: "PEM PKCS#8 attestation private key.")
    var attestationKey: String?

    @Option(
        name: .customLong("attestation-chain"),
        help: "PEM certificates: the attestation certificate first, then intermediates.")
    var attestationChain: String?

    @Option(help: "The AAGUID to report, as a UUID (default all zeros).")
    var aaguid: String?

    @OptionGroup var storeOptions: StoreOptions

    func run() throws {
        try failingCleanly {
            var configuration = AuthenticatorConfiguration()
            if let aaguid {
                guard let value = AAGUID(uuidString: aaguid) else {
                    throw CommandFailure.usage("--aaguid \(aaguid) is not a UUID")
                }
                configuration.aaguid = value
            }
            if let alg {
                let algorithm = try AuthenticatorCLI.algorithm(alg)
                configuration.supportedAlgorithms = [algorithm]
            }
            configuration.attestation = try attestationMode()
            let optionsJSON = try InputFile.read(options, limit: .webAuthnJSON)
            let credentialStore = try storeOptions.store(store, creating: true)
            let authenticator = SoftwareAuthenticator(
                configuration: configuration, store: credentialStore)
            let response = try authenticator.makeCredential(
                optionsJSON: optionsJSON, origin: origin)
            try AuthenticatorCLI.deliver(
                response.jsonBytes() + [UInt8(ascii: "\n")], registering: response.rawId,
                in: credentialStore)
        }
    }

    private func attestationMode() throws -> AuthenticatorAttestation {
        switch attestation {
        case "none":
            guard attestationKey == nil, attestationChain == nil else {
                throw CommandFailure.usage(
                    "--attestation-key/--attestation-chain need --attestation packed")
            }
            return .none
        case "packed", "fido-u2f":
            guard let attestationKey else {
                guard attestationChain == nil else {
                    throw CommandFailure.usage("--attestation-chain needs --attestation-key")
                }
                guard attestation == "packed" else {
                    throw CommandFailure.usage(
                        "fido-u2f needs --attestation-key and --attestation-chain")
                }
                return .packedSelf
            }
            guard let attestationChain else {
                throw CommandFailure.usage("--attestation-key needs --attestation-chain")
            }
            let key = try PrivateKey(
                pemRepresentation: try InputFile.readText(attestationKey, limit: .pem))
            let chain = try AuthenticatorCLI.certificates(
                try InputFile.read(attestationChain, limit: .pem))
            guard !chain.isEmpty else {
                throw CommandFailure("\(attestationChain) holds no CERTIFICATE block")
            }
            if attestation == "fido-u2f" {
                guard chain.count == 1 else {
                    throw CommandFailure("fido-u2f carries exactly one certificate")
                }
                return .fidoU2F(attestationKey: key, certificate: chain[0])
            }
            return .packed(attestationKey: key, certificateChain: chain)
        default:
            throw CommandFailure.usage("--attestation \(attestation): use none, packed or fido-u2f")
        }
    }
}

/// Shared helpers of `register` and `assert`.
enum AuthenticatorCLI {
    /// Writes the response of a registration to standard output; when it cannot be written,
    /// removes the credential it made, so that the store holds no credential its relying party
    /// never heard of, and fails.
    ///
    /// - Throws: ``CommandFailure`` saying why the response was not written (and, should the
    ///   removal fail too, why the credential stayed).
    static func deliver(
        _ response: [UInt8], registering credentialID: [UInt8], in store: any CredentialStore
    ) throws(CommandFailure) {
        do {
            try StandardStreams.write(response)
        } catch {
            do {
                try store.remove(id: credentialID)
            } catch let removal {
                throw CommandFailure(
                    "\(error.message); the new credential stays in the store: \(removal)")
            }
            throw CommandFailure("\(error.message); the new credential was removed")
        }
    }

    /// A COSE algorithm from its JOSE name (ES256, RS256, EdDSA, …) or number.
    static func algorithm(_ text: String) throws -> COSEAlgorithm {
        if let number = Int(text) { return COSEAlgorithm(rawValue: number) }
        if let algorithm = COSEAlgorithm(joseName: text) { return algorithm }
        if text.uppercased() == "ED448" { return .ed448 }
        throw CommandFailure.usage("--alg \(text): not an algorithm name or COSE number")
    }

    /// The DER of every `CERTIFICATE` block of a PEM file, in order.
    static func certificates(_ pem: [UInt8]) throws -> [[UInt8]] {
        let text = String(decoding: pem, as: UTF8.self)
        var certificates: [[UInt8]] = []
        var body: String?
        for line in text.split(whereSeparator: \.isNewline).map({
            $0.trimmingCharacters(in: .whitespaces)
        }) {
            if line == "-----BEGIN CERTIFICATE-----" {
                body = ""
            } else if line == "-----END CERTIFICATE-----" {
                guard let content = body else {
                    throw CommandFailure("END CERTIFICATE without BEGIN")
                }
                do {
                    certificates.append(try Base64.decode(content))
                } catch {
                    throw CommandFailure("a CERTIFICATE block is not base64: \(error)")
                }
                body = nil
            } else if let content = body {
                body = content + line
            }
        }
        guard body == nil else { throw CommandFailure("a CERTIFICATE block is not closed") }
        return certificates
    }
}
