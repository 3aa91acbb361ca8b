import Fido2Authenticator
@_spi(Fido2Internals) import Fido2Crypto
import Fido2Encoding
import Fido2TestSupport
import Fido2WebAuthn
import Fido2WebAuthnTestSupport
import Fido2WebAuthnWire
import Testing

/// The software authenticator's registrations and assertions, verified end to end: every
/// algorithm it makes with every attestation it makes, then the assertions that follow.
@Suite struct RelyingPartySoftwareAuthenticatorTests {
    static let registrationChallenge = [UInt8](repeating: 0x11, count: 32)
    static let assertionChallenge = [UInt8](repeating: 0x22, count: 32)
    static let userHandle = Array("user-1".utf8)

    enum Attestation: String, CaseIterable, Sendable {
        case none, packedSelf, packedFull, fidoU2F
    }

    struct Case: CustomTestStringConvertible, Sendable {
        let algorithm: Int
        let attestation: Attestation
        var testDescription: String { "\(COSEAlgorithm(rawValue: algorithm)) \(attestation)" }
    }

    static let cases: [Case] = [-7, -257, -8, -47].flatMap { algorithm in
        Attestation.allCases.filter { $0 != .fidoU2F || algorithm == -7 }.map {
            Case(algorithm: algorithm, attestation: $0)
        }
    }

