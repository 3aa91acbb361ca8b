import Fido2Authenticator
import Fido2BelvoDevice
import Fido2Crypto
import Fido2Encoding
import Fido2TestSupport
import Fido2Vectors
import Fido2WebAuthn
import Fido2WebAuthnWire
import Foundation
import Testing

@testable import Fido2Belvo

/// Every input the device or the flow around it refuses gives a typed error with a clear
/// message, and the credential store's files are byte for byte what they were before.
@Suite struct BadInputLeavesStoreUnchangedTests {
    /// Runs `body`, which must throw `code` (with `field` when given, and a reason mentioning
    /// `text`), and checks that the store's files did not change.
    private func expectRefusal(
        _ code: BelvoError.Code, field: String? = nil, mentioning text: String? = nil,
        store temporary: TemporaryStore, sourceLocation: SourceLocation = #_sourceLocation,
        _ body: () throws -> Void
    ) throws {
        let before = try temporary.snapshot()
        #expect(!before.isEmpty, "the store should hold the enrolled credential")
        do {
            try body()
            Issue.record("bad input was accepted", sourceLocation: sourceLocation)
        } catch let error as BelvoError {
            #expect(error.code == code, "\(error)", sourceLocation: sourceLocation)
            if let field {
                #expect(error.field == field, "\(error)", sourceLocation: sourceLocation)
            }
            if let text {
                #expect(error.reason.contains(text), "\(error)", sourceLocation: sourceLocation)
            }
            #expect(!error.description.contains("\n"), sourceLocation: sourceLocation)
        } catch {
            Issue.record("expected a BelvoError, got \(error)")
        }
        #expect(try temporary.snapshot() == before, sourceLocation: sourceLocation)
    }

    private func registrationOptions(replacing original: String, with replacement: String) -> String
    {
        let text = BelvoGuideSamples.registrationOptions
        precondition(text.contains(original), "fixture does not contain \(original)")
        return text.replacingOccurrences(of: original, with: replacement)
    }

    private let algorithms =
        #"[{"alg": -257, "type": "public-key"}, {"alg": -7, "type": "public-key"}]"#

    // MARK: Registration options

