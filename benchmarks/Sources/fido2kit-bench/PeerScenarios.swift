import BenchmarkHarness
import Fido2Authenticator
@_spi(Fido2Internals) import Fido2Crypto
import Fido2Encoding
import Fido2WebAuthn
import Fido2WebAuthnWire
import Foundation

/// fido2kit's relying party against the WebAuthn libraries a user weighs it against (issue 24):
/// py_webauthn 3.0.1 (PyPI `webauthn`) and python-fido2 2.2.1 (PyPI `fido2`), each in a worker
/// process (`benchmarks/peers/worker.py`, one per competitor) that the harness drives over a
/// pipe inside the same interleaved rounds as fido2kit. Every competitor verifies the same
/// bytes: responses made here by fido2kit's software authenticator, and one TPM registration of
/// a real device from `../shared/vectors/real-registrations.json`. Each side parses once what its
/// API lets a relying party keep (the stored key, the challenge, the trust anchors) and parses
/// the response JSON and verifies it in full on every call. Targets: fido2kit at least 1.5x
/// faster than py_webauthn and 3x faster than python-fido2 (issue 34; issue 24's 5x was
/// below OpenSSL 3.0's floor for the x5c row). The MDS3 "verify and index"
/// scenario (MetadataScenarios, python-fido2's `fido2.mds3` alone) runs among these.
///
/// A peer batch of N verifications is one `run N` request: its time includes one pipe
/// round-trip, which the `noop` scenario measures on its own (nothing is subtracted). Each peer
/// verifies its input once at set-up (and every side must refuse the x5c registration against a
/// wrong root); a failure there leaves the scenario out with the side's message, and a missing
/// venv (`benchmarks/peers/setup.sh` makes it) leaves every peer scenario out with a line saying
/// so.
enum PeerScenarios {
    /// A peer scenario that was not measured, and why.
    struct NotRun: Error {
        let reason: String
        /// Whether a verifier failed (a real failure), rather than the peers being absent.
        let isFailure: Bool
    }

    static let libraries = ["py_webauthn", "python-fido2"]
    static let withoutPublicKeyMember = "fido2kit, response without publicKey (diagnostic)"
    static let origin = "https://example.org"
    static let relyingPartyID = "example.org"
    /// The TPM registration measured: a Surface Pro 4 (Intel TPM 2.0; an RS256 credential key, a
    /// statement signed with RS1) that fido2kit and both peers verify without settings of their
    /// own (no pinned time, no anchors).
    static let tpmCase = "reg-020"

    static let noopTitle = "WebAuthn peers: pipe round-trip (noop worker, no targets)"
    static let noneTitle = "WebAuthn peers: \"none\" registration (ES256)"
    static let packedSelfTitle = "WebAuthn peers: packed self-attestation registration (ES256)"
    static let assertionTitle = "WebAuthn peers: ES256 assertion from JSON with a stored COSE key"
    static let packedChainTitle =
        "WebAuthn peers: packed registration, x5c chain to a configured root (ES256)"
    static let tpmTitle =
        "WebAuthn peers: TPM registration (\(tpmCase), Surface Pro 4: RS256 key, RS1 statement)"
    static var builders: [(title: String, make: (Locations) throws -> Scenario)] {
        [
            (noopTitle, noop),
            (assertionTitle, assertion),
            (
                noneTitle,
                { try registration($0, attestation: .none, kind: "none", title: noneTitle) }
            ),
            (
                packedSelfTitle,
                {
                    try registration(
                        $0, attestation: .packedSelf, kind: "packed self", title: packedSelfTitle)
                }
            ),
            (
                packedChainTitle,
                packedChain
            ),
            (tpmTitle, tpm),
            (MetadataScenarios.verifyTitle, MetadataScenarios.verifyAndIndex),
        ]
    }

    /// The repository root: three folders above this file's folder.
    static var repositoryRoot: URL {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
    }

    /// `shared/NAME` beside the repository, or NAME beside FIDO2KIT_SHARED_VECTORS when that is
    /// set (`shared/mds` is the sibling of `shared/vectors`).
    static func sharedFolder(_ name: String) -> String {
        if let vectors = ProcessInfo.processInfo.environment["FIDO2KIT_SHARED_VECTORS"] {
            return URL(fileURLWithPath: vectors).deletingLastPathComponent()
                .appendingPathComponent(name).path
        }
        return repositoryRoot.deletingLastPathComponent().appendingPathComponent("shared/" + name)
            .path
    }

