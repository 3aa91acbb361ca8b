import BenchmarkHarness
import CPeers
import Fido2CBOR
@_spi(Fido2Internals) import Fido2Crypto
import Fido2WebAuthn
import Fido2WebAuthnWire
import Foundation

/// Each relying-party path of the WebAuthn peer scenarios against its floor (issue 34): a C
/// function (`benchmarks/Sources/CPeers/openssl_floor.c`) that makes only the OpenSSL 3.0 calls
/// the path cannot avoid, over the bytes of the same response, which are parsed out here once,
/// outside the timed loop. Target: fido2kit's row at most 1.25x its floor. These scenarios need
/// no venv (the TPM one needs `../shared/vectors`).
enum FloorScenarios {
    static let floor = "C floor"
    static let titlePrefix = "RP floor: "

    /// Bytes kept for the whole run at a fixed address, handed to C as they are.
    struct Bytes: @unchecked Sendable {
        let base: UnsafePointer<UInt8>
        let count: Int

        init<C: Collection<UInt8>>(_ bytes: C) {
            let copy = Array(bytes)
            let memory = UnsafeMutablePointer<UInt8>.allocate(capacity: max(copy.count, 1))
            memory.initialize(from: copy, count: copy.count)
            base = UnsafePointer(memory)
            count = copy.count
        }
    }

    static func all() throws -> [Scenario] {
        var scenarios = [
            try assertion(), try packedSelf(), try packedChain(),
        ]
        let vectors = PeerScenarios.sharedFolder("vectors")
        if FileManager.default.fileExists(atPath: vectors + "/real-registrations.json") {
            scenarios.append(try tpm(sharedVectors: vectors))
        } else {
            print("note: \(titlePrefix)TPM left out: no \(vectors)/real-registrations.json")
        }
        return scenarios
    }

    /// The C floor, with `rootPoint` (the configured root's uncompressed P-256 point) imported
    /// once when there is one.
    static func makeFloor(rootPoint: [UInt8]? = nil) throws -> PeerHandle {
        let handle: OpaquePointer? =
            if let rootPoint {
                rootPoint.withUnsafeBufferPointer { openssl_floor_create($0.baseAddress, $0.count) }
            } else {
                openssl_floor_create(nil, 0)
            }
        guard let handle else { throw BenchmarkSetupError("the C floor could not be created") }
        return PeerHandle(raw: handle)
    }

    /// A chain certificate as the floor takes it (TBSCertificate, signature, subject's point),
    /// parsed here by fido2kit once; its bytes are `Bytes`, kept for the whole run.
    struct ChainCertificate: @unchecked Sendable {
        let fields: openssl_floor_certificate
    }

    static func chainCertificate(_ der: some Collection<UInt8>) throws -> ChainCertificate {
        let certificate = try Certificate(derEncoded: der)
        guard certificate.signatureAlgorithm == .ecdsaWithSHA256 else {
            throw BenchmarkSetupError("the x5c floor handles ecdsa-with-SHA256 certificates")
        }
        let tbs = Bytes(certificate.tbsCertificateDER)
        let signature = Bytes(certificate.signature)
        let point = Bytes(try certificate.publicKey.uncompressedPoint)
        guard point.count == 65 else { throw BenchmarkSetupError("not a P-256 certificate key") }
        return ChainCertificate(
            fields: openssl_floor_certificate(
                tbs: tbs.base, tbs_length: tbs.count, signature: signature.base,
                signature_length: signature.count, point: point.base, point_length: point.count))
    }

    /// A `step:` row: `body` once per call, 0 when it throws (checked once at set-up).
    static func step(
        _ name: String, _ body: @escaping @Sendable () throws -> Int
    ) throws
        -> Competitor
    {
        do {
            _ = try body()
        } catch {
            throw BenchmarkSetupError("step: \(name) fails on the input: \(error)")
        }
        return Competitor("step: " + name) { UInt64((try? body()) ?? 0) }
    }

