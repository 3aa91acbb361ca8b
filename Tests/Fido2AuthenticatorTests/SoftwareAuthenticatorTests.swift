import Fido2Authenticator
import Fido2Crypto
import Fido2Encoding
import Fido2Vectors
import Fido2WebAuthn
import Fido2WebAuthnTestSupport
import Fido2WebAuthnWire
import Testing

@Suite struct SoftwareAuthenticatorTests {
    static let origin = "https://example.org"

    @Test(arguments: [(-7, "ES256"), (-257, "RS256"), (-8, "EdDSA")])
    func registersAndAssertsWithEachDefaultAlgorithm(_ alg: Int, _ name: String) throws {
        var configuration = AuthenticatorConfiguration()
        configuration.attestation = .packedSelf
        let store = InMemoryCredentialStore()
        let authenticator = SoftwareAuthenticator(configuration: configuration, store: store)
        let registration = try authenticator.makeCredential(
            options: creationOptions(algorithms: [alg]), origin: Self.origin)
        let key = try checkRegistration(registration)
        #expect(key.algorithm.rawValue == alg, "\(name)")
        let object = try AttestationObject(bytes: registration.response.attestationObject)
        #expect(object.format == "packed")
        #expect(
            object.authenticatorData.flags == [
                .userPresent, .userVerified, .attestedCredentialData,
            ])
        #expect(object.authenticatorData.signCount == 0)
        #expect(registration.response.transports == [.internal, .hybrid])
        #expect(registration.authenticatorAttachment == .platform)
        #expect(registration.rawId.count == 32)
        for expected in 1...3 {
            let assertion = try authenticator.getAssertion(
                options: requestOptions(allow: [registration.rawId]), origin: Self.origin)
            let authData = try checkAssertion(assertion, key: key)
            #expect(authData.signCount == UInt32(expected))
            #expect(authData.flags == [.userPresent, .userVerified])
            #expect(assertion.rawId == registration.rawId)
            #expect(assertion.response.userHandle == Array("user-1".utf8))
            #expect(try store.credential(id: registration.rawId)?.signCount == UInt32(expected))
        }
    }

    @Test func makesFullPackedAttestationWithTheConfiguredChain() throws {
        let attestationKey = try PrivateKey(generating: .p256)
        let chain: [[UInt8]] = [[0x30, 0x01, 0x00], [0x30, 0x01, 0x01]]
        var configuration = AuthenticatorConfiguration()
        configuration.attestation = .packed(attestationKey: attestationKey, certificateChain: chain)
        configuration.aaguid = AAGUID(uuidString: "8f1b4b6e-0c3a-4b2e-9d55-3c2a1e7f9a10") ?? .zero
        let authenticator = SoftwareAuthenticator(
            configuration: configuration, store: InMemoryCredentialStore())
        let registration = try authenticator.makeCredential(
            options: creationOptions(algorithms: [-8]), origin: Self.origin)
        try checkRegistration(registration)
        let object = try AttestationObject(bytes: registration.response.attestationObject)
        guard case .packed(let packed) = object.statement else {
            Issue.record("not packed")
            return
        }
        #expect(packed.algorithm == .es256)
        #expect(packed.certificates?.map { Array($0) } == chain)
        #expect(
            try attestationKey.publicKey.isValidSignature(
                packed.signature, for: object.authenticatorData.bytes,
                DigestAlgorithm.sha256.hash(registration.response.clientDataJSON), algorithm: .es256
            ))
        #expect(
            object.authenticatorData.attestedCredentialData?.aaguid.description
                == "8f1b4b6e-0c3a-4b2e-9d55-3c2a1e7f9a10")
    }

    @Test func makesFIDOU2FAttestationWithOnlyUPAndAT() throws {
        let attestationKey = try PrivateKey(generating: .p256)
        var configuration = AuthenticatorConfiguration.syncedPasskey()
        configuration.attestation = .fidoU2F(
            attestationKey: attestationKey, certificate: [0x30, 0x00])
        let authenticator = SoftwareAuthenticator(
            configuration: configuration, store: InMemoryCredentialStore())
        // RS256 first: U2F can only do ES256, so ES256 is picked.
        let registration = try authenticator.makeCredential(
            options: creationOptions(algorithms: [-257, -7]), origin: Self.origin)
        let object = try AttestationObject(bytes: registration.response.attestationObject)
        #expect(object.authenticatorData.flags == [.userPresent, .attestedCredentialData])
        guard case .fidoU2F(let u2f) = object.statement else {
            Issue.record("not fido-u2f")
            return
        }
        let message = try FIDOU2FAttestationStatement.signedBytes(
            authenticatorData: object.authenticatorData,
            clientDataHash: DigestAlgorithm.sha256.hash(registration.response.clientDataJSON))
        #expect(
            try attestationKey.publicKey.isValidSignature(
                u2f.signature, for: message, algorithm: .es256))
        let rsaOnly = SoftwareAuthenticator(
            configuration: configuration, store: InMemoryCredentialStore())
        expectAuthenticatorError(.noSupportedAlgorithm) {
            _ = try rsaOnly.makeCredential(
                options: creationOptions(algorithms: [-257]), origin: Self.origin)
        }
    }

    @Test func picksTheFirstSupportedAlgorithmInTheRelyingPartysOrder() throws {
        let authenticator = SoftwareAuthenticator(store: InMemoryCredentialStore())
        let picked = try authenticator.makeCredential(
            options: creationOptions(algorithms: [-36, -8, -7]), origin: Self.origin)
        #expect(picked.response.publicKeyAlgorithm == -8)
        let defaulted = try authenticator.makeCredential(
            options: creationOptions(algorithms: []), origin: Self.origin)
        #expect(defaulted.response.publicKeyAlgorithm == -7)
        expectAuthenticatorError(.noSupportedAlgorithm) {
            _ = try authenticator.makeCredential(
                options: creationOptions(algorithms: [-36, -35, -49]), origin: Self.origin)
        }
        var wider = AuthenticatorConfiguration()
        wider.supportedAlgorithms = [.es512, .ed448, .ps256]
        let more = SoftwareAuthenticator(configuration: wider, store: InMemoryCredentialStore())
        for alg in [-36, -53, -37] {
            let response = try more.makeCredential(
                options: creationOptions(algorithms: [alg]), origin: Self.origin)
            let key = try checkRegistration(response)
            #expect(key.algorithm.rawValue == alg)
            let assertion = try more.getAssertion(
                options: requestOptions(allow: [response.rawId]), origin: Self.origin)
            try checkAssertion(assertion, key: key)
        }
    }

    @Test func refusesACredentialItAlreadyHoldsInExcludeCredentials() throws {
        let store = InMemoryCredentialStore()
        let authenticator = SoftwareAuthenticator(store: store)
        let first = try authenticator.makeCredential(
            options: creationOptions(), origin: Self.origin)
        expectAuthenticatorError(.credentialExcluded) {
            _ = try authenticator.makeCredential(
                options: creationOptions(exclude: [[1, 2, 3], first.rawId]), origin: Self.origin)
        }
        #expect(store.count == 1)
        // An ID it does not hold does not exclude.
        _ = try authenticator.makeCredential(
            options: creationOptions(exclude: [[9, 9]]), origin: Self.origin)
        #expect(store.count == 2)
    }

    @Test func honoursUserVerificationRequirements() throws {
        let authenticator = SoftwareAuthenticator(store: InMemoryCredentialStore())
        let discouraged = try authenticator.makeCredential(
            options: creationOptions(userVerification: .discouraged), origin: Self.origin)
        let flags = try AttestationObject(bytes: discouraged.response.attestationObject)
            .authenticatorData.flags
        #expect(!flags.contains(.userVerified))
        var noUV = AuthenticatorConfiguration()
        noUV.supportsUserVerification = false
        let securityKey = SoftwareAuthenticator(
            configuration: noUV, store: InMemoryCredentialStore())
        expectAuthenticatorError(.userVerificationUnavailable) {
            _ = try securityKey.makeCredential(
                options: creationOptions(userVerification: .required), origin: Self.origin)
        }
        let preferred = try securityKey.makeCredential(
            options: creationOptions(), origin: Self.origin)
        let key = try checkRegistration(preferred)
        expectAuthenticatorError(.userVerificationUnavailable) {
            _ = try securityKey.getAssertion(
                options: requestOptions(allow: [preferred.rawId], userVerification: .required),
                origin: Self.origin)
        }
        let assertion = try securityKey.getAssertion(
            options: requestOptions(allow: [preferred.rawId]), origin: Self.origin)
        #expect(try checkAssertion(assertion, key: key).flags == [.userPresent])
    }

    @Test func honoursResidentKeyRequirementsAndAnswersCredProps() throws {
        let store = InMemoryCredentialStore()
        let authenticator = SoftwareAuthenticator(store: store)
        let credProps: JSONObject = ["credProps": true]
        let discoverable = try authenticator.makeCredential(
            options: creationOptions(residentKey: .preferred, extensions: credProps),
            origin: Self.origin)
        #expect(discoverable.clientExtensionResults == ["credProps": ["rk": true]])
        let serverSide = try authenticator.makeCredential(
            options: creationOptions(residentKey: nil, extensions: credProps), origin: Self.origin)
        #expect(serverSide.clientExtensionResults == ["credProps": ["rk": false]])
        #expect(try store.credential(id: serverSide.rawId)?.isDiscoverable == false)
        // An empty allow list finds the discoverable one only.
        let assertion = try authenticator.getAssertion(
            options: requestOptions(), origin: Self.origin)
        #expect(assertion.rawId == discoverable.rawId)

        var noResidentKeys = AuthenticatorConfiguration()
        noResidentKeys.supportsDiscoverableCredentials = false
        let limited = SoftwareAuthenticator(
            configuration: noResidentKeys, store: InMemoryCredentialStore())
        expectAuthenticatorError(.residentKeyUnavailable) {
            _ = try limited.makeCredential(
                options: creationOptions(residentKey: .required), origin: Self.origin)
        }
        _ = try limited.makeCredential(
            options: creationOptions(residentKey: .preferred), origin: Self.origin)
        expectAuthenticatorError(.noDiscoverableCredential) {
            _ = try limited.getAssertion(options: requestOptions(), origin: Self.origin)
        }
    }

    @Test func reportsMissingCredentials() throws {
        let authenticator = SoftwareAuthenticator(store: InMemoryCredentialStore())
        expectAuthenticatorError(.noDiscoverableCredential) {
            _ = try authenticator.getAssertion(options: requestOptions(), origin: Self.origin)
        }
        let registration = try authenticator.makeCredential(
            options: creationOptions(), origin: Self.origin)
        expectAuthenticatorError(.noMatchingCredential) {
            _ = try authenticator.getAssertion(
                options: requestOptions(allow: [[1, 2, 3]]), origin: Self.origin)
        }
        // The credential is example.org's: another RP ID does not find it.
        expectAuthenticatorError(.noMatchingCredential) {
            var options = requestOptions(allow: [registration.rawId])
            options.rpId = "login.example.org"
            _ = try authenticator.getAssertion(
                options: options, origin: "https://login.example.org")
        }
    }

    @Test func keepsTheCounterAtZeroForSyncedPasskeys() throws {
        let store = InMemoryCredentialStore()
        let authenticator = SoftwareAuthenticator(configuration: .syncedPasskey(), store: store)
        let registration = try authenticator.makeCredential(
            options: creationOptions(), origin: Self.origin)
        let key = try checkRegistration(registration)
        let flags = try AttestationObject(bytes: registration.response.attestationObject)
            .authenticatorData.flags
        #expect(
            flags == [
                .userPresent, .userVerified, .backupEligible, .backupState, .attestedCredentialData,
            ])
        for _ in 0..<2 {
            let assertion = try authenticator.getAssertion(
                options: requestOptions(), origin: Self.origin)
            let authData = try checkAssertion(assertion, key: key)
            #expect(authData.signCount == 0)
            #expect(authData.flags == [.userPresent, .userVerified, .backupEligible, .backupState])
        }
        #expect(try store.credential(id: registration.rawId)?.signCount == 0)
    }

    @Test func refusesToAssertWithAnExhaustedCounterAndLeavesTheStoreAlone() throws {
        let store = InMemoryCredentialStore()
        let key = try PrivateKey(generating: .p256)
        try store.add(
            StoredCredential(
                id: [7, 7, 7], relyingPartyID: "example.org", userHandle: [1], userName: "u",
                userDisplayName: "U", privateKey: key, algorithm: .es256, signCount: UInt32.max,
                isDiscoverable: true))
        let authenticator = SoftwareAuthenticator(store: store)
        expectAuthenticatorError(.signCountExhausted) {
            _ = try authenticator.getAssertion(
                options: requestOptions(allow: [[7, 7, 7]]), origin: Self.origin)
        }
        #expect(try store.credential(id: [7, 7, 7])?.signCount == UInt32.max)
    }

    @Test func writesCrossOriginClientData() throws {
        let authenticator = SoftwareAuthenticator(store: InMemoryCredentialStore())
        let registration = try authenticator.makeCredential(
            options: creationOptions(), origin: Self.origin, topOrigin: "https://top.example.com")
        let clientData = try ClientDataJSON(bytes: registration.response.clientDataJSON).clientData
        #expect(clientData.crossOrigin && clientData.topOrigin == "https://top.example.com")
    }

    @Test func readsOptionsFromJSON() throws {
        let authenticator = SoftwareAuthenticator(store: InMemoryCredentialStore())
        let registration = try authenticator.makeCredential(
            optionsJSON: creationOptions().jsonBytes(), origin: Self.origin)
        let key = try checkRegistration(registration)
        let assertion = try authenticator.getAssertion(
            optionsJSON: requestOptions(allow: [registration.rawId]).jsonBytes(),
            origin: Self.origin)
        try checkAssertion(assertion, key: key)
        let missing = expectAuthenticatorError(.invalidOptions) {
            _ = try authenticator.makeCredential(
                optionsJSON: Array(#"{"rp":{"name":"x"}}"#.utf8), origin: Self.origin)
        }
        #expect(missing?.underlying?.code == .missingMember)
        #expect(missing?.field == missing?.underlying?.field)
        let malformed = expectAuthenticatorError(.invalidOptions) {
            _ = try authenticator.getAssertion(optionsJSON: Array("{".utf8), origin: Self.origin)
        }
        #expect(malformed?.underlying?.code == .malformedJSON)
        #expect(malformed?.description == malformed?.underlying?.description)
    }
}

@Suite struct DeterministicAuthenticatorTests {
    static func run(seed: [UInt8], algorithm: Int) throws -> ([UInt8], [UInt8]) {
        var base = AuthenticatorConfiguration()
        base.attestation = .packedSelf
        let configuration = try AuthenticatorConfiguration.deterministic(seed: seed, base: base)
        let authenticator = SoftwareAuthenticator(
            configuration: configuration, store: InMemoryCredentialStore())
        let registration = try authenticator.makeCredential(
            options: creationOptions(algorithms: [algorithm]), origin: "https://example.org")
        try checkRegistration(registration)
        let assertion = try authenticator.getAssertion(
            options: requestOptions(allow: [registration.rawId]), origin: "https://example.org")
        return (registration.jsonBytes(), assertion.jsonBytes())
    }

    @Test(arguments: [-7, -8, -257])
    func givesIdenticalBytesForIdenticalInputs(_ algorithm: Int) throws {
        let seed = Array("fido2kit deterministic test seed, 32+ bytes".utf8)
        let first = try Self.run(seed: seed, algorithm: algorithm)
        let second = try Self.run(seed: seed, algorithm: algorithm)
        #expect(first.0 == second.0)
        #expect(first.1 == second.1)
        let other = try Self.run(seed: seed + [1], algorithm: algorithm)
        #expect(other.0 != first.0)
    }
}

@Suite struct RelyingPartyIDPolicyTests {
    @Test(arguments: [
        ("https://example.org", "example.org"),
        ("https://login.example.org", "example.org"),
        ("https://a.b.login.example.org:8443", "login.example.org"),
        ("https://shop.example.co.uk", "example.co.uk"),
        ("https://pix.banco.com.br", "banco.com.br"),
        ("http://localhost:8080", "localhost"),
        ("http://app.localhost", "localhost"),
        ("https://EXAMPLE.org", "Example.ORG"),
        ("https://intranet", "intranet"),
    ])
    func acceptsTheHostAndItsRegistrableSuffixes(_ origin: String, _ rpId: String) throws {
        #expect(
            try RelyingPartyIDPolicy.validate(rpId, for: WebOrigin(origin)) == rpId.lowercased())
    }

    @Test(arguments: [
        ("https://example.org", "org"),
        ("https://example.com", "com"),
        ("https://shop.example.co.uk", "co.uk"),
        ("https://pix.banco.com.br", "com.br"),
        ("https://me.github.io", "github.io"),
        ("https://example.org", "evil.org"),
        ("https://example.org", "ample.org"),
        ("https://example.org", "login.example.org"),
        ("https://192.168.1.10", "192.168.1.10"),
        ("https://[::1]:443", "::1"),
        ("https://example.org", "exa mple.org"),
        ("https://example.org", ""),
    ])
    func refusesOtherRPIDs(_ origin: String, _ rpId: String) throws {
        let parsed = try WebOrigin(origin)
        expectAuthenticatorError(.invalidRelyingPartyID) {
            _ = try RelyingPartyIDPolicy.validate(rpId, for: parsed)
        }
    }

    @Test(arguments: [
        "example.org", "ftp://example.org", "http://example.org", "https://",
        "https://example.org/",
        "https://example.org/path", "https://user@example.org", "https://example.org:0",
        "https://example.org:70000", "https://example.org:x", "https://exa_mple.org",
        "https://-a.org",
        "https://ex%61mple.org", "https://éxample.org", "https://[::1", "https://example.org.",
    ])
    func refusesMalformedOrInsecureOrigins(_ origin: String) {
        expectAuthenticatorError(.invalidOrigin) { _ = try WebOrigin(origin) }
    }

    @Test func refusesThroughTheAuthenticator() throws {
        let authenticator = SoftwareAuthenticator(store: InMemoryCredentialStore())
        expectAuthenticatorError(.invalidRelyingPartyID) {
            _ = try authenticator.makeCredential(
                options: creationOptions(), origin: "https://example.com")
        }
        expectAuthenticatorError(.invalidOrigin) {
            _ = try authenticator.makeCredential(
                options: creationOptions(), origin: "http://example.org")
        }
        // Without rp.id the origin's host is the RP ID.
        let response = try authenticator.makeCredential(
            options: creationOptions(rpId: nil), origin: "https://login.example.org:8443")
        try checkRegistration(
            response, origin: "https://login.example.org:8443", rpId: "login.example.org")
    }
}