    /// Where the worker, its venv and the shared vectors are.
    struct Locations {
        let python: String
        let worker: String
        let sharedVectors: String
        let inputs: URL

        /// The repository root is three folders above this file; FIDO2KIT_PEERS_VENV and
        /// FIDO2KIT_SHARED_VECTORS override the venv (`.build-peers/venv`, the one CI makes) and
        /// the vectors (`../shared/vectors`).
        static func find() throws(NotRun) -> Locations {
            let root = repositoryRoot
            let environment = ProcessInfo.processInfo.environment
            let venv =
                environment["FIDO2KIT_PEERS_VENV"]
                ?? root.appendingPathComponent(".build-peers/venv").path
            let python = venv + "/bin/python"
            guard FileManager.default.isExecutableFile(atPath: python) else {
                throw NotRun(
                    reason:
                        "the WebAuthn peers were not run: no venv at \(venv) (make it with benchmarks/peers/setup.sh)",
                    isFailure: false)
            }
            let inputs = FileManager.default.temporaryDirectory.appendingPathComponent(
                "fido2kit-bench-peers-\(getpid())")
            do {
                try FileManager.default.createDirectory(
                    at: inputs, withIntermediateDirectories: true)
            } catch {
                throw NotRun(reason: "cannot create \(inputs.path): \(error)", isFailure: true)
            }
            return Locations(
                python: python,
                worker: root.appendingPathComponent("benchmarks/peers/worker.py").path,
                sharedVectors: environment["FIDO2KIT_SHARED_VECTORS"]
                    ?? root.deletingLastPathComponent().appendingPathComponent("shared/vectors")
                    .path,
                inputs: inputs)
        }
    }

    /// The scenarios whose titles contain `filter` (all without one), each measured or not run.
    static func make(
        matching filter: String?
    ) -> [(title: String, result: Result<Scenario, NotRun>)] {
        let chosen = builders.filter { builder in filter.map { builder.title.contains($0) } ?? true
        }
        guard !chosen.isEmpty else { return [] }
        let locations: Locations
        do {
            locations = try Locations.find()
        } catch {
            return chosen.map { (title: $0.title, result: .failure(error)) }
        }
        return chosen.map { builder in
            do {
                return (title: builder.title, result: .success(try builder.make(locations)))
            } catch let error as NotRun {
                return (title: builder.title, result: .failure(error))
            } catch {
                return (
                    title: builder.title,
                    result: .failure(NotRun(reason: "\(error)", isFailure: true))
                )
            }
        }
    }

    // MARK: The inputs

    /// One verification's input, as fido2kit and the worker both read it.
    struct Input {
        var response: [UInt8]
        var challenge: [UInt8]
        var origin = PeerScenarios.origin
        var relyingPartyID = PeerScenarios.relyingPartyID
        var requiresUserVerification = true
        var publicKey: [UInt8]? = nil
        var signCount: UInt32 = 0
        var root: Certificate? = nil

        /// Writes the worker's input file (see worker.py) and returns its path.
        func write(_ name: String, in locations: Locations) throws -> String {
            var spec: [String: Any] = [
                "response": String(decoding: response, as: UTF8.self),
                "challenge": Base64URL.encode(challenge), "origin": origin,
                "rpId": relyingPartyID, "requireUserVerification": requiresUserVerification,
                "signCount": Int(signCount),
                "rootPEM": try root.map { try $0.pemEncoded as Any } ?? NSNull(),
            ]
            if let publicKey { spec["publicKey"] = Base64URL.encode(publicKey) }
            let url = locations.inputs.appendingPathComponent(name + ".json")
            try JSONSerialization.data(withJSONObject: spec, options: [.sortedKeys]).write(to: url)
            return url.path
        }
    }

    static var creationOptions: PublicKeyCredentialCreationOptionsJSON {
        get throws {
            try PublicKeyCredentialCreationOptionsJSON(jsonBytes: WebAuthnScenarios.creationOptions)
        }
    }

    /// A registration by the software authenticator with `attestation`, from the creation
    /// options the other benchmarks use (ES256, UV preferred, attestation direct).
    static func register(
        _ attestation: AuthenticatorAttestation, store: InMemoryCredentialStore
    ) throws -> RegistrationResponseJSON {
        var configuration = AuthenticatorConfiguration()
        configuration.attestation = attestation
        return try SoftwareAuthenticator(configuration: configuration, store: store)
            .makeCredential(optionsJSON: WebAuthnScenarios.creationOptions, origin: origin)
    }