    /// x and y (-2, -3) of an EC2 COSE key.
    static func coordinates(_ coseKey: some Collection<UInt8>) throws -> (x: Bytes, y: Bytes) {
        let key = try CBORValue.decode(Array(coseKey))
        guard let x = key[CBORValue(-2)]?.bytesValue, let y = key[CBORValue(-3)]?.bytesValue,
            x.count == 32, y.count == 32
        else { throw BenchmarkSetupError("not a P-256 COSE key") }
        return (Bytes(x), Bytes(y))
    }

    /// fido2kit and the floor, each checked once before it is measured.
    static func scenario(
        _ path: String, fido2kit verify: @escaping @Sendable () throws -> UInt64,
        floor body: @escaping @Sendable () -> UInt64, calls: String,
        steps: [Competitor] = []
    ) throws -> Scenario {
        do {
            _ = try verify()
        } catch {
            throw BenchmarkSetupError("\(path): fido2kit does not verify the input: \(error)")
        }
        guard body() == 1 else {
            throw BenchmarkSetupError("\(path): the C floor does not verify the input")
        }
        return Scenario(
            titlePrefix + path,
            competitors: [
                Competitor("fido2kit") { (try? verify()) ?? 0 },
                Competitor(floor, body),
            ] + steps,
            checks: [.init("fido2kit", against: floor, .costOfBaseline(atMost: 1.25))],
            notes: [
                "fido2kit: the row of the WebAuthn peer scenario (the response JSON read and "
                    + "verified in full on every call). \(floor): \(calls), over bytes taken "
                    + "out of the same response once at set-up (benchmarks/Sources/CPeers/"
                    + "openssl_floor.c)."
            ]
                + (steps.isEmpty
                    ? []
                    : [
                        "step: rows (no target) take fido2kit's row apart: each times one part of "
                            + "the path through fido2kit's public API on the same bytes, to show "
                            + "what its cost above the floor is made of."
                    ]))
    }

    static func assertion() throws -> Scenario {
        let assertion = try PeerScenarios.assertionCase()
        guard let coseKey = assertion.input.publicKey else {
            throw BenchmarkSetupError("the assertion has no stored key")
        }
        let response = try AuthenticationResponseJSON(jsonBytes: assertion.input.response).response
        let (x, y) = try coordinates(coseKey)
        let clientData = Bytes(response.clientDataJSON)
        let authenticatorData = Bytes(response.authenticatorData)
        let signature = Bytes(response.signature)
        let floor = try makeFloor()
        return try scenario(
            "ES256 assertion from JSON with a stored COSE key", fido2kit: assertion.verify,
            floor: {
                UInt64(
                    openssl_floor_es256(
                        floor.raw, x.base, y.base, clientData.base, clientData.count,
                        authenticatorData.base, authenticatorData.count, signature.base,
                        signature.count))
            },
            calls: "the COSE key's x and y as one EC_KEY (EC_KEY_new, EC_KEY_set_group on a cached "
                + "P-256 group, EC_KEY_oct2key of 04||x||y), SHA-256 of clientDataJSON, SHA-256 of "
                + "authenticatorData||that hash (SHA256_Init/Update/Final), ECDSA_verify")
    }

    static func packedSelf() throws -> Scenario {
        let registration = try PeerScenarios.registrationCase(attestation: .packedSelf)
        let response = try RegistrationResponseJSON(jsonBytes: registration.input.response)
            .response
        let object = try AttestationObject(bytes: response.attestationObject)
        guard case .packed(let statement) = object.statement,
            let attested = object.authenticatorData.attestedCredentialData
        else { throw BenchmarkSetupError("not a packed self-attestation") }
        let (x, y) = try coordinates(attested.credentialPublicKeyBytes)
        let clientData = Bytes(response.clientDataJSON)
        let authenticatorData = Bytes(object.authenticatorData.bytes)
        let signature = Bytes(statement.signature)
        let floor = try makeFloor()
        return try scenario(
            "packed self-attestation registration (ES256)", fido2kit: registration.verify,
            floor: {
                UInt64(
                    openssl_floor_es256(
                        floor.raw, x.base, y.base, clientData.base, clientData.count,
                        authenticatorData.base, authenticatorData.count, signature.base,
                        signature.count))
            },
            calls: "the assertion's floor over the attestation: the credential key's x and y as an "
                + "EC_KEY (EC_KEY_oct2key), SHA-256 of clientDataJSON, SHA-256 of "
                + "authenticatorData||that hash, ECDSA_verify of the statement's sig")
    }

