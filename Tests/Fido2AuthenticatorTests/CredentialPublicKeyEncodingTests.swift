import Fido2Authenticator
import Fido2Crypto
import Fido2WebAuthn
import Fido2WebAuthnTestSupport
import Fido2WebAuthnWire
import Testing

/// The authenticator writes COSE keys and SPKIs of EC and EdDSA credentials by hand; they must
/// equal what the crypto module's encoders write.
@Test(arguments: [-7, -35, -36, -8, -19, -53, -257])
func writesTheSameCOSEKeyAndSPKIAsTheCryptoModule(_ alg: Int) throws {
    var configuration = AuthenticatorConfiguration()
    configuration.supportedAlgorithms = [COSEAlgorithm(rawValue: alg)]
    let authenticator = SoftwareAuthenticator(
        configuration: configuration, store: InMemoryCredentialStore())
    for _ in 0..<(alg == -257 ? 1 : 8) {
        let response = try authenticator.makeCredential(
            options: creationOptions(algorithms: [alg]), origin: "https://example.org")
        let attested = try #require(
            try AttestationObject(bytes: response.response.attestationObject)
                .authenticatorData.attestedCredentialData)
        let key = attested.credentialPublicKey
        #expect(key.algorithm.rawValue == alg)
        #expect(Array(attested.credentialPublicKeyBytes) == (try key.cborEncoded))
        #expect(response.response.publicKey == (try key.publicKey.spkiDER))
    }
}