    // MARK: The scenarios

    static func noop(_ locations: Locations) throws -> Scenario {
        let worker = try PeerProcess(
            label: "noop worker", executable: locations.python, arguments: ["-B", locations.worker])
        let python = try worker.load(scenario: "noop", library: "-", input: "-")
        try worker.run(checked: 1)
        return Scenario(
            noopTitle,
            competitors: [
                Competitor("noop, one round-trip per batch", batch: { worker.run($0) }),
                Competitor(
                    "noop, one round-trip per call",
                    batch: { count in
                        for _ in 0..<count { _ = worker.run(1) }
                        return UInt64(count)
                    }),
            ],
            notes: [
                "The worker (\(python)) calls a function that does nothing: the first row is what "
                    + "a peer row carries per operation on top of the verification (one round-trip "
                    + "spread over a batch of about 10 ms, plus the worker's loop); the second is one "
                    + "pipe round-trip. Neither is subtracted from the peer rows."
            ])
    }

    /// A verification's input and fido2kit's verification of it.
    struct Case {
        let input: Input
        let verify: @Sendable () throws -> UInt64
    }

    /// The ES256 assertion every side verifies, and fido2kit's verification.
    static func assertionCase() throws -> Case {
        let store = InMemoryCredentialStore()
        let registration = try register(.none, store: store)
        guard
            let attested = try AttestationObject(bytes: registration.response.attestationObject)
                .authenticatorData.attestedCredentialData
        else { throw NotRun(reason: "the registration has no credential", isFailure: true) }
        let challenge = [UInt8]((0..<32).map { UInt8(truncatingIfNeeded: $0 &* 29 &+ 7) })
        let request = PublicKeyCredentialRequestOptionsJSON(
            challenge: challenge, timeout: 60000, rpId: relyingPartyID,
            allowCredentials: [PublicKeyCredentialDescriptorJSON(id: registration.rawId)],
            userVerification: .required
        ).jsonBytes()
        let response = try SoftwareAuthenticator(store: store)
            .getAssertion(optionsJSON: request, origin: origin).jsonBytes()
        let keyBytes = Array(attested.credentialPublicKeyBytes)
        let input = Input(
            response: response, challenge: challenge, publicKey: keyBytes, signCount: 0)

        let relyingParty = RelyingParty(id: relyingPartyID, origins: [origin])
        let record = try CredentialRecord(
            id: registration.rawId, publicKeyBytes: keyBytes, signCount: 0,
            backupEligible: false, userHandle: Array("user-id-001".utf8))
        let expectations = AuthenticationExpectations(
            challenge: challenge, credential: record, allowCredentials: [registration.rawId],
            requiresUserVerification: true)
        let verify: @Sendable () throws -> UInt64 = {
            UInt64(
                try relyingParty.verifyAuthentication(jsonBytes: response, expecting: expectations)
                    .signCount)
        }
        return Case(input: input, verify: verify)
    }

    static func assertion(_ locations: Locations) throws -> Scenario {
        let assertion = try assertionCase()
        let input = assertion.input
        let verify = assertion.verify
        return try scenario(
            assertionTitle,
            fido2kit: verify, peers: "assertion", input: input, locations: locations,
            notes: [
                "Every side reads the AuthenticationResponseJSON on each call and keeps the "
                    + "stored COSE key parsed (fido2kit: a CredentialRecord; python-fido2: "
                    + "AttestedCredentialData; py_webauthn takes the COSE bytes, its API has no "
                    + "parsed key). UV required, sign count 0 → 1."
            ])
    }

    /// A registration by the software authenticator with `attestation` (its chain to `root`
    /// when there is one) and fido2kit's verification of it.
    static func registrationCase(
        attestation: AuthenticatorAttestation, root: Certificate? = nil
    ) throws -> Case {
        let response = try register(attestation, store: InMemoryCredentialStore()).jsonBytes()
        let challenge = try creationOptions.challenge
        let verifier = registrationVerifier(challenge: challenge, root: root)
        return Case(
            input: Input(response: response, challenge: challenge, root: root),
            verify: { try verifier(response) })
    }