    static func packedChain() throws -> Scenario {
        let chain = try PeerScenarios.chainAttestation()
        let registration = try PeerScenarios.registrationCase(
            attestation: chain.attestation, root: chain.root)
        let response = try RegistrationResponseJSON(jsonBytes: registration.input.response)
            .response
        let object = try AttestationObject(bytes: response.attestationObject)
        guard case .packed(let statement) = object.statement,
            let certificates = statement.certificates, certificates.count == 2
        else { throw BenchmarkSetupError("not a packed attestation with two certificates") }
        let leafDER = Array(certificates[0])
        let intermediateDER = Array(certificates[1])
        let chainVerifier = try CertificateChainVerifier(trustAnchors: [chain.root])
        let parsedLeaf = try Certificate(derEncoded: leafDER)
        let parsedIntermediate = try Certificate(derEncoded: intermediateDER)
        let rootKey = try chain.root.publicKey
        let intermediateKey = try parsedIntermediate.publicKey
        let signedData = Array(object.authenticatorData.bytes)
        let clientDataHash = DigestAlgorithm.sha256.hash(response.clientDataJSON)
        let statementSignature = Array(statement.signature)
        let steps = [
            try step("parse x5c (Certificate(derEncoded:) of leaf and intermediate)") {
                try Certificate(derEncoded: leafDER).version
                    + Certificate(derEncoded: intermediateDER).version
            },
            try step("parse x5c + chain (CertificateChainVerifier.verify: X509_verify_cert)") {
                try chainVerifier.verify(
                    Certificate(derEncoded: leafDER),
                    intermediates: [Certificate(derEncoded: intermediateDER)]
                ).count
            },
            try step("the two chain signatures alone (isSignatureValid: X509_verify, keys given)") {
                (parsedIntermediate.isSignatureValid(issuerKey: rootKey) ? 1 : 0)
                    + (parsedLeaf.isSignatureValid(issuerKey: intermediateKey) ? 1 : 0)
            },
            try step("leaf key (Certificate.publicKey, parsed leaf) + statement ES256 verify") {
                try parsedLeaf.publicKey.isValidSignature(
                    statementSignature, for: signedData, clientDataHash, algorithm: .es256)
                    ? 1 : 0
            },
        ]
        let leaf = try chainCertificate(certificates[0])
        let intermediate = try chainCertificate(certificates[1])
        let clientData = Bytes(response.clientDataJSON)
        let authenticatorData = Bytes(object.authenticatorData.bytes)
        let signature = Bytes(statement.signature)
        let floor = try makeFloor(rootPoint: try chain.root.publicKey.uncompressedPoint)
        return try scenario(
            "packed registration, x5c chain to a configured root (ES256)",
            fido2kit: registration.verify,
            floor: {
                UInt64(
                    openssl_floor_packed_x5c(
                        floor.raw, leaf.fields, intermediate.fields, clientData.base,
                        clientData.count,
                        authenticatorData.base, authenticatorData.count, signature.base,
                        signature.count))
            },
            calls: "no X.509 parsing (no d2i_X509, no X509_STORE); the chain as its two "
                + "signatures: SHA-256 of the intermediate's TBSCertificate and ECDSA_verify with "
                + "the root's key (imported once at set-up), the intermediate's point imported "
                + "(EC_KEY_oct2key), SHA-256 of the leaf's TBSCertificate and ECDSA_verify; the "
                + "leaf's point imported (EC_KEY_oct2key); SHA-256 of clientDataJSON and of "
                + "authenticatorData||that hash; ECDSA_verify of the statement's sig",
            steps: steps)
    }

