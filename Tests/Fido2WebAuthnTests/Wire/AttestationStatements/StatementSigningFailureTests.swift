import Fido2Authenticator
import Fido2CBOR
import Fido2Crypto
import Fido2WebAuthn
import Fido2WebAuthnTestSupport
import Fido2WebAuthnWire
import Testing

/// Failure paths of the builders and of the authenticator's key generation.
@Suite struct StatementSigningFailureTests {
    @Test func refusesToSignWithAKeyThatDoesNotFitTheAlgorithm() throws {
        let data = try sampleAuthenticatorData()
        let key = try PrivateKey(generating: .ed25519)
        expectCode(.signingFailed) {
            _ = try PackedAttestationStatement.selfAttestation(
                authenticatorData: data, clientDataHash: [UInt8](repeating: 0, count: 32),
                credentialKey: key, algorithm: .es256)
        }
        expectCode(.unsupportedAlgorithm) {
            _ = try PackedAttestationStatement.selfAttestation(
                authenticatorData: data, clientDataHash: [UInt8](repeating: 0, count: 32),
                credentialKey: key, algorithm: COSEAlgorithm(rawValue: -49))
        }
        expectCode(.invalidValue) {
            _ = try PackedAttestationStatement.fullAttestation(
                authenticatorData: data, clientDataHash: [UInt8](repeating: 0, count: 32),
                attestationKey: try PrivateKey(generating: .p256), certificates: [])
        }
    }

    @Test func refusesU2FWithoutAnES256Credential() throws {
        let hash = [UInt8](repeating: 0, count: 32)
        let assertionData = try AuthenticatorData(
            relyingPartyID: "example.org", flags: .userPresent, signCount: 0)
        expectCode(.invalidValue) {
            _ = try FIDOU2FAttestationStatement.signedBytes(
                authenticatorData: assertionData, clientDataHash: hash)
        }
        let edKey = try COSEKey(
            publicKey: try PrivateKey(generating: .ed25519).publicKey, algorithm: .edDSA)
        let edData = try AuthenticatorData(
            relyingPartyID: "example.org", flags: .userPresent, signCount: 0,
            attestedCredentialData: try AttestedCredentialData(
                aaguid: .zero, credentialId: [1], credentialPublicKey: edKey))
        expectCode(.invalidValue) {
            _ = try FIDOU2FAttestationStatement.signing(
                authenticatorData: edData, clientDataHash: hash,
                attestationKey: try PrivateKey(generating: .p256), certificate: [0x30, 0x00])
        }
    }

    @Test func refusesAnEncodedKeyThatIsNoCOSEKey() {
        expectCode(.invalidCredentialPublicKey) {
            _ = try AttestedCredentialData(
                aaguid: .zero, credentialId: [1], credentialPublicKeyBytes: [0xa1, 0x01, 0x02])
        }
        expectCode(.invalidCredentialPublicKey) {
            _ = try AttestedCredentialData(
                aaguid: .zero, credentialId: [1], credentialPublicKeyBytes: [0x01, 0x02])
        }
    }

    @Test func readsAndWritesAAGUIDs() {
        let text = "8446ccb9-ab1d-b374-750b-2367ff6f3a1f"
        #expect(AAGUID(uuidString: text)?.description == text)
        #expect(AAGUID(uuidString: text.uppercased())?.description == text)
        #expect(
            AAGUID(uuidString: "8446ccb9ab1db374750b2367ff6f3a1f")?.bytes
                == AAGUID(uuidString: text)?.bytes)
        for bad in [
            "", "8446ccb9-ab1d-b374-750b-2367ff6f3a1", "8446ccb9ab1d-b374-750b-2367ff6f3a1f0",
            "8446ccb9-ab1d-b374-750b-2367ff6f3a1g", "8446ccb9-ab1db-374-750b-2367ff6f3a1f",
        ] {
            #expect(AAGUID(uuidString: bad) == nil, "\(bad)")
        }
        #expect(AAGUID(bytes: [UInt8](repeating: 0, count: 15)) == nil)
        #expect(AAGUID.zero.description == "00000000-0000-0000-0000-000000000000")
    }

    /// A random source that always fails.
    struct FailingRandom: RandomSource {
        func fill(_ buffer: UnsafeMutableRawBufferPointer) throws {
            throw CryptoError(.randomGenerationFailed, "test source refuses")
        }
    }

    @Test func reportsKeyGenerationFailuresAndStoresNothing() throws {
        let store = InMemoryCredentialStore()
        var configuration = AuthenticatorConfiguration()
        configuration.random = FailingRandom()
        let authenticator = SoftwareAuthenticator(configuration: configuration, store: store)
        for alg in [-7, -8, -257] {
            expectAuthenticatorError(.keyGenerationFailed) {
                _ = try authenticator.makeCredential(
                    options: creationOptions(algorithms: [alg]), origin: "https://example.org")
            }
        }
        #expect(store.count == 0)
    }
}