    @Test(arguments: cases)
    func registersAndAuthenticates(_ testCase: Case) throws {
        let pki = try TestAttestationPKI()
        var configuration = AuthenticatorConfiguration()
        configuration.aaguid = SyntheticCeremony.aaguid
        configuration.supportedAlgorithms.append(.es256K)
        switch testCase.attestation {
        case .none: configuration.attestation = .none
        case .packedSelf: configuration.attestation = .packedSelf
        case .packedFull:
            configuration.attestation = .packed(
                attestationKey: pki.attestationKey,
                certificateChain: [
                    try pki.packedCertificate(aaguid: SyntheticCeremony.aaguid.bytes).derEncoded
                ])
        case .fidoU2F:
            configuration.attestation = .fidoU2F(
                attestationKey: pki.attestationKey,
                certificate: try pki.certificate(
                    subject: try DistinguishedName([.commonName("U2F")])
                ).derEncoded)
        }
        let authenticator = SoftwareAuthenticator(
            configuration: configuration, store: InMemoryCredentialStore())
        let relyingParty = RelyingParty(
            id: "example.org", origins: ["https://example.org"],
            trustPolicy: pki.policy(format: "packed").trusting(
                [pki.root.certificate], for: "fido-u2f"))

        let registration = try relyingParty.verifyRegistration(
            authenticator.makeCredential(
                options: creationOptions(algorithms: [testCase.algorithm]),
                origin: "https://example.org"),
            expecting: RegistrationExpectations(
                challenge: Self.registrationChallenge,
                allowedAlgorithms: [COSEAlgorithm(rawValue: testCase.algorithm)]))
        #expect(registration.algorithm.rawValue == testCase.algorithm)
        switch testCase.attestation {
        case .none: #expect(registration.attestationType == .none)
        case .packedSelf: #expect(registration.attestationType == .selfAttestation)
        case .packedFull, .fidoU2F:
            #expect(registration.attestationType == .basic)
            guard case .verified = registration.trustPath else {
                Issue.record("\(registration.trustPath)")
                return
            }
        }

        var record = registration.credentialRecord(userHandle: Self.userHandle)
        var previous: AuthenticationResponseJSON?
        for _ in 0..<2 {
            let assertion = try authenticator.getAssertion(
                options: requestOptions(allow: [record.id]), origin: "https://example.org")
            let result = try relyingParty.verifyAuthentication(
                assertion,
                expecting: AuthenticationExpectations(
                    challenge: Self.assertionChallenge, credential: record,
                    allowCredentials: [record.id]))
            #expect(result.signCountVerdict == .advanced)
            #expect(result.signCount > record.signCount)
            record = result.updatedRecord
            previous = assertion
        }
        // Replaying the last assertion: its counter no longer advances, which fails by default
        // and is reported as a possible clone under the relaxation.
        let replay = try #require(previous)
        let expectations = AuthenticationExpectations(
            challenge: Self.assertionChallenge, credential: record)
        expectFailure(.signCountRegressed, step: "§7.2 step 22") { () throws in
            try relyingParty.verifyAuthentication(replay, expecting: expectations)
        }
        var relaxed = relyingParty
        relaxed.relaxations.insert(.acceptsSignCountRegression)
        let result = try relaxed.verifyAuthentication(replay, expecting: expectations)
        #expect(
            result.signCountVerdict
                == .possibleClone(stored: record.signCount, received: record.signCount))
        #expect(result.deviations.map(\.relaxation) == [.acceptsSignCountRegression])
    }

    /// ES256K is verified when the caller's algorithm list names it (above) and refused by
    /// default: it is not among the default `allowedAlgorithms`.
    @Test func refusesES256KUnlessTheCallerAllowsIt() throws {
        var configuration = AuthenticatorConfiguration()
        configuration.supportedAlgorithms = [.es256K]
        let authenticator = SoftwareAuthenticator(
            configuration: configuration, store: InMemoryCredentialStore())
        let relyingParty = RelyingParty(id: "example.org", origins: ["https://example.org"])
        let response = try authenticator.makeCredential(
            options: creationOptions(algorithms: [-47]), origin: "https://example.org")
        #expect(!RegistrationExpectations.supportedAlgorithms.contains(.es256K))
        expectFailure(.algorithmNotAllowed, step: "§7.1 step 20") {
            try relyingParty.verifyRegistration(
                response,
                expecting: RegistrationExpectations(challenge: Self.registrationChallenge))
        }
        let accepted = try relyingParty.verifyRegistration(
            response,
            expecting: RegistrationExpectations(
                challenge: Self.registrationChallenge,
                allowedAlgorithms: RegistrationExpectations.supportedAlgorithms + [.es256K]))
        #expect(accepted.algorithm == .es256K)
        #expect(accepted.credentialPublicKey.publicKey.kind == .secp256k1)
    }

    @Test func verifiesASyncedPasskeyFoundByItsUserHandle() throws {
        let authenticator = SoftwareAuthenticator(
            configuration: .syncedPasskey(), store: InMemoryCredentialStore())
        let relyingParty = RelyingParty(id: "example.org", origins: ["https://example.org"])
        let registration = try relyingParty.verifyRegistration(
            authenticator.makeCredential(options: creationOptions(), origin: "https://example.org"),
            expecting: RegistrationExpectations(challenge: Self.registrationChallenge))
        #expect(registration.backupEligible && registration.backupState)
        let record = registration.credentialRecord(userHandle: Self.userHandle)
        let assertion = try authenticator.getAssertion(
            options: requestOptions(), origin: "https://example.org")
        let result = try relyingParty.verifyAuthentication(
            assertion,
            expecting: AuthenticationExpectations(
                challenge: Self.assertionChallenge, credential: record,
                userIdentification: .byUserHandle))
        #expect(result.userHandle == Self.userHandle)
        #expect(result.signCountVerdict == .notUsed && result.backupState)
    }

    @Test func verifiesACrossOriginCeremonyFramedByAnAllowedPage() throws {
        let authenticator = SoftwareAuthenticator(store: InMemoryCredentialStore())
        let relyingParty = RelyingParty(
            id: "example.org", origins: ["https://example.org"],
            crossOrigin: .allowed(topOrigins: ["https://shop.example"]))
        let response = try authenticator.makeCredential(
            options: creationOptions(), origin: "https://example.org",
            topOrigin: "https://shop.example")
        let expectations = RegistrationExpectations(challenge: Self.registrationChallenge)
        _ = try relyingParty.verifyRegistration(response, expecting: expectations)
        expectFailure(.crossOriginNotAllowed, step: "§7.1 step 10") { () throws in
            try RelyingParty(id: "example.org", origins: ["https://example.org"])
                .verifyRegistration(response, expecting: expectations)
        }
    }

    @Test func readsExpectationsFromTheOptions() throws {
        let create = creationOptions(algorithms: [-7, -8], userVerification: .required)
        let registration = RegistrationExpectations(options: create)
        #expect(registration.challenge == Self.registrationChallenge)
        #expect(registration.requiresUserVerification)
        #expect(registration.allowedAlgorithms == [.es256, .edDSA])
        let defaults = RegistrationExpectations(options: creationOptions(algorithms: []))
        #expect(defaults.allowedAlgorithms == [.es256, .rs256])
        #expect(!defaults.requiresUserVerification)

        let authenticator = SoftwareAuthenticator(store: InMemoryCredentialStore())
        let relyingParty = RelyingParty(id: "example.org", origins: ["https://example.org"])
        let verified = try relyingParty.verifyRegistration(
            authenticator.makeCredential(options: create, origin: "https://example.org"),
            expecting: registration)
        let record = verified.credentialRecord(userHandle: Self.userHandle)
        for request in [
            requestOptions(allow: [record.id], userVerification: .required), requestOptions(),
        ] {
            let expectations = AuthenticationExpectations(options: request, credential: record)
            #expect(expectations.challenge == Self.assertionChallenge)
            #expect(
                expectations.userIdentification
                    == (request.allowCredentials.isEmpty ? .byUserHandle : .beforeCeremony))
            #expect(
                expectations.requiresUserVerification == (request.userVerification == .required))
            _ = try relyingParty.verifyAuthentication(
                authenticator.getAssertion(options: request, origin: "https://example.org"),
                expecting: expectations)
        }
    }
}
