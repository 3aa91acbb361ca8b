import Fido2Authenticator
import Fido2Crypto
import Fido2Encoding
import Fido2Vectors
import Fido2WebAuthn
import Fido2WebAuthnTestSupport
import Fido2WebAuthnWire
import Foundation
import Testing

/// The two-call ceremonies (`beginRegistration`/`finishRegistration`,
/// `beginAuthentication`/`finishAuthentication`) with the software authenticator as the
/// browser: the options they write, the states they keep, and every refusal they owe.
@Suite struct RelyingPartyCeremonyTests {
    static let origin = "https://bank.example.com.br"
    static let relyingParty = RelyingParty(
        id: "bank.example.com.br", name: "Example Bank", origins: [origin])
    static let user = PublicKeyCredentialUserEntityJSON(
        id: Array("user-0001".utf8), name: "alice", displayName: "Alice")

    /// A browser: a software authenticator answering the options' JSON text, as
    /// `parseCreationOptionsFromJSON` and `toJSON()` would see it.
    struct Browser {
        let authenticator: SoftwareAuthenticator

        init(configuration: AuthenticatorConfiguration = .init()) {
            authenticator = SoftwareAuthenticator(
                configuration: configuration, store: InMemoryCredentialStore())
        }

        func create(
            _ pending: PendingRegistration, origin: String = RelyingPartyCeremonyTests.origin
        ) throws -> String {
            try authenticator.makeCredential(
                optionsJSON: Array(pending.optionsJSON.utf8), origin: origin
            ).jsonText()
        }

        func get(
            _ pending: PendingAuthentication, origin: String = RelyingPartyCeremonyTests.origin
        ) throws -> String {
            try authenticator.getAssertion(
                optionsJSON: Array(pending.optionsJSON.utf8), origin: origin
            ).jsonText()
        }
    }

    func register(
        _ browser: Browser, user: PublicKeyCredentialUserEntityJSON = Self.user,
        excluding: [CredentialRecord] = []
    ) throws -> CredentialRecord {
        let registration = try Self.relyingParty.beginRegistration(
            user: user, excludeCredentials: excluding)
        return try Self.relyingParty.finishRegistration(
            responseJSON: try browser.create(registration), state: registration.state)
    }

    // MARK: Begin

