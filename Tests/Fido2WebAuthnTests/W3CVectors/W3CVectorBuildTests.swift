import Fido2CBOR
import Fido2Crypto
import Fido2Encoding
import Fido2TestSupport
import Fido2Vectors
import Fido2WebAuthn
import Fido2WebAuthnTestSupport
import Fido2WebAuthnWire
import Testing

/// Builds every `none`, `packed` and `fido-u2f` registration and every authentication of the
/// W3C Level 3 test vectors from the spec's inputs and compares byte for byte.
@Suite struct W3CVectorBuildTests {
    static let vectors: [W3CVector] = (try? W3CVector.all()) ?? []
    static let buildable = vectors.filter { ["none", "packed", "fido-u2f"].contains($0.format) }

    @Test func coversEveryCase() {
        #expect(Self.vectors.count == 15)
        // none ×4 + long credential ID, packed self + six algorithms, fido-u2f.
        #expect(Self.buildable.count == 12)
        #expect(Set(Self.buildable.filter { $0.format == "packed" }.map(\.algorithm)).count == 6)
    }

    @Test(arguments: buildable)
    func reproducesTheRegistration(_ vector: W3CVector) throws {
        let expectedObject = try vector.registrationBytes("attestationObject")
        let clientData = try vector.clientData(registration: true)
        #expect(clientData.jsonBytes() == (try vector.registrationBytes("clientDataJSON")))
        let clientDataHash = DigestAlgorithm.sha256.hash(clientData.jsonBytes())

        let credentialKey = try COSEKey(
            publicKey: vector.credentialKey.publicKey, algorithm: vector.algorithm)
        let attested = try AttestedCredentialData(
            aaguid: try #require(AAGUID(bytes: try vector.registrationBytes("aaguid"))),
            credentialId: try vector.registrationBytes("credential_id"),
            credentialPublicKey: credentialKey)
        let authenticatorData = try AuthenticatorData(
            relyingPartyID: vector.rpID, flags: try vector.registrationFlags(), signCount: 0,
            attestedCredentialData: attested)

        // The certificate the vector gives (made by the attestation CA), carried as an input.
        let given = try AttestationObject(bytes: expectedObject)
        let statement: AttestationStatement
        switch given.statement {
        case .none:
            statement = .none
        case .packed(let packed) where packed.certificates == nil:
            statement = .packed(
                try .selfAttestation(
                    authenticatorData: authenticatorData, clientDataHash: clientDataHash,
                    credentialKey: vector.credentialKey, algorithm: vector.algorithm,
                    nonce: .deterministic))
        case .packed(let packed):
            statement = .packed(
                try .fullAttestation(
                    authenticatorData: authenticatorData, clientDataHash: clientDataHash,
                    attestationKey: try #require(vector.attestationKey),
                    certificates: try #require(packed.certificates).map { Array($0) },
                    nonce: .deterministic))
        case .fidoU2F(let u2f):
            statement = .fidoU2F(
                try .signing(
                    authenticatorData: authenticatorData, clientDataHash: clientDataHash,
                    attestationKey: try #require(vector.attestationKey),
                    certificate: Array(try #require(u2f.certificates.first)),
                    nonce: .deterministic))
        default:
            Issue.record("\(vector.id): unexpected \(given.format)")
            return
        }
        let built = AttestationObject(authenticatorData: authenticatorData, statement: statement)
        #expect(Hex.encode(built.bytes) == Hex.encode(expectedObject), "\(vector.id)")
        #expect(built == given)
        #expect(built.encodedStatement == given.encodedStatement)
    }

    @Test(arguments: vectors)
    func reproducesTheAuthentication(_ vector: W3CVector) throws {
        let clientData = try vector.clientData(registration: false)
        #expect(clientData.jsonBytes() == (try vector.authenticationBytes("clientDataJSON")))
        let authenticatorData = try AuthenticatorData(
            relyingPartyID: vector.rpID, flags: try vector.assertionFlags(), signCount: 0)
        #expect(
            Hex.encode(authenticatorData.bytes)
                == Hex.encode(try vector.authenticationBytes("authenticatorData")))
        let signature = try vector.credentialKey.signature(
            for: authenticatorData.bytes, DigestAlgorithm.sha256.hash(clientData.jsonBytes()),
            algorithm: vector.algorithm, nonce: .deterministic)
        #expect(Hex.encode(signature) == Hex.encode(try vector.authenticationBytes("signature")))
        let parsed = try AuthenticatorData(
            bytes: try vector.authenticationBytes("authenticatorData"))
        #expect(parsed == authenticatorData)
        #expect(parsed.attestedCredentialData == nil && parsed.extensions == nil)
    }
}
