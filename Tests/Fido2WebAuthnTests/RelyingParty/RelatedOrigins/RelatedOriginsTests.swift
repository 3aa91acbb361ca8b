import Fido2Authenticator
import Fido2WebAuthn
import Fido2WebAuthnTestSupport
import Fido2WebAuthnWire
import Testing

/// The `/.well-known/webauthn` document (WebAuthn Level 3 §5.11) and verification of a
/// ceremony run in a related origin.
@Suite struct RelatedOriginsTests {
    static let challenge = [UInt8](repeating: 0x11, count: 32)

    @Test func listsTheWebOriginsAsConfiguredAndLeavesOutAndroidApps() throws {
        let rp = RelyingParty(
            id: "example.com",
            origins: [
                "https://example.com", "https://example.co.uk", "android:apk-key-hash:abc",
                "https://login.example.de:8443", "https://example.co.uk", "http://localhost:8080",
            ])
        let document = try rp.relatedOriginsDocument()
        #expect(
            String(decoding: document.jsonBytes(), as: UTF8.self)
                == #"{"origins":["https://example.com","https://example.co.uk","https://login.example.de:8443","http://localhost:8080"]}"#
        )
        #expect(document.omittedOrigins == ["android:apk-key-hash:abc"])
        #expect(document.labels == ["example", "localhost"])
    }

    @Test func countsTheLabelBeforeThePublicSuffix() throws {
        let document = try RelyingParty.RelatedOriginsDocument(origins: [
            "https://shop.example.com.br", "https://a.github.io", "https://b.github.io",
            "https://www.example.co.jp", "https://127.0.0.1", "https://[::1]:443",
        ])
        #expect(document.labels == ["example", "a", "b", "127.0.0.1", "[::1]"])
    }

    @Test func refusesASixthLabel() throws {
        let five = ["a", "b", "c", "d", "e"].map { "https://\($0).example" }
        let document = try RelyingParty.RelatedOriginsDocument(
            origins: five + ["https://www.a.example"])
        #expect(document.labels.count == 5)
        let error = webAuthnError {
            try RelyingParty(id: "a.example", origins: five + ["https://f.example"])
                .relatedOriginsDocument()
        }
        #expect(error?.code == .relatedOriginsLimitExceeded)
        #expect(error?.field == "origins[5]")
        // Several second-level registries under one TLD each count: never fewer than a
        // browser counts.
        expectCode(.relatedOriginsLimitExceeded) {
            _ = try RelyingParty.RelatedOriginsDocument(
                origins: ["a", "b", "c", "d", "e", "f"].map { "https://\($0).co.uk" })
        }
    }

    @Test(arguments: [
        "https://example.com/", "https://example.com/login", "https://user@example.com",
        "https://", "https://example.com:port", "https://example..com", "https://[::1",
        "https://example.com?x",
    ])
    func refusesAnHTTPOriginThatIsNotOne(_ origin: String) {
        let error = webAuthnError {
            try RelyingParty.RelatedOriginsDocument(origins: ["https://a.example", origin])
        }
        #expect(error?.code == .invalidValue)
        #expect(error?.field == "origins[1]")
    }

    /// A none-attestation registration made at `https://example.com`, its client data then
    /// rewritten to `origin` (nothing signs client data in a none registration).
    static func registration(origin: String) throws -> RegistrationResponseJSON {
        let authenticator = SoftwareAuthenticator(store: InMemoryCredentialStore())
        var response = try authenticator.makeCredential(
            options: creationOptions(rpId: "example.com"), origin: "https://example.com")
        let clientData = try CollectedClientData(
            type: .create, challenge: Self.challenge, origin: origin)
        response.response.clientDataJSON = ClientDataJSON(clientData).bytes
        return response
    }

    @Test func verifiesACeremonyInARelatedOriginWithTheOneRPID() throws {
        let origins = ["https://example.com", "https://example.co.uk"]
        let rp = RelyingParty(id: "example.com", origins: origins)
        let expectations = RegistrationExpectations(challenge: Self.challenge)
        let verified = try rp.verifyRegistration(
            Self.registration(origin: "https://example.co.uk"), expecting: expectations)
        #expect(verified.origin == "https://example.co.uk")
        #expect(verified.relyingPartyID == "example.com")
        // An origin the relying party does not list is refused, related or not.
        expectFailure(.originNotAllowed, step: "§7.1 step 9") { () throws in
            try rp.verifyRegistration(
                Self.registration(origin: "https://example.de"), expecting: expectations)
        }
        // A related origin's own domain is not an RP ID: a credential scoped to it fails.
        let other = RelyingParty(id: "example.co.uk", origins: origins)
        expectFailure(.rpIdHashMismatch, step: "§7.1 step 14") { () throws in
            try other.verifyRegistration(
                Self.registration(origin: "https://example.co.uk"), expecting: expectations)
        }
    }
}
