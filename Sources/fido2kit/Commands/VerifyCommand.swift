import ArgumentParser
import Fido2CBOR
import Fido2Crypto
import Fido2Encoding
import Fido2WebAuthn
import Fido2WebAuthnWire
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
                "The response JSON file (RegistrationResponseJSON or AuthenticationResponseJSON, or the body `belvo enroll` or `belvo authorize` writes); - for standard input."
        )
        var response: String

        @Option(
            parsing: .unconditional,
            help:
                "The challenge sent in the options, unpadded base64url (it may begin with -: the next argument is always taken). Or --state."
        )
        var challenge: String?

        @Option(
            help:
                "The ceremony state `fido2kit options … --state-out` wrote: its challenge, RP ID and user verification stand in for --challenge, --rp-id and --require-uv (and, for a registration, its algorithms for --allow-algorithm), and it must not have expired."
        )
        var state: String?

        @Option(
            name: .customLong("origin"),
            help:
                "An origin the ceremony may come from (https://… or android:apk-key-hash:…); repeatable."
        )
        var origins: [String]

        @Option(
            name: .customLong("rp-id"),
            help:
                "An RP ID the credential may be scoped to; repeatable (default with --state: its RP ID)."
        )
        var rpIDs: [String] = []

        @Flag(name: .customLong("require-uv"), help: "Require user verification (the UV flag).")
        var requireUV = false

        @Flag(
            help:
                "Read to the letter of CTAP2 and WebAuthn (the strict profile): CTAP2 canonical CBOR, DER certificates, basicConstraints where §8 names it. Without it, the compatible profile accepts what deployed relying parties accept and reports each deviation."
        )
        var strict = false

        @Option(
            name: .customLong("relax"),
            help: ArgumentHelp(
                "A relaxation to accept (repeatable): "
                    + VerificationRelaxations.named.map(\.name).joined(separator: ", ") + ".",
                discussion: VerificationRelaxations.named.map { "\($0.name): \($0.summary)" }
                    .joined(separator: "\n"), valueName: "name"))
        var relaxations: [String] = []

        /// The relying party these options describe, trusting `trustPolicy`; its RP IDs are
        /// those of `--rp-id`, else `stateRelyingPartyID` (the state's).
        func relyingParty(
            trustPolicy: AttestationTrustPolicy = AttestationTrustPolicy(),
            stateRelyingPartyID: String? = nil
        ) throws -> RelyingParty {
            guard !origins.isEmpty else { throw CommandFailure.usage("--origin is required") }
            let rpIDs = self.rpIDs.isEmpty ? stateRelyingPartyID.map { [$0] } ?? [] : self.rpIDs
            guard !rpIDs.isEmpty else { throw CommandFailure.usage("--rp-id is required") }
            var named: VerificationRelaxations = []
            for name in relaxations {
                guard let relaxation = VerificationRelaxations(name: name) else {
                    throw CommandFailure.usage(
                        "--relax \(name) is not a relaxation ("
                            + VerificationRelaxations.named.map(\.name).joined(separator: ", ")
                            + ")")
                }
                named.insert(relaxation)
            }
            return RelyingParty(
                identifiers: rpIDs, origins: OriginPolicy(allowedOrigins: origins),
                trustPolicy: trustPolicy, profile: strict ? .strict : .compatible,
                relaxations: named)
        }

        /// The response file's bytes, or, when the file is a Belvo request body, the bytes of
        /// the WebAuthn response it carries in its member `belvoMember` (`confirmation_data`
        /// of `belvo enroll`'s body, `assertion` of `belvo authorize`'s).
        ///
        /// A body is told from a response by its members: an object with `belvoMember` (an
        /// object) and none of a response's `id`, `rawId` and `response`. The member is
        /// serialized again (members in order, numbers as written, strings as `JSON.stringify`
        /// escapes them), which keeps every base64url value byte for byte. Anything else,
        /// JSON that does not parse included, is the response itself, for the WebAuthn reader
        /// to judge.
        func responseBytes(belvoMember: String) throws -> [UInt8] {
            let bytes = try InputFile.read(response, limit: .webAuthnJSON)
            guard case .object(let body)? = try? JSONReader().read(bytes),
                !body.contains(name: "id"), !body.contains(name: "rawId"),
                !body.contains(name: "response"),
                case .object(let carried)? = body[belvoMember]
            else { return bytes }
            return JSONValue.object(carried).serialized()
        }

        /// The challenge's bytes.
        func challengeBytes() throws -> [UInt8] {
            guard let challenge else { throw CommandFailure.usage("give --challenge or --state") }
            return try Base64URLOption.decode(challenge, option: "--challenge")
        }

        /// Refuses `--challenge` with `--state`, or neither.
        func validate() throws {
            switch (challenge, state) {
            case (nil, nil): throw ValidationError("give --challenge or --state")
            case (.some, .some):
                throw ValidationError("give --challenge or --state, not both: the state has one")
            default: break
            }
            if state != nil, requireUV {
                throw ValidationError("--require-uv comes from --state: leave it out")
            }
        }

        /// The state of `--state`, read as `State`.
        ///
        /// - Throws: ``CommandFailure`` naming the file and what is wrong with it.
        func readState<State: WebAuthnJSONForm>(_: State.Type, path: String) throws -> State {
            let bytes = try InputFile.read(path, limit: .webAuthnJSON)
            do {
                return try State(jsonBytes: bytes)
            } catch {
                throw CommandFailure("--state \(path): \(error)")
            }
        }
    }

    /// Writes the deviations a relying party tolerated as a JSON array of strings.
    static func write(_ deviations: [ToleratedDeviation], to writer: inout JSONWriter) {
        writer.name("deviations")
        writer.beginArray()
        for deviation in deviations { writer.string(deviation.description) }
        writer.endArray()
    }

    /// `fido2kit verify registration`.
    struct Registration: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "registration",
            abstract: "Verify a registration response.",
            discussion: """
                Runs every step of WebAuthn Level 3 §7.1 (user presence required, any \
                algorithm fido2kit verifies except RS1 and ES256K unless --allow-algorithm adds \
                them, every \
                attestation type) and prints {credentialId, publicKey (COSE, base64url), alg, \
                signCount, fmt, attestationType, aaguid, trustPath, attestationTrust, deviations}. By default the \
                compatible profile reads what deployed relying parties accept (CBOR map keys in \
                any order, indefinite lengths, certificates as OpenSSL reads them, a missing \
                basicConstraints as an end-entity certificate) and lists each deviation it \
                tolerated in "deviations"; --strict reads CTAP2 and WebAuthn to the letter. \
                The trust anchors apply to every attestation format; without any, every \
                signature and rule of the statement is still checked and trustPath is \
                "notEvaluated". trustPath is "verified" when the chain leads to an anchor and \
                "notApplicable" for none and self attestation. attestationTrust is the \
                verdict: "verified-caller" (a --trust-anchor), "verified-well-known-root", \
                "verified-metadata", "self", "none" or "unverified" (a chain that reached no \
                anchor: attestationType is then only what the statement claims). With --crl, the chain is also \
                checked for revocation against the CRLs given (every certificate but the \
                anchor, or the attestation certificate alone with --revocation-scope leaf); a \
                certificate without a current CRL from its issuer fails. With --mds, the \
                authenticator's metadata entries (by AAGUID and by the attestation certificate \
                key identifiers of the chain) are found, the AAGUID's entry supplies the \
                roots instead of --trust-anchor, a refused status (REVOKED, a compromise) in \
                any matching entry fails naming it, an unlisted \
                authenticator fails unless --mds-permissive, and "metadata" gives the entry's \
                {description, status, certificationLevel}. A failure prints one \
                line naming the step (and the --relax name or flag that would accept it, when \
                one would) and exits 1.
                """
        )

        /// How much of the chain `--crl` checks.
        enum RevocationScope: String, ExpressibleByArgument, CaseIterable {
            case leaf, chain
        }

        @OptionGroup var ceremony: Ceremony

        @Option(
            name: .customLong("trust-anchor"),
            help: ArgumentHelp(
                "A PEM file of trusted attestation certificates (roots or intermediates), trusted for every format; or well-known (every root fido2kit ships, each for its formats); or well-known:NAME (one of them, for every format); repeatable.",
                discussion: "Shipped roots: "
                    + WellKnownAttestationRoots.all.map(\.name).joined(separator: "; ") + "."))
        var trustAnchors: [String] = []

        @Option(
            help:
                "Judge certificates at this time instead of now: any ISO 8601 / RFC 3339 date-time (2025-01-08T00:00:00Z, 2025-01-08T00:00:00.5+01:00; no offset means UTC)."
        )
        var at: String?

        @Option(
            name: .customLong("allow-algorithm"),
            help:
                "A COSE algorithm to accept besides the default set, by name (RS1) or number (-65535); repeatable."
        )
        var allowedAlgorithms: [String] = []

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

        @Option(
            help:
                "A FIDO metadata BLOB (MDS3, JWS compact form) to take attestation trust from: the authenticator's entry gives the roots its chain must lead to, and its status reports decide (REVOKED and the compromise statuses are refused). Verified at --at like the chain."
        )
        var mds: String?

        @Option(
            name: .customLong("mds-root"),
            help:
                "A PEM file of the root the --mds BLOB's chain must lead to (default: fido2kit's shipped GlobalSign Root CA - R3)."
        )
        var mdsRoot: String?

        @Flag(
            name: .customLong("mds-permissive"),
            help:
                "With --mds: an authenticator the BLOB does not list is judged against --trust-anchor (trustPath notEvaluated without) instead of failing."
        )
        var mdsPermissive = false

        func validate() throws {
            if ceremony.state != nil, !allowedAlgorithms.isEmpty {
                throw ValidationError(
                    "--allow-algorithm: the algorithms come from --state (those the options offered)"
                )
            }
        }

        func run() throws {
            try failingCleanly {
                let result: VerifiedRegistration
                if let path = ceremony.state {
                    let state = try ceremony.readState(RegistrationState.self, path: path)
                    let relyingParty = try ceremony.relyingParty(
                        trustPolicy: try trustPolicy(),
                        stateRelyingPartyID: state.relyingPartyID)
                    result = try relyingParty.verifyRegistration(
                        responseBytes: try ceremony.responseBytes(
                            belvoMember: "confirmation_data"), state: state)
                } else {
                    let relyingParty = try ceremony.relyingParty(trustPolicy: try trustPolicy())
                    result = try relyingParty.verifyRegistration(
                        jsonBytes: try ceremony.responseBytes(belvoMember: "confirmation_data"),
                        expecting: RegistrationExpectations(
                            challenge: try ceremony.challengeBytes(),
                            requiresUserVerification: ceremony.requireUV,
                            allowedAlgorithms: try algorithms()))
                }
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
                if mds != nil {
                    writer.name("metadata")
                    if let entry = result.metadataEntry {
                        writer.beginObject()
                        writer.name("description")
                        writer.string(entry.description)
                        writer.name("status")
                        if let status = entry.status {
                            writer.string(status.rawValue)
                        } else {
                            writer.null()
                        }
                        writer.name("certificationLevel")
                        if let level = entry.certificationLevel {
                            writer.string(level.description)
                        } else {
                            writer.null()
                        }
                        writer.endObject()
                    } else {
                        writer.null()
                    }
                }
                writer.name("attestationTrust")
                writer.string(result.attestationTrust.description)
                VerifyCommand.write(result.deviations, to: &writer)
                writer.endObject()
                StandardStreams.print(String(decoding: writer.bytes, as: UTF8.self))
            }
        }

        /// The default algorithms (every one fido2kit verifies but RS1 and ES256K), and those of
        /// `--allow-algorithm`.
        func algorithms() throws -> [COSEAlgorithm] {
            var algorithms = RegistrationExpectations.supportedAlgorithms
            for name in allowedAlgorithms {
                guard let algorithm = COSEAlgorithm(name: name) else {
                    throw CommandFailure.usage(
                        "--allow-algorithm \(name) is not a COSE algorithm name (ES256, RS1, …) or number"
                    )
                }
                if !algorithms.contains(algorithm) { algorithms.append(algorithm) }
            }
            return algorithms
        }

        /// The anchors of every `--trust-anchor` file and named root, for every format, and
        /// the shipped roots for their formats with `well-known`, at `--at`.
        func trustPolicy() throws -> AttestationTrustPolicy {
            var anchors: [Certificate] = []
            var policy = AttestationTrustPolicy(validationTime: try validationTime())
            policy.revocation = try revocation()
            if let mds {
                let blob = try MetadataInput.blob(
                    mds, rootPath: mdsRoot, validationTime: policy.validationTime)
                policy.metadata = MetadataTrustPolicy(
                    blob: blob, mode: mdsPermissive ? .permissive : .strict)
            } else if mdsRoot != nil || mdsPermissive {
                throw CommandFailure.usage("--mds-root and --mds-permissive need --mds")
            }
            for path in trustAnchors {
                if path == "well-known" {
                    policy = try policy.trustingWellKnownRoots()
                    continue
                }
                if path.hasPrefix("well-known:") {
                    let name = String(path.dropFirst("well-known:".count))
                    guard let root = WellKnownAttestationRoots.all.first(where: { $0.name == name })
                    else {
                        throw CommandFailure.usage(
                            "--trust-anchor \(path): fido2kit ships no root named \"\(name)\" ("
                                + WellKnownAttestationRoots.all.map(\.name).joined(separator: "; ")
                                + ")")
                    }
                    anchors.append(try root.certificate())
                    continue
                }
                let text = try InputFile.readText(path, limit: .pem)
                do {
                    anchors += try Certificate.certificates(pemEncoded: text)
                } catch {
                    throw CommandFailure("\(path): \(error)")
                }
            }
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
            let lists = try RevocationListInput.read(revocationLists)
            switch revocationScope {
            case .leaf: return .leaf(lists)
            case .chain: return .chain(lists)
            }
        }

        /// `--at` in seconds since the epoch.
        func validationTime() throws -> Int64? {
            guard let at else { return nil }
            guard let seconds = ISO8601Time.seconds(at) else {
                throw CommandFailure.usage(
                    "--at is not an ISO 8601 / RFC 3339 date-time (such as 2025-01-08T00:00:00Z): \(at)"
                )
            }
            return seconds
        }
    }

    /// `fido2kit verify assertion`.
    struct Assertion: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "assertion",
            abstract: "Verify an authentication response with a stored public key.",
            discussion: """
                Runs every step of WebAuthn Level 3 §7.2 and prints {credentialId, userHandle, \
                signCount, userVerified, backupState, deviations}. The credential record is the \
                response's credential with --public-key, --sign-count and, when given, \
                --user-handle: its ID is the response's rawId and its BE flag the response's, \
                since neither is an option here. With --user-handle, a userHandle in the \
                response must be that user's (§7.2 step 6). A counter that does not advance \
                while either counter is non-zero fails (§7.2 step 22) unless --relax \
                sign-count-regression. A failure prints one line naming the step and exits 1.
                """
        )

        @OptionGroup var ceremony: Ceremony

        @Option(
            name: .customLong("public-key"), parsing: .unconditional,
            help:
                "The credential public key as stored: a COSE_Key, unpadded base64url (it may begin with -)."
        )
        var publicKey: String

        @Option(
            name: .customLong("sign-count"),
            help: "The signature counter stored for the credential.")
        var signCount: UInt32

        @Option(
            name: .customLong("user-handle"), parsing: .unconditional,
            help:
                "The user handle (user.id) of the account the credential belongs to, unpadded base64url (it may begin with -): the response's userHandle, when present, must be it."
        )
        var userHandle: String?

        func run() throws {
            try failingCleanly {
                let response: AuthenticationResponseJSON
                do {
                    response = try AuthenticationResponseJSON(
                        jsonBytes: try ceremony.responseBytes(belvoMember: "assertion"))
                } catch let error as WebAuthnError {
                    throw CommandFailure("§7.2 step 3: \(error)")
                }
                let keyBytes = try Base64URLOption.decode(publicKey, option: "--public-key")
                let owner = try userHandle.map {
                    try Base64URLOption.decode($0, option: "--user-handle")
                }
                let backupEligible =
                    response.response.authenticatorData.count > 32
                    && response.response.authenticatorData[32] & 0x08 != 0
                let record = try CredentialRecord(
                    id: response.rawId, publicKeyBytes: keyBytes, signCount: signCount,
                    backupEligible: backupEligible, userHandle: owner,
                    tolerating: ceremony.strict ? [] : CBORReader.encodingChecks)
                let result: VerifiedAuthentication
                if let path = ceremony.state {
                    let state = try ceremony.readState(AuthenticationState.self, path: path)
                    result = try ceremony.relyingParty(stateRelyingPartyID: state.relyingPartyID)
                        .finishAuthentication(response, state: state, credential: record)
                } else {
                    result = try ceremony.relyingParty().verifyAuthentication(
                        response,
                        expecting: AuthenticationExpectations(
                            challenge: try ceremony.challengeBytes(), credential: record,
                            requiresUserVerification: ceremony.requireUV))
                }
                var writer = JSONWriter(reservingCapacity: 160)
                writer.beginObject()
                writer.name("credentialId")
                writer.base64URL(result.credentialId)
                writer.name("userHandle")
                if let handle = result.userHandle ?? owner {
                    writer.base64URL(handle)
                } else {
                    writer.null()
                }
                writer.name("signCount")
                writer.number(Int64(result.signCount))
                writer.name("userVerified")
                writer.bool(result.userVerified)
                writer.name("backupState")
                writer.bool(result.backupState)
                VerifyCommand.write(result.deviations, to: &writer)
                writer.endObject()
                StandardStreams.print(String(decoding: writer.bytes, as: UTF8.self))
            }
        }
    }
}