    /// fido2kit's verification of a registration response made from the creation options,
    /// with `root` as the packed trust anchor when there is one (and the chain evaluated).
    static func registrationVerifier(
        challenge: [UInt8], root: Certificate?
    ) -> @Sendable ([UInt8]) throws -> UInt64 {
        var policy = AttestationTrustPolicy()
        if let root { policy = policy.trusting([root], for: "packed") }
        let relyingParty = RelyingParty(
            id: relyingPartyID, origins: [origin], trustPolicy: policy)
        let expectations = RegistrationExpectations(
            challenge: challenge, requiresUserVerification: true, attestation: .direct)
        return { response in
            let verified = try relyingParty.verifyRegistration(
                jsonBytes: response, expecting: expectations)
            if root != nil, case .notEvaluated = verified.attestation.trustPath {
                throw NotRun(reason: "fido2kit did not evaluate the chain", isFailure: true)
            }
            return UInt64(verified.credentialId.count)
        }
    }

    static func registration(
        _ locations: Locations, attestation: AuthenticatorAttestation, kind: String,
        root: Certificate? = nil, wrongRoot: Certificate? = nil, title: String
    ) throws -> Scenario {
        let registered = try registrationCase(attestation: attestation, root: root)
        let response = registered.input.response
        let challenge = registered.input.challenge
        let input = registered.input
        let verify = registered.verify
        let verifier = registrationVerifier(challenge: challenge, root: root)
        let expectations = RegistrationExpectations(
            challenge: challenge, requiresUserVerification: true, attestation: .direct)
        // With `wrongRoot` (the root's name, another key) every side must refuse the chain.
        let refusal = wrongRoot.map { wrongRoot in
            let wrongParty = RelyingParty(
                id: relyingPartyID, origins: [origin],
                trustPolicy: AttestationTrustPolicy().trusting([wrongRoot], for: "packed"))
            let verifyWrong: @Sendable () throws -> UInt64 = {
                UInt64(
                    try wrongParty.verifyRegistration(jsonBytes: response, expecting: expectations)
                        .credentialId.count)
            }
            return Refusal(
                input: Input(response: response, challenge: challenge, root: wrongRoot),
                fido2kit: verifyWrong)
        }
        // The same response without its `publicKey` convenience member (which §7.1 does not
        // need; fido2kit checks it against the attested key): a diagnostic row, no target.
        var trimmed = try RegistrationResponseJSON(jsonBytes: response)
        trimmed.response.publicKey = nil
        let trimmedBytes = trimmed.jsonBytes()
        let verifyTrimmed: @Sendable () throws -> UInt64 = { try verifier(trimmedBytes) }
        return try scenario(
            title, fido2kit: verify, peers: "registration", input: input, locations: locations,
            diagnostics: [(withoutPublicKeyMember, verifyTrimmed)], refusal: refusal,
            notes: [
                "Every side reads the RegistrationResponseJSON and verifies client data, "
                    + "authenticator data and the \(kind) attestation statement on each call; "
                    + "UV required."
                    + (root == nil
                        ? ""
                        : " The x5c chain (leaf and intermediate) is validated to the configured "
                            + "root: fido2kit and py_webauthn with OpenSSL (validity at the current "
                            + "time included), python-fido2 with verify_x509_chain (signatures "
                            + "only). At set-up each side refused the same response against "
                            + "a root of the same name and another key."),
                "\(withoutPublicKeyMember): the same response less its publicKey member, "
                    + "verified by fido2kit alone (no target): the difference to the fido2kit "
                    + "row is the check of that member against the attested key.",
            ])
    }

