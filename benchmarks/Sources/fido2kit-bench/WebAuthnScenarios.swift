import BenchmarkHarness
import Fido2Authenticator
import Fido2Crypto
import Fido2Encoding
import Fido2WebAuthn
import Fido2WebAuthnWire

/// The software authenticator's two ceremonies against the signature work they cannot avoid
/// (issue 4's targets): a full ES256 assertion, request options JSON in and
/// AuthenticationResponseJSON bytes out with an in-memory store, costs at most 1.15x a bare
/// ES256 sign of the same bytes; a full ES256 registration with packed self attestation, options
/// JSON in and RegistrationResponseJSON bytes out, at most 1.20x the floor any registration pays
/// on OpenSSL 3.0 (issue 24's floor, issue 34's target): a P-256 keygen, the export of its public
/// key and one sign.
enum WebAuthnScenarios {
    static let origin = "https://example.org"

    static let creationOptions = Array(
        #"""
        {"rp":{"name":"Example","id":"example.org"},"user":{"id":"dXNlci1pZC0wMDE","name":"alice@example.org","displayName":"Alice"},"challenge":"AAECAwQFBgcICQoLDA0ODxAREhMUFRYXGBkaGxwdHh8","pubKeyCredParams":[{"type":"public-key","alg":-7},{"type":"public-key","alg":-257}],"timeout":60000,"authenticatorSelection":{"residentKey":"required","userVerification":"preferred"},"attestation":"direct"}
        """#.utf8)

    /// A store that keeps nothing, so millions of benchmark registrations do not pile up.
    final class DiscardingStore: CredentialStore {
        func credential(id: [UInt8]) throws -> StoredCredential? { nil }
        func credentials(relyingPartyID: String) throws -> [StoredCredential] { [] }
        func add(_ credential: StoredCredential) throws {}
        func replace(_ credential: StoredCredential) throws {}
        /// Holds nothing, so every ID is unknown, as to an empty store.
        func update(
            id: [UInt8], _ change: (inout StoredCredential) throws -> Void
        ) throws -> StoredCredential {
            try InMemoryCredentialStore().update(id: id, change)
        }
        func remove(id: [UInt8]) throws {
            try InMemoryCredentialStore().remove(id: id)
        }
    }

    static func checksum(_ bytes: [UInt8]) -> UInt64 {
        UInt64(bytes.count) &+ UInt64(bytes.last ?? 0)
    }

    /// The packed-self registration's authenticator: it keeps nothing.
    static func registeringAuthenticator() -> SoftwareAuthenticator {
        var configuration = AuthenticatorConfiguration()
        configuration.attestation = .packedSelf
        return SoftwareAuthenticator(configuration: configuration, store: DiscardingStore())
    }

    /// One whole registration, creation options JSON in and response JSON out, as a checksum.
    static func registerOnce(_ authenticator: SoftwareAuthenticator) -> UInt64 {
        guard
            let response = try? authenticator.makeCredential(
                optionsJSON: creationOptions, origin: origin)
        else { return 0 }
        return checksum(response.jsonBytes())
    }

    /// The crypto floor of any registration, and the registration target's baseline: a P-256
    /// keygen, the export of the new public key (whose affine coordinates cost OpenSSL a field
    /// inversion that keygen alone never pays) and one sign over bytes of a packed-self
    /// registration's lengths (authenticator data ‖ clientDataHash).
    static func registrationFloor() -> UInt64 {
        guard let fresh = try? PrivateKey(generating: .p256),
            let point = try? fresh.publicKey.uncompressedPoint
        else { return 0 }
        return checksum(point)
            &+ checksum(
                (try? fresh.signature(
                    for: registrationAuthData, clientDataHash, algorithm: .es256)) ?? [])
    }

    static let registrationAuthData = [UInt8](repeating: 0x5a, count: 164)
    static let clientDataHash = [UInt8](repeating: 0xa5, count: 32)

    /// The assertion side's set-up, shared with ``AssertionStepsScenario``: one ES256
    /// credential in an in-memory store, and request options JSON that allow it.
    struct AssertionFixture {
        let store: InMemoryCredentialStore
        let authenticator: SoftwareAuthenticator
        let credentialId: [UInt8]
        let requestOptions: [UInt8]
        let privateKey: PrivateKey

        /// One whole assertion, options JSON in and response JSON out, as a checksum.
        func assertOnce() -> UInt64 {
            guard
                let response = try? authenticator.getAssertion(
                    optionsJSON: requestOptions, origin: origin)
            else { return 0 }
            return checksum(response.jsonBytes())
        }

        static func make() -> AssertionFixture {
            let store = InMemoryCredentialStore()
            let authenticator = SoftwareAuthenticator(store: store)
            do {
                let credentialId = try authenticator.makeCredential(
                    optionsJSON: creationOptions, origin: origin
                )
                .rawId
                let requestOptions = PublicKeyCredentialRequestOptionsJSON(
                    challenge: (0..<32).map { UInt8($0 &* 3) }, timeout: 60000,
                    rpId: "example.org",
                    allowCredentials: [PublicKeyCredentialDescriptorJSON(id: credentialId)],
                    userVerification: .preferred
                ).jsonBytes()
                guard let privateKey = try store.credential(id: credentialId)?.privateKey else {
                    fatalError("benchmark set-up: credential not stored")
                }
                return AssertionFixture(
                    store: store, authenticator: authenticator, credentialId: credentialId,
                    requestOptions: requestOptions, privateKey: privateKey)
            } catch {
                fatalError("benchmark set-up: \(error)")
            }
        }
    }

    static var all: [Scenario] {
        let assertion = AssertionFixture.make()
        // The bare sign: the same key over bytes of the same length (authData ‖ clientDataHash).
        let key = assertion.privateKey
        let authenticatorData = [UInt8](repeating: 0x5a, count: 37)
        let registering = registeringAuthenticator()

        return [
            Scenario(
                "WebAuthn: ES256 assertion (request options JSON → AuthenticationResponseJSON)",
                competitors: [
                    Competitor("fido2kit getAssertion") { assertion.assertOnce() },
                    Competitor("bare ES256 sign") {
                        checksum(
                            (try? key.signature(
                                for: authenticatorData, clientDataHash, algorithm: .es256)) ?? [])
                    },
                ],
                checks: [
                    .init(
                        "fido2kit getAssertion", against: "bare ES256 sign",
                        .costOfBaseline(atMost: 1.15))
                ]),
            Scenario(
                "WebAuthn: ES256 registration, packed self (creation options JSON → RegistrationResponseJSON)",
                competitors: [
                    Competitor("fido2kit makeCredential") { registerOnce(registering) },
                    Competitor("P-256 keygen + ES256 sign") {
                        guard let fresh = try? PrivateKey(generating: .p256) else { return 0 }
                        return checksum(
                            (try? fresh.signature(
                                for: registrationAuthData, clientDataHash, algorithm: .es256)) ?? []
                        )
                    },
                    Competitor("P-256 keygen + public key + ES256 sign") { registrationFloor() },
                ],
                checks: [
                    .init(
                        "fido2kit makeCredential",
                        against: "P-256 keygen + public key + ES256 sign",
                        .costOfBaseline(atMost: 1.20))
                ]),
        ]
    }
}