    @Test func writesOptionsABrowserReads() throws {
        let registration = try Self.relyingParty.beginRegistration(user: Self.user)
        let options = try PublicKeyCredentialCreationOptionsJSON(
            jsonText: registration.optionsJSON)
        #expect(options == registration.options)
        #expect(
            options.rp
                == PublicKeyCredentialRpEntity(name: "Example Bank", id: "bank.example.com.br"))
        #expect(options.user == Self.user)
        #expect(options.challenge.count == 32)
        #expect(options.pubKeyCredParams.map(\.algorithm) == [.es256, .edDSA, .rs256])
        #expect(options.timeout == 300_000)
        #expect(options.attestation == .none)
        #expect(
            options.authenticatorSelection
                == AuthenticatorSelectionCriteria(
                    residentKey: .preferred, requireResidentKey: false,
                    userVerification: .preferred))
        let state = registration.state
        #expect(state.challenge == options.challenge)
        #expect(state.relyingPartyID == "bank.example.com.br")
        #expect(state.user == Self.user)
        let now = Int64(Date().timeIntervalSince1970 * 1000)
        #expect((now + 299_000...now + 301_000).contains(state.expiresAt))

        let authentication = try Self.relyingParty.beginAuthentication()
        let request = try PublicKeyCredentialRequestOptionsJSON(
            jsonText: authentication.optionsJSON)
        #expect(request.rpId == "bank.example.com.br")
        #expect(request.allowCredentials.isEmpty)
        #expect(request.challenge == authentication.state.challenge)
        #expect(request.challenge.count == 32)
    }

    @Test func everyBeginHasItsOwnChallenge() throws {
        var challenges: Set<[UInt8]> = []
        for _ in 0..<50 {
            challenges.insert(
                try Self.relyingParty.beginRegistration(user: Self.user).state.challenge)
            challenges.insert(try Self.relyingParty.beginAuthentication().state.challenge)
        }
        #expect(challenges.count == 100)
    }

    @Test func passesTheOptionsThrough() throws {
        var options = RegistrationOptions()
        options.userVerification = .required
        options.residentKey = .required
        options.authenticatorAttachment = .crossPlatform
        options.attestation = .direct
        options.attestationFormats = ["packed"]
        options.algorithms = [.es256]
        options.timeout = 60_000
        options.hints = [.securityKey]
        options.extensions = ["credProps": true]
        let registration = try Self.relyingParty.beginRegistration(
            user: Self.user, options: options)
        let written = registration.options
        #expect(written.authenticatorSelection?.requireResidentKey == true)
        #expect(written.authenticatorSelection?.authenticatorAttachment == .crossPlatform)
        #expect(written.authenticatorSelection?.userVerification == .required)
        #expect(written.attestation == .direct && written.attestationFormats == ["packed"])
        #expect(written.pubKeyCredParams == [PublicKeyCredentialParameters(algorithm: .es256)])
        #expect(written.timeout == 60_000 && written.hints == [.securityKey])
        #expect(written.extensions == ["credProps": true])
        #expect(registration.state.userVerification == .required)
        #expect(registration.state.algorithms == [.es256])
        #expect(registration.state.attestation == .direct)
    }

    @Test func refusesOptionsNoCeremonyCanUse() {
        expectFailure(.invalidValue, step: "§7.1 step 1") { () throws in
            try Self.relyingParty.beginRegistration(
                user: PublicKeyCredentialUserEntityJSON(id: [], name: "a", displayName: "A"))
        }
        expectFailure(.invalidValue, step: "§7.1 step 1") { () throws in
            try Self.relyingParty.beginRegistration(
                user: PublicKeyCredentialUserEntityJSON(
                    id: [UInt8](repeating: 1, count: 65), name: "a", displayName: "A"))
        }
        var noAlgorithms = RegistrationOptions()
        noAlgorithms.algorithms = []
        expectFailure(.invalidValue, step: "§7.1 step 1") { () throws in
            try Self.relyingParty.beginRegistration(user: Self.user, options: noAlgorithms)
        }
        var otherID = AuthenticationOptions()
        otherID.relyingPartyID = "example.org"
        expectFailure(.invalidRelyingPartyID, step: "§7.2 step 1") { () throws in
            try Self.relyingParty.beginAuthentication(options: otherID)
        }
        var noTime = AuthenticationOptions()
        noTime.timeout = 0
        expectFailure(.invalidValue, step: "§7.2 step 1") { () throws in
            try Self.relyingParty.beginAuthentication(options: noTime)
        }
    }

    // MARK: Registration

    /// A server hands the request body over as bytes and reads each body once: the sign-in's
    /// reference keeps the parsed response for the finish call.
    @Test func finishesBothCeremoniesFromTheBodysBytes() throws {
        let browser = Browser()
        let registration = try Self.relyingParty.beginRegistration(user: Self.user)
        let registrationBody = Array(try browser.create(registration).utf8)
        let record = try Self.relyingParty.finishRegistration(
            responseBytes: registrationBody, state: registration.state)
        #expect(record.userHandle == Self.user.id)

        let authentication = try Self.relyingParty.beginAuthentication(allowCredentials: [record])
        let body = Array(try browser.get(authentication).utf8)
        let reference = try Self.relyingParty.credentialReference(responseBytes: body)
        #expect(reference.credentialId == record.id)
        #expect(reference.response == (try AuthenticationResponseJSON(jsonBytes: body)))
        let verified = try Self.relyingParty.finishAuthentication(
            reference, state: authentication.state, credential: record)
        #expect(verified.updatedRecord.signCount == 1)
        // A reference made from its parts holds no response to verify.
        let parts = CredentialReference(credentialId: record.id, userHandle: nil)
        expectFailure(.invalidValue, step: "§7.2 step 3") {
            try Self.relyingParty.finishAuthentication(
                parts, state: authentication.state, credential: record)
        }
        // Bytes that are not a response fail where text does.
        expectFailure(.malformedJSON, step: "§7.2 step 3") {
            try Self.relyingParty.credentialReference(responseBytes: Array("{".utf8))
        }
        expectFailure(.malformedJSON, step: "§7.1 step 3") {
            try Self.relyingParty.finishRegistration(
                responseBytes: Array("{".utf8), state: registration.state)
        }
    }

    @Test func registersACredentialWithEveryMemberOfItsRecord() throws {
        let browser = Browser()
        let registration = try Self.relyingParty.beginRegistration(user: Self.user)
        let responseJSON = try browser.create(registration)
        let record = try Self.relyingParty.finishRegistration(
            responseJSON: responseJSON, state: registration.state)
        let response = try RegistrationResponseJSON(jsonText: responseJSON)
        #expect(record.type == "public-key")
        #expect(record.id == response.rawId)
        #expect(record.userHandle == Self.user.id)
        #expect(record.publicKey.algorithm == .es256)
        #expect(record.signCount == 0)
        #expect(record.transports == [.internal, .hybrid])
        #expect(record.uvInitialized)
        #expect(!record.backupEligible && !record.backupState)
        #expect(record.attestationObject == response.response.attestationObject)
        #expect(record.attestationClientDataJSON == response.response.clientDataJSON)
    }

    @Test func honoursExcludeCredentials() throws {
        // Two authenticators with one seed make the same credential: the second stands for a
        // client that ignored excludeCredentials.
        let seed = Array("exclude".utf8)
        let first = Browser(configuration: try .deterministic(seed: seed))
        let record = try register(first)
        let registration = try Self.relyingParty.beginRegistration(
            user: Self.user, excludeCredentials: [record])
        #expect(
            registration.options.excludeCredentials
                == [
                    PublicKeyCredentialDescriptorJSON(
                        id: record.id, transports: [.internal, .hybrid])
                ])
        #expect(registration.state.excludedCredentials == [record.id])
        expectAuthenticatorError(.credentialExcluded) { _ = try first.create(registration) }
        let second = Browser(configuration: try .deterministic(seed: seed))
        let again = try second.create(registration)
        expectFailure(.credentialExcluded, step: "§7.1 step 26") { () throws in
            try Self.relyingParty.finishRegistration(
                responseJSON: again, state: registration.state)
        }
    }

    @Test func refusesAnotherCeremonysState() throws {
        let browser = Browser()
        let registration = try Self.relyingParty.beginRegistration(user: Self.user)
        let other = try Self.relyingParty.beginRegistration(user: Self.user)
        let response = try browser.create(registration)
        expectFailure(.challengeMismatch, step: "§7.1 step 8") { () throws in
            try Self.relyingParty.finishRegistration(responseJSON: response, state: other.state)
        }
        // Another relying party's state.
        let elsewhere = RelyingParty(id: "example.org", origins: ["https://example.org"])
        let foreign = try elsewhere.beginRegistration(user: Self.user)
        expectFailure(.ceremonyStateMismatch, step: "§7.1 step 1") { () throws in
            try Self.relyingParty.finishRegistration(responseJSON: response, state: foreign.state)
        }
        // An authentication state read as a registration state, and the reverse.
        let authentication = try Self.relyingParty.beginAuthentication()
        expectCode(.ceremonyStateMismatch) {
            _ = try RegistrationState(jsonBytes: authentication.state.jsonBytes())
        }
        expectCode(.ceremonyStateMismatch) {
            _ = try AuthenticationState(jsonBytes: registration.state.jsonBytes())
        }
    }

    @Test func refusesAnotherOrigin() throws {
        let browser = Browser()
        let registration = try Self.relyingParty.beginRegistration(user: Self.user)
        // A subdomain may use the RP ID, but this relying party does not serve it.
        let response = try browser.create(
            registration, origin: "https://login.bank.example.com.br")
        expectFailure(.originNotAllowed, step: "§7.1 step 9") { () throws in
            try Self.relyingParty.finishRegistration(
                responseJSON: response, state: registration.state)
        }
    }

    @Test func refusesAnExpiredState() throws {
        var options = RegistrationOptions()
        options.timeout = 1
        let registration = try Self.relyingParty.beginRegistration(
            user: Self.user, options: options)
        let response = try Browser().create(registration)
        while Int64(Date().timeIntervalSince1970 * 1000) <= registration.state.expiresAt {
            Thread.sleep(forTimeInterval: 0.002)
        }
        expectFailure(.ceremonyExpired, step: "§7.1 step 1") { () throws in
            try Self.relyingParty.finishRegistration(
                responseJSON: response, state: registration.state)
        }
        var authenticationOptions = AuthenticationOptions()
        authenticationOptions.timeout = 1
        let record = try register(Browser())
        let authentication = try Self.relyingParty.beginAuthentication(
            allowCredentials: [record], options: authenticationOptions)
        while Int64(Date().timeIntervalSince1970 * 1000) <= authentication.state.expiresAt {
            Thread.sleep(forTimeInterval: 0.002)
        }
        expectFailure(.ceremonyExpired, step: "§7.2 step 1") { () throws in
            try Self.relyingParty.finishAuthentication(
                responseJSON: "{}", state: authentication.state, credential: record)
        }
    }

    @Test func requiresUserVerificationWhenTheOptionsDo() throws {
        var configuration = AuthenticatorConfiguration()
        configuration.supportsUserVerification = false
        let browser = Browser(configuration: configuration)
        var options = RegistrationOptions()
        options.userVerification = .required
        let registration = try Self.relyingParty.beginRegistration(
            user: Self.user, options: options)
        // The authenticator refuses; a response made under `preferred` does not pass either.
        expectAuthenticatorError(.userVerificationUnavailable) {
            _ = try browser.create(registration)
        }
        let preferred = try Self.relyingParty.beginRegistration(user: Self.user)
        let withoutUV = try browser.authenticator.makeCredential(
            options: preferred.options, origin: Self.origin)
        var state = try JSONDecoder().decode(
            RegistrationState.self, from: JSONEncoder().encode(preferred.state))
        #expect(state == preferred.state)
        state = RegistrationState(
            challenge: state.challenge, relyingPartyID: state.relyingPartyID, user: state.user,
            userVerification: .required, algorithms: state.algorithms,
            attestation: state.attestation, excludedCredentials: state.excludedCredentials,
            acceptedAttestationTypes: state.acceptedAttestationTypes,
            extensionPolicy: state.extensionPolicy, expiresAt: state.expiresAt)
        expectFailure(.userVerificationMissing, step: "§7.1 step 16") { () throws in
            try Self.relyingParty.finishRegistration(withoutUV, state: state)
        }
    }

    // MARK: Authentication

    @Test func signsInWithAllowCredentials() throws {
        let browser = Browser()
        var record = try register(browser)
        for expected: UInt32 in 1...3 {
            let authentication = try Self.relyingParty.beginAuthentication(
                allowCredentials: [record])
            #expect(
                authentication.options.allowCredentials
                    == [
                        PublicKeyCredentialDescriptorJSON(
                            id: record.id, transports: record.transports)
                    ])
            let verified = try Self.relyingParty.finishAuthentication(
                responseJSON: try browser.get(authentication), state: authentication.state,
                credential: record)
            #expect(verified.credentialId == record.id)
            #expect(verified.signCount == expected && verified.signCountVerdict == .advanced)
            #expect(verified.updatedRecord.signCount == expected)
            #expect(verified.updatedRecord.id == record.id)
            record = verified.updatedRecord
        }
    }

    @Test func signsInWithADiscoverableCredential() throws {
        let browser = Browser(configuration: .syncedPasskey())
        let record = try register(browser)
        #expect(record.backupEligible && record.backupState)
        let authentication = try Self.relyingParty.beginAuthentication()
        let responseJSON = try browser.get(authentication)
        let reference = try Self.relyingParty.credentialReference(responseJSON: responseJSON)
        #expect(reference.credentialId == record.id)
        #expect(reference.userHandle == Self.user.id)
        let verified = try Self.relyingParty.finishAuthentication(
            responseJSON: responseJSON, state: authentication.state, credential: record)
        #expect(verified.userHandle == Self.user.id)
        // Synced passkeys keep no counter: 0 after 0 passes.
        #expect(verified.signCountVerdict == .notUsed)
        #expect(verified.updatedRecord == record)
    }

    @Test func refusesADisallowedCredential() throws {
        let browser = Browser()
        let first = try register(browser)
        let second = try register(
            browser,
            user: PublicKeyCredentialUserEntityJSON(
                id: Array("user-0002".utf8), name: "bob", displayName: "Bob"))
        let authentication = try Self.relyingParty.beginAuthentication(allowCredentials: [first])
        // The client answers with a credential the options did not list.
        var options = authentication.options
        options.allowCredentials = [PublicKeyCredentialDescriptorJSON(id: second.id)]
        let response = try browser.authenticator.getAssertion(options: options, origin: Self.origin)
        expectFailure(.credentialNotAllowed, step: "§7.2 step 5") { () throws in
            try Self.relyingParty.finishAuthentication(
                response, state: authentication.state, credential: second)
        }
        // The right credential with another's record.
        let right = try browser.get(authentication)
        expectFailure(.credentialNotAllowed, step: "§7.2 step 6") { () throws in
            try Self.relyingParty.finishAuthentication(
                responseJSON: right, state: authentication.state, credential: second)
        }
    }

    @Test func refusesACounterGoingBackwards() throws {
        let browser = Browser()
        let record = try register(browser)
        let authentication = try Self.relyingParty.beginAuthentication(allowCredentials: [record])
        let response = try browser.get(authentication)
        let verified = try Self.relyingParty.finishAuthentication(
            responseJSON: response, state: authentication.state, credential: record)
        // The same response against the updated record: a replay, or a cloned authenticator.
        expectFailure(.signCountRegressed, step: "§7.2 step 22") { () throws in
            try Self.relyingParty.finishAuthentication(
                responseJSON: response, state: authentication.state,
                credential: verified.updatedRecord)
        }
        var lenient = Self.relyingParty
        lenient.relaxations = .acceptsSignCountRegression
        let accepted = try lenient.finishAuthentication(
            responseJSON: response, state: authentication.state,
            credential: verified.updatedRecord)
        #expect(accepted.signCountVerdict == .possibleClone(stored: 1, received: 1))
        #expect(accepted.deviations.map(\.relaxation) == [.acceptsSignCountRegression])
    }

    @Test func refusesAnAssertionFromAnotherOrigin() throws {
        let browser = Browser()
        let record = try register(browser)
        let authentication = try Self.relyingParty.beginAuthentication(allowCredentials: [record])
        let response = try browser.get(authentication, origin: "https://login.bank.example.com.br")
        expectFailure(.originNotAllowed, step: "§7.2 step 12") { () throws in
            try Self.relyingParty.finishAuthentication(
                responseJSON: response, state: authentication.state, credential: record)
        }
    }

    @Test func readsTheReferenceOfMalformedResponsesAsStep3() {
        expectFailure(.malformedJSON, step: "§7.2 step 3") { () throws in
            try Self.relyingParty.credentialReference(responseJSON: "{")
        }
        expectFailure(.missingMember, step: "§7.2 step 3") { () throws in
            try Self.relyingParty.credentialReference(responseJSON: "{}")
        }
    }

    /// Whatever the response holds, the ceremony calls throw `WebAuthnError` and nothing else:
    /// every prefix of a valid response, every byte of the attestation object changed, every
    /// byte of the authenticator data changed (each of those refused).
    @Test func throwsOnlyWebAuthnErrors() throws {
        let browser = Browser()
        let registration = try Self.relyingParty.beginRegistration(user: Self.user)
        let created = try browser.authenticator.makeCredential(
            options: registration.options, origin: Self.origin)
        let record = try Self.relyingParty.finishRegistration(created, state: registration.state)
        let authentication = try Self.relyingParty.beginAuthentication(allowCredentials: [record])
        let asserted = try browser.authenticator.getAssertion(
            options: authentication.options, origin: Self.origin)

        func expectOnlyWebAuthnErrors(_ body: () throws -> Void) {
            do { try body() } catch is WebAuthnError {} catch {
                Issue.record("not a WebAuthnError: \(type(of: error)): \(error)")
            }
        }
        let registrationText = created.jsonText()
        let assertionText = asserted.jsonText()
        for end in stride(from: 0, to: registrationText.utf8.count, by: 7) {
            let prefix = String(decoding: registrationText.utf8.prefix(end), as: UTF8.self)
            expectOnlyWebAuthnErrors {
                _ = try Self.relyingParty.finishRegistration(
                    responseJSON: prefix, state: registration.state)
            }
        }
        for end in stride(from: 0, to: assertionText.utf8.count, by: 7) {
            let prefix = String(decoding: assertionText.utf8.prefix(end), as: UTF8.self)
            expectOnlyWebAuthnErrors {
                _ = try Self.relyingParty.credentialReference(responseJSON: prefix)
            }
            expectOnlyWebAuthnErrors {
                _ = try Self.relyingParty.finishAuthentication(
                    responseJSON: prefix, state: authentication.state, credential: record)
            }
        }
        for index in created.response.attestationObject.indices {
            var flipped = created
            flipped.response.attestationObject[index] ^= 0x5a
            expectOnlyWebAuthnErrors {
                _ = try Self.relyingParty.finishRegistration(flipped, state: registration.state)
            }
        }
        // Every changed byte of what the signature covers is refused, whatever the step.
        for index in asserted.response.authenticatorData.indices {
            var flipped = asserted
            flipped.response.authenticatorData[index] ^= 0x5a
            do {
                _ = try Self.relyingParty.finishAuthentication(
                    flipped, state: authentication.state, credential: record)
                Issue.record("authenticatorData with byte \(index) changed verified")
            } catch is WebAuthnError {} catch {
                Issue.record("not a WebAuthnError: \(type(of: error)): \(error)")
            }
        }
    }

    // MARK: Persistence

    @Test func roundTripsStatesAndRecordsThroughCodable() throws {
        let browser = Browser()
        var options = RegistrationOptions()
        options.extensionPolicy = .allowOnly(["credProtect"])
        options.acceptedAttestationTypes = [.none, .selfAttestation]
        let registration = try Self.relyingParty.beginRegistration(
            user: Self.user, options: options)
        let encoder = JSONEncoder()
        let decoder = JSONDecoder()
        let state = try decoder.decode(
            RegistrationState.self, from: encoder.encode(registration.state))
        #expect(state == registration.state)
        #expect(try RegistrationState(jsonBytes: registration.state.jsonBytes()) == state)
        let record = try Self.relyingParty.finishRegistration(
            responseJSON: try browser.create(registration), state: state)
        let stored = try encoder.encode(record)
        let restored = try decoder.decode(CredentialRecord.self, from: stored)
        #expect(restored == record)
        #expect(restored.publicKey == record.publicKey)
        // The encoder's bytes and the record's own stable form say the same thing.
        #expect(try CredentialRecord(jsonBytes: [UInt8](stored)) == record)
        #expect(
            try CredentialRecord(jsonBytes: record.jsonBytes()).jsonBytes() == record.jsonBytes())

        let authentication = try Self.relyingParty.beginAuthentication(allowCredentials: [restored])
        let authenticationState = try decoder.decode(
            AuthenticationState.self, from: encoder.encode(authentication.state))
        #expect(authenticationState == authentication.state)
        let verified = try Self.relyingParty.finishAuthentication(
            responseJSON: try browser.get(authentication), state: authenticationState,
            credential: restored)
        #expect(verified.updatedRecord.signCount == 1)
    }

    @Test func writesTheRecordsStableVersionedForm() throws {
        let key = try COSEKey(
            publicKey: try PrivateKey(generating: .p256).publicKey, algorithm: .es256)
        let record = try CredentialRecord(
            id: [1, 2, 3], publicKey: key, signCount: 7, backupEligible: true, backupState: true,
            userHandle: [9], transports: [.usb, .nfc], uvInitialized: true,
            attestationObject: [0xa0], attestationClientDataJSON: Array("{}".utf8))
        let text = record.jsonText()
        #expect(
            text.hasPrefix(#"{"version":2,"type":"public-key","id":"AQID","publicKey":""#))
        #expect(
            text.hasSuffix(
                #","signCount":7,"transports":["usb","nfc"],"uvInitialized":true,"backupEligible":true,"backupState":true,"attestationObject":"oA","attestationClientDataJSON":"e30","userHandle":"CQ"}"#
            ))
        let minimal = try CredentialRecord(
            id: [1], publicKey: key, signCount: 0, backupEligible: false)
        #expect(!minimal.jsonText().contains("userHandle"))
        #expect(!minimal.jsonText().contains("attestationObject"))
        #expect(try CredentialRecord(jsonText: minimal.jsonText()) == minimal)
    }

    @Test func refusesRecordsItCannotReadFaithfully() throws {
        let record = try register(Browser())
        let text = record.jsonText()
        expectCode(.invalidValue) {
            _ = try CredentialRecord(
                jsonText: text.replacingOccurrences(of: #""version":2"#, with: #""version":3"#))
        }
        expectCode(.missingMember) {
            _ = try CredentialRecord(
                jsonText: text.replacingOccurrences(of: #""version":2,"#, with: ""))
        }
        expectCode(.invalidCredentialPublicKey) {
            _ = try CredentialRecord(
                jsonText: text.replacingOccurrences(
                    of: Base64URL.encode(record.publicKeyBytes), with: "oQEC"))
        }
        // Through Codable, the same refusal arrives as a DecodingError carrying it.
        let broken = Data(
            text.replacingOccurrences(of: #""signCount":0,"#, with: "").utf8)
        do {
            _ = try JSONDecoder().decode(CredentialRecord.self, from: broken)
            Issue.record("a record without signCount decoded")
        } catch DecodingError.dataCorrupted(let context) {
            #expect((context.underlyingError as? WebAuthnError)?.code == .missingMember)
        }
    }

    // MARK: Attestation trust

    /// A ceremony that asks for attestation and configures no anchors trusts the roots the
    /// library ships: a real Apple registration chains to Apple's root at its time, and its
    /// (short-lived) leaf no longer verifies today.
    @Test func trustsTheWellKnownRootsWhenAttestationIsRequested() throws {
        let suite = try #require(
            RealRegistrationsSuite(
                name: "real-registrations.json",
                json: try sharedVectorJSON("real-registrations.json")))
        let entry = try #require(suite.entry("reg-013"))
        let pinned = try #require(entry["source_pinned_validation_time"]?.stringValue)
        let (source, response, expectations) = try RealRegistrationsSuite.ceremony(entry)
        let relyingPartyID = try #require(source.identifiers.first)
        func state(_ attestation: AttestationConveyancePreference) -> RegistrationState {
            RegistrationState(
                challenge: expectations.challenge, relyingPartyID: relyingPartyID,
                user: Self.user, userVerification: .preferred,
                algorithms: RegistrationExpectations.supportedAlgorithms, attestation: attestation,
                excludedCredentials: [],
                acceptedAttestationTypes: RegistrationExpectations.allAttestationTypes,
                extensionPolicy: .acceptAll, expiresAt: .max)
        }
        // The source's identifiers and origins, and none of its anchors.
        let relyingParty = RelyingParty(identifiers: source.identifiers, origins: source.origins)
        var atThen = relyingParty
        // Typed as Int64 so that #require unwraps: inferred from the Int64? property it would
        // wrap the optional again and never fail, leaving the time unset when the text is bad.
        let pinnedTime: Int64 = try #require(ISO8601Time.seconds(pinned))
        atThen.trustPolicy.validationTime = pinnedTime

        let verified = try atThen.verifyRegistration(response, state: state(.direct))
        guard case .verified(let path) = verified.trustPath else {
            Issue.record("\(verified.trustPath)")
            return
        }
        #expect(path.last == (try WellKnownAttestationRoots.appleWebAuthnRootCA.certificate()))
        expectFailure(.attestationTrustPathInvalid, step: "§7.1 step 24") { () throws in
            try relyingParty.finishRegistration(response, state: state(.direct))
        }
        // Without attestation requested, or with anchors of its own, the relying party judges
        // nothing it was not asked to.
        guard
            case .notEvaluated = try relyingParty.verifyRegistration(
                response, state: state(.none)
            ).trustPath
        else {
            Issue.record("attestation none judged the chain")
            return
        }
        // An anchor for another format leaves the shipped Apple root in force (the leaf has
        // expired by now); only the named choice leaves the shipped roots out.
        var ownAnchors = relyingParty
        ownAnchors.trustPolicy = ownAnchors.trustPolicy.trusting(
            [try WellKnownAttestationRoots.globalSignRootCA.certificate()], for: "packed")
        expectFailure(.attestationTrustPathInvalid, step: "§7.1 step 24") { () throws in
            try ownAnchors.finishRegistration(response, state: state(.direct))
        }
        var excluded = ownAnchors
        excluded.trustPolicy = excluded.trustPolicy.excludingWellKnownRoots()
        let unjudged = try excluded.verifyRegistration(response, state: state(.direct))
        guard case .notEvaluated = unjudged.trustPath else {
            Issue.record("excludingWellKnownRoots() still judged the chain")
            return
        }
        #expect(unjudged.attestationTrust == .unverified)
        #expect(verified.attestationTrust == .verified(.wellKnownRoot))
    }
}