    /// A packed attestation with x5c = [leaf, intermediate] under a fresh root, and a root of
    /// the same name with another key (which must be refused).
    static func chainAttestation() throws -> (
        attestation: AuthenticatorAttestation, root: Certificate, wrongRoot: Certificate
    ) {
        let notBefore: Int64 = 1_704_067_200  // 2024-01-01
        let notAfter: Int64 = 4_102_444_800  // 2100-01-01
        let rootKey = try PrivateKey(generating: .p256)
        let rootName = try DistinguishedName([.commonName("fido2kit-bench root")])
        var rootBuilder = CertificateBuilder(
            serialNumber: [1], issuer: rootName, subject: rootName, notBefore: notBefore,
            notAfter: notAfter, subjectPublicKey: try rootKey.publicKey)
        rootBuilder.basicConstraints = BasicConstraints(isCertificateAuthority: true)
        rootBuilder.keyUsage = [.keyCertSign, .cRLSign]
        rootBuilder.subjectKeyIdentifier = try CertificateBuilder.keyIdentifier(
            of: try rootKey.publicKey)
        let root = try rootBuilder.sign(with: rootKey)

        let intermediateKey = try PrivateKey(generating: .p256)
        let intermediateName = try DistinguishedName([
            .commonName("fido2kit-bench intermediate")
        ])
        var intermediateBuilder = CertificateBuilder(
            serialNumber: [2], issuer: rootName, subject: intermediateName, notBefore: notBefore,
            notAfter: notAfter, subjectPublicKey: try intermediateKey.publicKey)
        intermediateBuilder.basicConstraints = BasicConstraints(isCertificateAuthority: true)
        intermediateBuilder.keyUsage = [.keyCertSign, .cRLSign]
        intermediateBuilder.subjectKeyIdentifier = try CertificateBuilder.keyIdentifier(
            of: try intermediateKey.publicKey)
        intermediateBuilder.authorityKeyIdentifier = root.subjectKeyIdentifier
        let intermediate = try intermediateBuilder.sign(with: rootKey)

        let attestationKey = try PrivateKey(generating: .p256)
        var leafBuilder = CertificateBuilder(
            serialNumber: [3], issuer: intermediateName,
            subject: try DistinguishedName([
                .country("SE"), .organization("fido2kit"),
                .organizationalUnit("Authenticator Attestation"), .commonName("fido2kit-bench"),
            ]), notBefore: notBefore, notAfter: notAfter,
            subjectPublicKey: try attestationKey.publicKey)
        leafBuilder.basicConstraints = BasicConstraints(isCertificateAuthority: false)
        leafBuilder.keyUsage = .digitalSignature
        leafBuilder.subjectKeyIdentifier = try CertificateBuilder.keyIdentifier(
            of: try attestationKey.publicKey)
        leafBuilder.authorityKeyIdentifier = intermediate.subjectKeyIdentifier
        let leaf = try leafBuilder.sign(with: intermediateKey)

        let wrongKey = try PrivateKey(generating: .p256)
        var wrongBuilder = rootBuilder
        wrongBuilder.subjectPublicKey = try wrongKey.publicKey
        wrongBuilder.subjectKeyIdentifier = try CertificateBuilder.keyIdentifier(
            of: try wrongKey.publicKey)
        let wrongRoot = try wrongBuilder.sign(with: wrongKey)

        return (
            .packed(
                attestationKey: attestationKey,
                certificateChain: [leaf.derEncoded, intermediate.derEncoded]),
            root, wrongRoot
        )
    }

    static func packedChain(_ locations: Locations) throws -> Scenario {
        let chain = try chainAttestation()
        return try registration(
            locations, attestation: chain.attestation, kind: "packed (x5c)", root: chain.root,
            wrongRoot: chain.wrongRoot, title: packedChainTitle)
    }

    /// The TPM registration (`tpmCase` of the shared vectors in `sharedVectors`) and fido2kit's
    /// verification of it.
    static func tpmRegistration(sharedVectors: String) throws -> Case {
        let path = sharedVectors + "/real-registrations.json"
        guard let data = FileManager.default.contents(atPath: path),
            let cases = try JSONSerialization.jsonObject(with: data) as? [[String: Any]],
            let found = cases.first(where: { $0["case_id"] as? String == tpmCase }),
            var credential = found["credential"] as? [String: Any],
            let challengeText = found["expected_challenge"] as? String,
            let origin = found["expected_origin"] as? String,
            let rpId = found["expected_rp_id"] as? String
        else {
            throw NotRun(reason: "\(tpmCase) not found in \(path)", isFailure: true)
        }
        // As Tests/Peers/interop.py sends recorded credentials to the peers.
        if credential["clientExtensionResults"] == nil {
            credential["clientExtensionResults"] = [String: Any]()
        }
        if credential["type"] == nil { credential["type"] = "public-key" }
        let response = Array(
            try JSONSerialization.data(
                withJSONObject: credential, options: [.sortedKeys, .withoutEscapingSlashes]))
        let challenge = try Base64URL.decode(challengeText)
        let input = Input(
            response: response, challenge: challenge, origin: origin, relyingPartyID: rpId,
            requiresUserVerification: false)
        let relyingParty = RelyingParty(id: rpId, origins: [origin])
        // Conveyance none: no built-in roots, the statement alone, as the peers without anchors.
        let expectations = RegistrationExpectations(
            challenge: challenge, requiresUserVerification: false, attestation: .none)
        let verify: @Sendable () throws -> UInt64 = {
            UInt64(
                try relyingParty.verifyRegistration(jsonBytes: response, expecting: expectations)
                    .credentialId.count)
        }
        return Case(input: input, verify: verify)
    }

