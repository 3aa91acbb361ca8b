import Fido2Authenticator
import Fido2Crypto
import Fido2Encoding
import Fido2WebAuthn
import Fido2WebAuthnTestSupport
import Fido2WebAuthnWire
import Testing

/// One authenticator serving several origins and RP IDs in turn answers each ceremony for its
/// own origin and RP ID, and refuses a bad pair every time, however the calls interleave.
@Suite struct RelyingPartyMemoTests {
    @Test func alternatingOriginsAndRelyingPartiesEachGetTheirOwn() throws {
        let authenticator = SoftwareAuthenticator(store: InMemoryCredentialStore())
        let cases: [(origin: String, rpId: String?, expected: String)] = [
            ("https://example.org", "example.org", "example.org"),
            ("https://login.example.org", "example.org", "example.org"),
            ("https://login.example.org", nil, "login.example.org"),
            ("https://example.org", "example.org", "example.org"),
            ("https://other.test", nil, "other.test"),
        ]
        for round in 0..<2 {
            for (origin, rpId, expected) in cases {
                let response = try authenticator.makeCredential(
                    options: creationOptions(rpId: rpId), origin: origin)
                let object = try AttestationObject(bytes: response.response.attestationObject)
                #expect(
                    Array(object.authenticatorData.rpIdHash)
                        == DigestAlgorithm.sha256.hash(expected.utf8),
                    "round \(round): \(origin) with \(rpId ?? "no RP ID")")
                let clientData = try ClientDataJSON(bytes: response.response.clientDataJSON)
                #expect(clientData.clientData.origin == origin)
            }
        }
    }

    @Test func refusalsAreNotRememberedAndDoNotDisturbTheRemembered() throws {
        let authenticator = SoftwareAuthenticator(store: InMemoryCredentialStore())
        let good = try authenticator.makeCredential(
            options: creationOptions(), origin: "https://example.org")
        for _ in 0..<2 {
            let wrongHost = #expect(throws: AuthenticatorError.self) {
                try authenticator.makeCredential(
                    options: creationOptions(), origin: "https://example.com")
            }
            #expect(wrongHost?.code == .invalidRelyingPartyID)
            let insecure = #expect(throws: AuthenticatorError.self) {
                try authenticator.getAssertion(
                    options: requestOptions(allow: [good.rawId]), origin: "http://example.org")
            }
            #expect(insecure?.code == .invalidOrigin)
            let assertion = try authenticator.getAssertion(
                options: requestOptions(allow: [good.rawId]), origin: "https://example.org")
            let authData = try AuthenticatorData(bytes: assertion.response.authenticatorData)
            #expect(
                Array(authData.rpIdHash) == DigestAlgorithm.sha256.hash("example.org".utf8))
        }
    }
}
