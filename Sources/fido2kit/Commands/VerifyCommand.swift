import ArgumentParser
import Fido2Crypto
import Fido2Encoding
import Fido2WebAuthn
import Foundation

/// `fido2kit verify`: relying-party verification of registration and authentication responses.
struct VerifyCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "verify",
        abstract: "Verify WebAuthn responses as a relying party (WebAuthn Level 3 §7.1, §7.2).",
        subcommands: [Registration.self, Assertion.self]
    )

    /// The options both ceremonies share.
    struct Ceremony: ParsableArguments {
        @Option(
            help:
                "The response JSON file (RegistrationResponseJSON or AuthenticationResponseJSON); - for standard input."
        )
        var response: String

        @Option(
            help:
                "The challenge sent in the options, unpadded base64url (--challenge=VALUE when it starts with -)."
        )
        var challenge: String

        @Option(
            help: "The origin the ceremony must come from (https://… or android:apk-key-hash:…).")
        var origin: String

        @Option(name: .customLong("rp-id"), help: "The RP ID the credential is scoped to.")
        var rpID: String

        @Flag(name: .customLong("require-uv"), help: "Require user verification (the UV flag).")
        var requireUV = false

        /// The response file's bytes.
        func responseBytes() throws -> [UInt8] {
            try InputFile.read(response, limit: .webAuthnJSON)
        }

        /// The challenge's bytes.
        func challengeBytes() throws -> [UInt8] {
            do {
                return try Base64URL.decode(challenge)
            } catch {
                throw CommandFailure("--challenge is not base64url: \(error)")
            }
        }
    }

    /// `fido2kit verify registration`.
    struct Registration: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "registration",
            abstract: "Verify a registration response.",
            discussion: """
                Runs every step of WebAuthn Level 3 §7.1 (strict CTAP2 canonical CBOR, user \
                presence required, any algorithm fido2kit verifies except RS1, every \
                attestation type) and prints {credentialId, publicKey (COSE, base64url), alg, \
                signCount, fmt, attestationType, aaguid, trustPath}. The trust anchors apply to \
                every attestation format; without any, every signature and rule of the \
                statement is still checked and trustPath is "notEvaluated". trustPath is \
                "verified" when the chain leads to an anchor and "notApplicable" for none and \
                self attestation. With --crl, the chain is also checked for revocation against \
                the CRLs given (every certificate but the anchor, or the attestation \
                certificate alone with --revocation-scope leaf); a certificate without a \
                current CRL from its issuer fails. A failure prints one line naming the step \
                and exits 1.
                """
        )

        /// How much of the chain `--crl` checks.
        enum RevocationScope: String, ExpressibleByArgument, CaseIterable {
            case leaf, chain
        }

        @OptionGroup var ceremony: Ceremony

        @Option(
            name: .customLong("trust-anchor"),
            help:
                "A PEM file of trusted attestation certificates (roots or intermediates); repeatable."
        )
        var trustAnchors: [String] = []

        @Option(
            help:
                "Judge certificates at this time (ISO 8601, e.g. 2025-01-01T00:00:00Z) instead of now."
        )
        var at: String?

        @Option(
            name: .customLong("crl"),
            help:
                "A certificate revocation list file (PEM, possibly several blocks, or DER) of an attestation CA; repeatable. Turns revocation checking on."
        )
        var revocationLists: [String] = []

        @Option(
            name: .customLong("revocation-scope"),
            help:
                "With --crl: check every certificate but the anchor (chain) or the attestation certificate only (leaf)."
        )
        var revocationScope: RevocationScope = .chain

        func run() throws {
            try failingCleanly {
                let relyingParty = RelyingParty(
                    id: ceremony.rpID, origins: [ceremony.origin], trustPolicy: try trustPolicy())
                let result = try relyingParty.verifyRegistration(
                    jsonBytes: try ceremony.responseBytes(),
                    expecting: RegistrationExpectations(
                        challenge: try ceremony.challengeBytes(),
                        requiresUserVerification: ceremony.requireUV))
                var writer = JSONWriter(reservingCapacity: 512)
                writer.beginObject()
                writer.name("credentialId")
                writer.base64URL(result.credentialId)
                writer.name("publicKey")
                writer.base64URL(result.credentialPublicKeyBytes)
                writer.name("alg")
                writer.number(result.algorithm.rawValue)
                writer.name("signCount")
                writer.number(Int64(result.signCount))
                writer.name("fmt")
                writer.string(result.format)
                writer.name("attestationType")
                writer.string(result.attestationType.description)
                writer.name("aaguid")
                writer.string(result.aaguid.description)
                writer.name("trustPath")
                switch result.trustPath {
                case .verified: writer.string("verified")
                case .notEvaluated: writer.string("notEvaluated")
                case .notApplicable: writer.string("notApplicable")
                }
                writer.endObject()
                StandardStreams.print(String(decoding: writer.bytes, as: UTF8.self))
            }
        }

        /// The anchors of every `--trust-anchor` file, for every format, at `--at`.
        func trustPolicy() throws -> AttestationTrustPolicy {
            var anchors: [Certificate] = []
            for path in trustAnchors {
                let text = try InputFile.readText(path, limit: .pem)
                do {
                    anchors += try Certificate.certificates(pemEncoded: text)
                } catch {
                    throw CommandFailure("\(path): \(error)")
                }
            }
            var policy = AttestationTrustPolicy(validationTime: try validationTime())
            policy.revocation = try revocation()
            guard !anchors.isEmpty else { return policy }
            for format in [
                "packed", "fido-u2f", "tpm", "android-key", "android-safetynet", "apple",
            ] {
                policy = policy.trusting(anchors, for: format)
            }
            return policy
        }

        /// The CRLs of every `--crl` file, checked as `--revocation-scope` says; none without
        /// `--crl`.
        func revocation() throws -> RevocationCheck {
            guard !revocationLists.isEmpty else { return .none }
            var lists: [CertificateRevocationList] = []
            for path in revocationLists {
                let bytes = try InputFile.read(path, limit: .crl)
                do {
                    // PEM is text starting with a "-----BEGIN" line; anything else is DER.
                    let text = bytes.drop { $0 == 0x20 || $0 == 0x0A || $0 == 0x0D || $0 == 0x09 }
                    if text.starts(with: Array("-----BEGIN".utf8)) {
                        lists += try CertificateRevocationList.revocationLists(
                            pemEncoded: String(decoding: bytes, as: UTF8.self))
                    } else {
                        lists.append(try CertificateRevocationList(derEncoded: bytes))
                    }
                } catch {
                    throw CommandFailure("\(path): \(error)")
                }
            }
            switch revocationScope {
            case .leaf: return .leaf(lists)
            case .chain: return .chain(lists)
            }
        }

        /// `--at` in seconds since the epoch.
        func validationTime() throws -> Int64? {
            guard let at else { return nil }
            let formatter = ISO8601DateFormatter()
            if let date = formatter.date(from: at) {
                return Int64(date.timeIntervalSince1970)
            }
            formatter.formatOptions.insert(.withFractionalSeconds)
            guard let date = formatter.date(from: at) else {
                throw CommandFailure("--at is not an ISO 8601 time: \(at)")
            }
            return Int64(date.timeIntervalSince1970)
        }
    }

    /// `fido2kit verify assertion`.
    struct Assertion: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "assertion",
            abstract: "Verify an authentication response with a stored public key.",
            discussion: """
                Runs every step of WebAuthn Level 3 §7.2 and prints {signCount, userVerified, \
                backupState}. The credential record is the response's credential with \
                --public-key and --sign-count: its ID is the response's rawId and its BE flag \
                the response's, since neither is an option here. A counter that does not \
                advance while either counter is non-zero fails (§7.2 step 22). A failure prints \
                one line naming the step and exits 1.
                """
        )

        @OptionGroup var ceremony: Ceremony

        @Option(
            name: .customLong("public-key"),
            help:
                "The credential public key as stored: a COSE_Key, unpadded base64url (--public-key=VALUE when it starts with -)."
        )
        var publicKey: String

        @Option(
            name: .customLong("sign-count"),
            help: "The signature counter stored for the credential.")
        var signCount: UInt32

        func run() throws {
            try failingCleanly {
                let response: AuthenticationResponseJSON
                do {
                    response = try AuthenticationResponseJSON(
                        jsonBytes: try ceremony.responseBytes())
                } catch let error as WebAuthnError {
                    throw CommandFailure("§7.2 step 3: \(error)")
                }
                let keyBytes: [UInt8]
                do {
                    keyBytes = try Base64URL.decode(publicKey)
                } catch {
                    throw CommandFailure("§7.2 step 21: --public-key is not base64url: \(error)")
                }
                let backupEligible =
                    response.response.authenticatorData.count > 32
                    && response.response.authenticatorData[32] & 0x08 != 0
                let record = try CredentialRecord(
                    id: response.rawId, publicKeyBytes: keyBytes, signCount: signCount,
                    backupEligible: backupEligible)
                let result = try RelyingParty(id: ceremony.rpID, origins: [ceremony.origin])
                    .verifyAuthentication(
                        response,
                        expecting: AuthenticationExpectations(
                            challenge: try ceremony.challengeBytes(), credential: record,
                            requiresUserVerification: ceremony.requireUV,
                            rejectsSignCountRegression: true))
                var writer = JSONWriter(reservingCapacity: 96)
                writer.beginObject()
                writer.name("signCount")
                writer.number(Int64(result.signCount))
                writer.name("userVerified")
                writer.bool(result.userVerified)
                writer.name("backupState")
                writer.bool(result.backupState)
                writer.endObject()
                StandardStreams.print(String(decoding: writer.bytes, as: UTF8.self))
            }
        }
    }
}