    @Test(arguments: [
        ("{", nil as String?), (#"{"rp": {"id": "belvo.com"}}"#, "rp.name"),
        (#"[1, 2]"#, nil), (#"{"rp": 7}"#, "rp"),
    ])
    func malformedRegistrationOptionsAreRefused(json: String, field: String?) throws {
        let enrolled = try EnrolledDevice()
        try expectRefusal(.malformedFidoOptions, field: field, store: enrolled.temporary) {
            () throws in
            _ = try enrolled.device.startRegistration(fidoOptions: json)
        }
    }

    @Test func registrationChallengeThatIsNotBase64URLIsRefused() throws {
        let enrolled = try EnrolledDevice()
        let json = registrationOptions(replacing: "R3dsT2REOE5oZ25JbVE", with: "R3ds+T2/")
        try expectRefusal(.malformedFidoOptions, field: "challenge", store: enrolled.temporary) {
            () throws in
            _ = try enrolled.device.startRegistration(fidoOptions: json)
        }
    }

    @Test(arguments: [
        #"[{"alg": -999, "type": "public-key"}, {"alg": -65535, "type": "public-key"}]"#, "[]",
        #"[{"alg": -7, "type": "future-key"}]"#,
    ])
    func unknownAlgorithmListIsRefused(list: String) throws {
        let enrolled = try EnrolledDevice()
        let json = registrationOptions(replacing: algorithms, with: list)
        try expectRefusal(
            .unsupportedAlgorithms, field: "pubKeyCredParams", store: enrolled.temporary
        ) {
            () throws in
            _ = try enrolled.device.startRegistration(fidoOptions: json)
        }
    }

    @Test func algorithmListWithoutES256IsRefusedByAnIOSDevice() throws {
        let enrolled = try EnrolledDevice()
        let json = registrationOptions(
            replacing: algorithms,
            with: #"[{"alg": -257, "type": "public-key"}, {"alg": -8, "type": "public-key"}]"#)
        try expectRefusal(
            .unsupportedAlgorithms, field: "pubKeyCredParams", mentioning: "-7 (ES256)",
            store: enrolled.temporary
        ) { () throws in
            _ = try enrolled.device.startRegistration(fidoOptions: json)
        }
    }

    @Test func relyingPartyIDThatIsNotADomainIsRefused() throws {
        let enrolled = try EnrolledDevice()
        let json = registrationOptions(
            replacing: #""id": "belvo.com""#, with: #""id": "belvo com""#)
        try expectRefusal(.malformedFidoOptions, field: "rp.id", store: enrolled.temporary) {
            () throws in
            _ = try enrolled.device.startRegistration(fidoOptions: json)
        }
    }

    @Test(arguments: ["https://merchant.example", "http://belvo.com", "belvo.com"])
    func originThatCannotClaimTheRelyingPartyIDIsRefused(origin: String) throws {
        let enrolled = try EnrolledDevice()
        let device = BelvoDevice(store: enrolled.temporary.store, origin: origin)
        try expectRefusal(.invalidOrigin, field: "origin", store: enrolled.temporary) {
            () throws in
            _ = try device.startRegistration(fidoOptions: BelvoGuideSamples.registrationOptions)
        }
        try expectRefusal(.invalidOrigin, field: "origin", store: enrolled.temporary) {
            () throws in
            _ = try device.startSigning(fidoOptions: enrolled.fidoOptions)
        }
    }

    @Test func excludedCredentialHeldByTheDeviceIsRefused() throws {
        let enrolled = try EnrolledDevice()
        let json = registrationOptions(
            replacing: #""extensions": {"appid": "true"}"#,
            with:
                #""excludeCredentials": [{"id": "\#(enrolled.attestation.encodedId)", "type": "public-key"}]"#
        )
        try expectRefusal(
            .credentialExcluded, field: "excludeCredentials", store: enrolled.temporary
        ) { () throws in
            _ = try enrolled.device.startRegistration(fidoOptions: json)
        }
    }

    @Test func deviceWithoutUserVerificationFailsAsUnknown() throws {
        let enrolled = try EnrolledDevice()
        var configuration = BelvoDevice.iOSPlatformConfiguration
        configuration.supportsUserVerification = false
        let device = BelvoDevice(store: enrolled.temporary.store, configuration: configuration)
        try expectRefusal(.authenticatorFailure, store: enrolled.temporary) {
            () throws in
            _ = try device.startRegistration(fidoOptions: BelvoGuideSamples.registrationOptions)
        }
        try expectRefusal(.authenticatorFailure, store: enrolled.temporary) {
            () throws in
            _ = try device.startSigning(fidoOptions: enrolled.fidoOptions)
        }
        #expect(BelvoError.Code.authenticatorFailure.kind == .unknown)
    }

    // MARK: Payment fido_options

    @Test(arguments: [
        (#"{"rpId": "belvo.com", "challenge": 12}"#, "challenge"),
        (#"{"rpId": "belvo.com"}"#, "challenge"),
        (
            #"{"rpId": "belvo.com", "challenge": "AAAA", "allowCredentials": [{"id": "A", "type": "public-key"}]}"#,
            "allowCredentials[0].id"
        ),
        (#"{"rpId": "", "challenge": "AAAA"}"#, "rpId"),
        (#"{"rpId": "belvo.com", "challenge": "AAAA", "timeout": -1}"#, "timeout"),
    ])
    func malformedPaymentFidoOptionsAreRefused(json: String, field: String) throws {
        let enrolled = try EnrolledDevice()
        try expectRefusal(.malformedFidoOptions, field: field, store: enrolled.temporary) {
            () throws in
            _ = try enrolled.device.startSigning(fidoOptions: json)
        }
    }

    @Test func paymentIntentWithoutFidoOptionsIsRefused() throws {
        let enrolled = try EnrolledDevice()
        let intent = try BelvoPaymentIntent(
            json: Array(#"{"id": "pi-1", "status": "REQUIRES_ACTION"}"#.utf8))
        try expectRefusal(.malformedFidoOptions, store: enrolled.temporary) {
            () throws in
            _ = try enrolled.device.authorizePaymentRequest(
                paymentIntent: intent, riskSignals: BelvoRiskSignals(jsonString: "{}"))
        }
    }

    @Test func allowCredentialsNotHeldByTheDeviceIsRefused() throws {
        let enrolled = try EnrolledDevice()
        try expectRefusal(
            .noMatchingCredential, field: "allowCredentials", store: enrolled.temporary
        ) { () throws in
            _ = try enrolled.device.startSigning(fidoOptions: BelvoGuideSamples.fidoOptions)
        }
    }

    @Test func fallbackCredentialNotHeldEitherIsRefused() throws {
        let enrolled = try EnrolledDevice()
        try expectRefusal(
            .noMatchingCredential, field: "allowCredentials", mentioning: "fallback credential",
            store: enrolled.temporary
        ) { () throws in
            _ = try enrolled.device.startSigning(
                fidoOptions: BelvoGuideSamples.fidoOptions, fallbackCredential: "AQIDBA")
        }
    }

    @Test(arguments: ["AQIDBA==", "", "not base64url!", "A"])
    func malformedFallbackCredentialIsRefused(fallback: String) throws {
        let enrolled = try EnrolledDevice()
        try expectRefusal(.invalidBase64URL, field: "fallbackCredential", store: enrolled.temporary)
        {
            () throws in
            _ = try enrolled.device.startSigning(
                fidoOptions: enrolled.fidoOptions, fallbackCredential: fallback)
        }
    }

    @Test func emptyAllowCredentialsWithoutADiscoverableCredentialIsRefused() throws {
        var configuration = BelvoDevice.iOSPlatformConfiguration
        configuration.supportsDiscoverableCredentials = false
        let enrolled = try EnrolledDevice(configuration: configuration)
        try expectRefusal(
            .noDiscoverableCredential, field: "allowCredentials", mentioning: "belvo.com",
            store: enrolled.temporary
        ) { () throws in
            _ = try enrolled.device.startSigning(
                fidoOptions: BelvoSamples.fidoOptionsWithoutAllowCredentials)
        }
        try expectRefusal(
            .noDiscoverableCredential, mentioning: "fallback credential", store: enrolled.temporary
        ) { () throws in
            _ = try enrolled.device.startSigning(
                fidoOptions: BelvoSamples.fidoOptionsWithoutAllowCredentials,
                fallbackCredential: BelvoGuideSamples.credentialID)
        }
    }

    @Test func emptyPlatformIsRefusedBeforeSigning() throws {
        let enrolled = try EnrolledDevice()
        try expectRefusal(.missingField, field: "platform", store: enrolled.temporary) {
            () throws in
            _ = try enrolled.device.authorizePaymentRequest(
                fidoOptions: Array(enrolled.fidoOptions.utf8),
                riskSignals: BelvoRiskSignals(jsonString: "{}"), platform: " ")
        }
    }

    @Test func unreadableCredentialFileFailsAsAStoreFailure() throws {
        let enrolled = try EnrolledDevice()
        let id: [UInt8] = [1, 2, 3, 4]
        let name = Hex.encode(DigestAlgorithm.sha256.hash(id)) + ".credential"
        let file = (enrolled.temporary.path as NSString).appendingPathComponent(name)
        #expect(FileManager.default.createFile(atPath: file, contents: Data("garbage".utf8)))
        try expectRefusal(.credentialStoreFailure, store: enrolled.temporary) {
            () throws in
            _ = try enrolled.device.startSigning(
                fidoOptions: BelvoGuideSamples.fidoOptions(allowing: Base64URL.encode(id)))
        }
        #expect(BelvoError.Code.credentialStoreFailure.kind == .unknown)
    }

    // MARK: The flow around the device

    /// The app's payment step: tenure, risk signals, then the signature.
    private func pay(
        _ device: BelvoDevice, customerCreatedAt: String, fidoOptions: String
    ) throws -> BelvoAuthorizePaymentRequest {
        let tenure = try BelvoAccountTenure(customerCreatedAt: customerCreatedAt)
        let signals = try BelvoRiskSignals(jsonString: #"{"accountTenure": "\#(tenure)"}"#)
        return try device.authorizePaymentRequest(
            fidoOptions: Array(fidoOptions.utf8), riskSignals: signals)
    }

    /// The app's enrollment steps after the bank: the callback, then the registration.
    private func enroll(
        _ device: BelvoDevice, callbackURL: String
    ) throws -> BelvoConfirmEnrollmentRequest {
        _ = try BelvoCompleteRedirectionRequest(callbackURL: callbackURL)
        return try device.confirmEnrollmentRequest(
            fidoOptions: Array(BelvoGuideSamples.registrationOptions.utf8))
    }

    @Test(arguments: ["2024/03/07T12:45:01Z", "2024-02-30T00:00:00Z", "24-03-07", ""])
    func badAccountTenureStopsThePaymentBeforeSigning(createdAt: String) throws {
        let enrolled = try EnrolledDevice()
        _ = try pay(
            enrolled.device, customerCreatedAt: "2024-03-07T12:45:01Z",
            fidoOptions: enrolled.fidoOptions)
        try expectRefusal(
            .invalidAccountTenure, field: "accountTenure", store: enrolled.temporary
        ) { () throws in
            _ = try pay(
                enrolled.device, customerCreatedAt: createdAt, fidoOptions: enrolled.fidoOptions)
        }
    }

    @Test func callbackWithErrorStopsTheEnrollmentBeforeRegistering() throws {
        let enrolled = try EnrolledDevice()
        try expectRefusal(
            .callbackError, field: "error", mentioning: "access_denied", store: enrolled.temporary
        ) { () throws in
            _ = try enroll(
                enrolled.device,
                callbackURL:
                    "https://merchant.example/belvo/callback?error=access_denied&error_description=user%20cancelled&state=s"
            )
        }
    }

    // MARK: The mapping itself

    @Test func authenticatorErrorsMapOntoTheSDKCases() throws {
        var parseError: AuthenticatorError?
        do {
            _ = try SoftwareAuthenticator(store: InMemoryCredentialStore()).getAssertion(
                optionsJSON: Array("{".utf8), origin: "https://belvo.com")
        } catch {
            parseError = error as? AuthenticatorError
        }
        let malformed = BelvoError(
            authenticator: try #require(parseError), ceremony: "startSigning",
            originChosenByCaller: false)
        #expect(malformed.code == .malformedFidoOptions)
        #expect(malformed.kind == .invalidParameters)
        #expect(malformed.reason.hasPrefix("startSigning failed: "))
        // The structures' own error, not wrapped by the authenticator, maps the same way.
        var wireError: WebAuthnError?
        do {
            _ = try PublicKeyCredentialRequestOptionsJSON(jsonText: "{")
        } catch {
            wireError = error as? WebAuthnError
        }
        let wire = BelvoError(
            authenticator: try #require(wireError), ceremony: "startSigning",
            originChosenByCaller: false)
        #expect(wire == malformed)

        var storeError: AuthenticatorError?
        let store = InMemoryCredentialStore()
        let enrolled = try EnrolledDevice()
        let credential = try #require(
            try enrolled.temporary.store.credential(
                id: Base64URL.decode(enrolled.attestation.rawId)))
        do {
            try store.replace(credential)
        } catch {
            storeError = error as? AuthenticatorError
        }
        let missing = BelvoError(
            authenticator: try #require(storeError), ceremony: "startSigning",
            originChosenByCaller: false)
        #expect(missing.code == .credentialStoreFailure)
        #expect(missing.kind == .unknown)
    }
}