    static func tpm(_ locations: Locations) throws -> Scenario {
        let registered = try tpmRegistration(sharedVectors: locations.sharedVectors)
        let input = registered.input
        let verify = registered.verify
        return try scenario(
            tpmTitle,
            fido2kit: verify, peers: "registration", input: input, locations: locations,
            notes: [
                "\(tpmCase) of ../shared/vectors/real-registrations.json (py_webauthn's own "
                    + "Surface Pro 4 test vector). The case names no trust anchor, so every "
                    + "side verifies the tpm statement (certInfo, pubArea, the AIK signature and "
                    + "certificate rules) and none evaluates a chain: fido2kit with conveyance "
                    + "none (no built-in roots), py_webauthn without pem_root_certs_bytes_by_fmt, "
                    + "python-fido2 with a verifier that has no anchor."
            ])
    }

    /// An input every side must refuse, checked at set-up: it shows that a check (such as the
    /// chain to the root) really runs on each side.
    struct Refusal {
        let input: Input
        let fido2kit: @Sendable () throws -> UInt64
    }

    /// fido2kit and both peers on `input`; each is checked once before it is measured, and each
    /// must refuse `refusal` when there is one.
    static func scenario(
        _ title: String, fido2kit verify: @escaping @Sendable () throws -> UInt64, peers: String,
        input: Input, locations: Locations,
        diagnostics: [(name: String, verify: @Sendable () throws -> UInt64)] = [],
        refusal: Refusal? = nil, notes: [String]
    ) throws -> Scenario {
        if let refusal {
            try checkRefusal(refusal, title: title, locations: locations)
        }
        for (name, verify) in [("fido2kit", verify)] + diagnostics {
            do {
                _ = try verify()
            } catch {
                throw NotRun(reason: "\(name) does not verify the input: \(error)", isFailure: true)
            }
        }
        let file = try input.write(
            title.filter { $0.isLetter || $0.isNumber }.lowercased(), in: locations)
        var competitors = [Competitor("fido2kit") { (try? verify()) ?? 0 }]
        for (name, verify) in diagnostics {
            competitors.append(Competitor(name) { (try? verify()) ?? 0 })
        }
        var loaded: [String] = []
        for library in libraries {
            let worker = try PeerProcess(
                label: "\(library) (\(title))", executable: locations.python,
                arguments: ["-B", locations.worker])
            do {
                loaded.append(try worker.load(scenario: peers, library: library, input: file))
                try worker.run(checked: 1)
            } catch {
                throw NotRun(
                    reason:
                        "\(library) did not load or verify the input, so the scenario is not measured: \(error)",
                    isFailure: true)
            }
            competitors.append(Competitor(library, batch: { worker.run($0) }))
        }
        return Scenario(
            title, competitors: competitors,
            checks: [
                .init("fido2kit", against: "py_webauthn", .fasterThanBaseline(atLeast: 1.5)),
                .init("fido2kit", against: "python-fido2", .fasterThanBaseline(atLeast: 3)),
            ],
            notes: notes + ["Peers: \(loaded.joined(separator: ", ")); input \(file)."])
    }

    static func checkRefusal(_ refusal: Refusal, title: String, locations: Locations) throws {
        if (try? refusal.fido2kit()) != nil {
            throw NotRun(reason: "fido2kit accepts the input it must refuse", isFailure: true)
        }
        let file = try refusal.input.write(
            "refused-" + title.filter { $0.isLetter || $0.isNumber }.lowercased(), in: locations)
        for library in libraries {
            let worker = try PeerProcess(
                label: "\(library) (\(title), refusal)", executable: locations.python,
                arguments: ["-B", locations.worker])
            _ = try worker.load(scenario: "registration", library: library, input: file)
            if (try? worker.run(checked: 1)) != nil {
                throw NotRun(
                    reason: "\(library) accepts the input it must refuse (\(file))",
                    isFailure: true)
            }
        }
    }
}