    static func tpm(sharedVectors: String) throws -> Scenario {
        let registration = try PeerScenarios.tpmRegistration(sharedVectors: sharedVectors)
        let response = try RegistrationResponseJSON(jsonBytes: registration.input.response)
            .response
        let object = try AttestationObject(bytes: response.attestationObject, options: .lenient)
        guard case .tpm(let statement) = object.statement, let aik = statement.certificates.first
        else { throw BenchmarkSetupError("\(PeerScenarios.tpmCase) is not a tpm attestation") }
        let map = try CBORValue.decode(object.encodedStatement, options: .lenient)
        guard let certInfo = map[.textString("certInfo")]?.bytesValue,
            let pubArea = map[.textString("pubArea")]?.bytesValue
        else { throw BenchmarkSetupError("no certInfo or pubArea") }
        let signatureHash: Int32
        switch statement.algorithm.rawValue {
        case -65535: signatureHash = 1  // RS1
        case -257: signatureHash = 256  // RS256
        default: throw BenchmarkSetupError("the TPM floor handles RS1 and RS256 statements")
        }
        let aikDER = Array(aik)
        let x5c = statement.certificates.map { Array($0) }
        let parsedAIK = try Certificate(derEncoded: aikDER)
        let certInfoBytes = Array(certInfo)
        let statementSignature = Array(statement.signature)
        let algorithm = statement.algorithm
        guard let attested = object.authenticatorData.attestedCredentialData else {
            throw BenchmarkSetupError("no attested credential data")
        }
        let credentialKey = Array(attested.credentialPublicKeyBytes)
        let responseJSON = registration.input.response
        let steps = [
            try step("parse x5c (Certificate(derEncoded:) of its \(x5c.count) certificates)") {
                try x5c.reduce(0) { try $0 + Certificate(derEncoded: $1).version }
            },
            try step("AIK key (Certificate.publicKey, parsed AIK) + RS1 verify of certInfo") {
                try parsedAIK.publicKey.isValidSignature(
                    statementSignature, for: certInfoBytes, algorithm: algorithm) ? 1 : 0
            },
            try step("credential key (COSEKey(cborEncoded:), RSA import)") {
                try COSEKey(cborEncoded: credentialKey).algorithm == algorithm ? 1 : 2
            },
            try step("read the response (RegistrationResponseJSON + AttestationObject)") {
                let read = try RegistrationResponseJSON(jsonBytes: responseJSON).response
                return try AttestationObject(bytes: read.attestationObject, options: .lenient)
                    .authenticatorData.bytes.count
            },
        ]
        let aikKey = try parsedAIK.publicKey
        let modulus = Bytes(try aikKey.rsaModulus)
        let exponent = Bytes(try aikKey.rsaExponent)
        let clientData = Bytes(response.clientDataJSON)
        let authenticatorData = Bytes(object.authenticatorData.bytes)
        let info = Bytes(certInfo)
        let area = Bytes(pubArea)
        let signature = Bytes(statement.signature)
        let floor = try makeFloor()
        return try scenario(
            "TPM registration (\(PeerScenarios.tpmCase): RS1 statement, no chain)",
            fido2kit: registration.verify,
            floor: {
                UInt64(
                    openssl_floor_tpm(
                        floor.raw, modulus.base, modulus.count, exponent.base, exponent.count,
                        clientData.base, clientData.count, authenticatorData.base,
                        authenticatorData.count,
                        info.base, info.count, area.base, area.count, signatureHash,
                        signature.base, signature.count))
            },
            calls: "no X.509 parsing (no d2i_X509; no chain is evaluated: no root); "
                + "SHA-256 of clientDataJSON; SHA-1 (the statement's alg) of "
                + "authenticatorData||that hash, compared with certInfo's extraData; the nameAlg "
                + "digest of pubArea, compared with certInfo's attested name; SHA-1 of certInfo; "
                + "the AIK's RSA key from its modulus and exponent (RSA_new, BN_bin2bn, "
                + "RSA_set0_key); RSA_verify",
            steps: steps)
    }
}
