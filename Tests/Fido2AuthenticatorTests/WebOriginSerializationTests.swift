import Fido2Authenticator
import Fido2Encoding
import Fido2WebAuthn
import Fido2WebAuthnTestSupport
import Fido2WebAuthnWire
import Testing

/// The software authenticator writes the origin into clientDataJSON as a browser serializes it
/// (lower-case scheme and host, no default port), whatever spelling it was given (issue 21).
@Suite struct WebOriginSerializationTests {
    @Test(arguments: [
        ("https://EXAMPLE.org", "https://example.org"),
        ("https://example.org:443", "https://example.org"),
        ("HTTPS://Login.Example.ORG:443", "https://login.example.org"),
        ("https://example.org:8443", "https://example.org:8443"),
        ("http://localhost:80", "http://localhost"),
        ("HTTP://App.LocalHost:8080", "http://app.localhost:8080"),
        ("https://example.org:80", "https://example.org:80"),
        ("http://localhost:443", "http://localhost:443"),
        ("https://[::1]:443", "https://[::1]"),
    ])
    func serializesAsABrowserDoes(_ given: String, _ serialized: String) throws {
        let origin = try WebOrigin(given)
        #expect(origin.serialized == serialized)
        #expect(origin.description == serialized)
        #expect(try WebOrigin(serialized) == origin)
    }

    @Test func theDefaultPortIsNoPort() throws {
        #expect(try WebOrigin("https://example.org:443").port == nil)
        #expect(try WebOrigin("https://example.org:8443").port == 8443)
    }

    @Test(arguments: ["https://EXAMPLE.org", "https://example.org:443", "HTTPS://Example.Org"])
    func clientDataCarriesTheSerializedOrigin(_ given: String) throws {
        let authenticator = SoftwareAuthenticator(store: InMemoryCredentialStore())
        let registration = try authenticator.makeCredential(
            options: creationOptions(algorithms: [-7]), origin: given)
        let created = try ClientDataJSON(bytes: registration.response.clientDataJSON)
        #expect(created.clientData.origin == "https://example.org")
        let assertion = try authenticator.getAssertion(
            options: requestOptions(allow: [registration.rawId]), origin: given)
        let asserted = try ClientDataJSON(bytes: assertion.response.clientDataJSON)
        #expect(asserted.clientData.origin == "https://example.org")
    }
}
