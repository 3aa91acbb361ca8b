import Fido2Encoding
import Fido2Vectors
import Fido2WebAuthn
import Fido2WebAuthnTestSupport
import Fido2WebAuthnWire
import Testing

/// What the assertions of `real-authentications.json` show beyond their verdicts (which
/// Fido2Vectors' `RealAuthenticationsSuite` judges in `VectorSuiteTests`): the parse-only
/// case's extensions and Android origin.
@Suite struct AuthenticationRealVectorTests {
    static func parseOnlyCase() throws -> JSONValue {
        let json = try sharedVectorJSON("real-authentications.json")
        let suite = try #require(
            RealAuthenticationsSuite(name: "real-authentications.json", json: json))
        let entry = try #require(suite.entry("auth-018"))
        #expect(try entry.string("expected_result").hasPrefix("parse-only"))
        return entry
    }

    /// auth-018 is parse-only: its signature does not verify under the key given; its
    /// authenticator data carries the devicePubKey extension, read as an unknown output.
    @Test func readsTheParseOnlyCase() throws {
        let response = try RealAuthenticationsSuite.response(try Self.parseOnlyCase())
        let authData = try AuthenticatorData(bytes: response.response.authenticatorData)
        let extensions = try #require(authData.extensions)
        #expect(extensions.unknown.map(\.identifier) == ["devicePubKey"])
        let clientData = try ClientDataJSON(bytes: response.response.clientDataJSON)
        #expect(clientData.clientData.origin.hasPrefix("android:apk-key-hash:"))
    }

    /// An `android:apk-key-hash:` origin is allowed like a web origin: auth-018's ceremony
    /// passes every step up to the signature, where its (documented) bad signature stops it.
    @Test func androidOriginsPassTheOriginStep() throws {
        let (relyingParty, response, expectations) = try RealAuthenticationsSuite.ceremony(
            try Self.parseOnlyCase())
        expectFailure(.signatureInvalid, step: "§7.2 step 21") { () throws in
            try relyingParty.verifyAuthentication(response, expecting: expectations)
        }
    }
}
