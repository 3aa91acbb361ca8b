import Fido2CBOR
import Fido2Crypto
import Fido2Encoding
import Fido2TestSupport
import Fido2Vectors
import Fido2WebAuthn
import Fido2WebAuthnTestSupport
import Fido2WebAuthnWire
import Testing

/// Reads all 15 registrations of the W3C Level 3 test vectors into typed values.
@Suite struct W3CVectorParseTests {
    static let vectors: [W3CVector] = (try? W3CVector.all()) ?? []

    @Test(arguments: vectors)
    func readsTheRegistration(_ vector: W3CVector) throws {
        let bytes = try vector.registrationBytes("attestationObject")
        let object = try AttestationObject(bytes: bytes)
        #expect(object.format == vector.format)
        #expect(object.bytes.elementsEqual(bytes))
        let authData = object.authenticatorData
        let derived = try vector.json.member("derived")
        #expect(
            Hex.encode(authData.bytes) == (try derived.string("registration.authData")))
        #expect(
            Int(authData.flags.rawValue)
                == Int(try derived.member("registration.flags").int64Value ?? -1))
        #expect(authData.signCount == 0)
        #expect(authData.rpIdHash.elementsEqual(DigestAlgorithm.sha256.hash(vector.rpID.utf8)))
        let attested = try #require(authData.attestedCredentialData)
        #expect(attested.aaguid.bytes == (try vector.registrationBytes("aaguid")))
        #expect(Array(attested.credentialId) == (try vector.registrationBytes("credential_id")))
        #expect(
            Hex.encode(attested.credentialPublicKeyBytes)
                == (try derived.string("credential_public_key_cose")))
        #expect(attested.credentialPublicKey.algorithm == vector.algorithm)
        #expect(
            try attested.credentialPublicKey.publicKey.spkiDER
                == Hex.bytes(try derived.string("credential_public_key_spki_der")))
        #expect(authData.extensions == nil)
        // Rebuilding from the typed values gives the same bytes.
        #expect(
            AttestationObject(authenticatorData: authData, statement: object.statement).bytes
                == object.bytes)
    }

    @Test func readsTheTPMStatement() throws {
        let vector = try W3CVector.named("tpm-es256")
        let object = try AttestationObject(bytes: try vector.registrationBytes("attestationObject"))
        guard case .tpm(let tpm) = object.statement else {
            Issue.record("not tpm: \(object.format)")
            return
        }
        #expect(tpm.version == "2.0")
        #expect(tpm.algorithm == .es256)
        #expect(tpm.certificates.count == 1)
        #expect(tpm.certInfo.magic == TPMSAttest.generatedValue)
        #expect(tpm.certInfo.type == TPMSAttest.attestCertify)
        #expect(tpm.certInfo.clockInfo.safe == 0x33)
        // extraData is SHA-256(authData ‖ clientDataHash) for alg -7.
        let clientDataHash = DigestAlgorithm.sha256.hash(
            try vector.registrationBytes("clientDataJSON"))
        #expect(
            Array(tpm.certInfo.extraData)
                == DigestAlgorithm.sha256.hash(
                    Array(object.authenticatorData.bytes) + clientDataHash))
        // The attested name is nameAlg ‖ H(pubArea).
        let name = try #require(tpm.certInfo.attestedName)
        #expect(tpm.pubArea.nameAlgorithm == .sha256)
        #expect(Array(name) == [0x00, 0x0b] + DigestAlgorithm.sha256.hash(tpm.pubArea.bytes))
        #expect(tpm.pubArea.type == .ecc)
        guard case .ecc(let parameters) = tpm.pubArea.parameters,
            case .ecc(let x, let y) = tpm.pubArea.unique
        else {
            Issue.record("pubArea is not ECC")
            return
        }
        #expect(parameters.curveID == 0x0003)
        #expect(parameters.symmetric.algorithm == .null)
        let point = try object.authenticatorData.attestedCredentialData?.credentialPublicKey
            .publicKey.uncompressedPoint
        #expect([0x04] + Array(x) + Array(y) == point)
    }

    @Test func readsTheAndroidKeyAndAppleStatements() throws {
        let android = try AttestationObject(
            bytes: try W3CVector.named("android-key-es256").registrationBytes("attestationObject"))
        guard case .androidKey(let key) = android.statement else {
            Issue.record("not android-key: \(android.format)")
            return
        }
        #expect(key.algorithm == .es256)
        #expect(key.certificates.count == 1)
        let apple = try AttestationObject(
            bytes: try W3CVector.named("apple-es256").registrationBytes("attestationObject"))
        guard case .apple(let statement) = apple.statement else {
            Issue.record("not apple: \(apple.format)")
            return
        }
        #expect(statement.certificates.count == 1)
    }
}
