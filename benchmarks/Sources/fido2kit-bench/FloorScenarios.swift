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

    static func makeFloor(root: [UInt8]? = nil) throws -> PeerHandle {
        let handle: OpaquePointer? =
            if let root {
                root.withUnsafeBufferPointer { openssl_floor_create($0.baseAddress, $0.count) }
            } else {
                openssl_floor_create(nil, 0)
            }
        guard let handle else { throw BenchmarkSetupError("the C floor could not be created") }
        return PeerHandle(raw: handle)
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
        floor body: @escaping @Sendable () -> UInt64, calls: String
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
            ],
            checks: [.init("fido2kit", against: floor, .costOfBaseline(atMost: 1.25))],
            notes: [
                "fido2kit: the row of the WebAuthn peer scenario (the response JSON read and "
                    + "verified in full on every call). \(floor): \(calls), over bytes taken "
                    + "out of the same response once at set-up (benchmarks/Sources/CPeers/"
                    + "openssl_floor.c)."
            ])
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
        let leaf = Bytes(certificates[0])
        let intermediate = Bytes(certificates[1])
        let clientData = Bytes(response.clientDataJSON)
        let authenticatorData = Bytes(object.authenticatorData.bytes)
        let signature = Bytes(statement.signature)
        let floor = try makeFloor(root: chain.root.derEncoded)
        return try scenario(
            "packed registration, x5c chain to a configured root (ES256)",
            fido2kit: registration.verify,
            floor: {
                UInt64(
                    openssl_floor_packed_x5c(
                        floor.raw, leaf.base, leaf.count, intermediate.base, intermediate.count,
                        clientData.base, clientData.count, authenticatorData.base,
                        authenticatorData.count, signature.base, signature.count))
            },
            calls: "d2i_X509 of the leaf and the intermediate; the chain as the two signature "
                + "checks X509_verify_cert makes, X509_verify(intermediate, the root's cached key) "
                + "and X509_verify(leaf, X509_get0_pubkey(intermediate)) (cheaper than "
                + "X509_verify_cert with a store: no store context, no purpose, name or "
                + "validity checks); the leaf's point from X509_get0_pubkey_bitstr as an EC_KEY; "
                + "SHA-256 of clientDataJSON and of authenticatorData||that hash; ECDSA_verify")
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
        let certificate = Bytes(aik)
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
                        floor.raw, certificate.base, certificate.count, clientData.base,
                        clientData.count, authenticatorData.base, authenticatorData.count,
                        info.base, info.count, area.base, area.count, signatureHash,
                        signature.base, signature.count))
            },
            calls: "d2i_X509 of the AIK certificate (the intermediate is not read: no chain is "
                + "evaluated); SHA-256 of clientDataJSON; SHA-1 (the statement's alg) of "
                + "authenticatorData||that hash, compared with certInfo's extraData; the nameAlg "
                + "digest of pubArea, compared with certInfo's attested name; SHA-1 of certInfo; "
                + "the AIK's RSA key from X509_get0_pubkey_bitstr (d2i_RSAPublicKey); RSA_verify")
    }
}
