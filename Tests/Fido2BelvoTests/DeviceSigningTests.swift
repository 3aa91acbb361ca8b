import Fido2Authenticator
import Fido2BelvoDevice
import Fido2Crypto
import Fido2Encoding
import Fido2Vectors
import Fido2WebAuthn
import Fido2WebAuthnWire
import Testing

@testable import Fido2Belvo

/// `startSigning` answers a payment intent's `fido_options` with the enrolled credential, and
/// the authorize body built from it is exactly the documented one.
@Suite struct DeviceSigningTests {
    private func authenticatorData(_ assertion: AssertionResponse) throws -> AuthenticatorData {
        try AuthenticatorData(bytes: Base64URL.decode(assertion.authenticatorData))
    }

    @Test func enrolledCredentialSignsThePaymentChallenge() throws {
        let enrolled = try EnrolledDevice()
        let assertion = try enrolled.device.startSigning(
            fidoOptions: enrolled.fidoOptions)

        #expect(assertion.encodedId == enrolled.attestation.encodedId)
        #expect(assertion.rawId == enrolled.attestation.rawId)
        #expect(
            assertion.userHandle
                == Base64URL.encode(Array("a5bd0ef9-f8ab-41a2-b968-489761a91de6".utf8)))
        let clientData = try ClientDataJSON(bytes: Base64URL.decode(assertion.clientDataJSON))
            .clientData
        #expect(clientData.type == .get)
        #expect(
            clientData.challenge
                == (try Base64URL.decode("oGW096Hvr8sVUIOf-10iqWI7ZfSx2GhoU359bBRK9h4")))
        #expect(clientData.origin == "https://belvo.com")
        let data = try authenticatorData(assertion)
        #expect(
            Array(data.rpIdHash) == DigestAlgorithm.sha256.hash(Array("belvo.com".utf8)))
        #expect(data.flags.contains(.userPresent))
        #expect(data.flags.contains(.userVerified))
        #expect(data.attestedCredentialData == nil)
        #expect(!(try Base64URL.decode(assertion.signature)).isEmpty)
    }

    @Test func signCountAdvancesWithEveryPayment() throws {
        let enrolled = try EnrolledDevice()
        let options = enrolled.fidoOptions
        let first = try authenticatorData(enrolled.device.startSigning(fidoOptions: options))
        let second = try authenticatorData(enrolled.device.startSigning(fidoOptions: options))
        #expect(first.signCount == 1)
        #expect(second.signCount == 2)
        let stored = try #require(
            try enrolled.temporary.store.credential(
                id: Base64URL.decode(enrolled.attestation.rawId)))
        #expect(stored.signCount == 2)
    }

    @Test func emptyAllowCredentialsUsesTheDiscoverableCredential() throws {
        let enrolled = try EnrolledDevice()
        let assertion = try enrolled.device.startSigning(
            fidoOptions: BelvoSamples.fidoOptionsWithoutAllowCredentials)
        #expect(assertion.encodedId == enrolled.attestation.encodedId)
    }

    @Test func fallbackCredentialAnswersWhenAllowCredentialsNamesAnotherDevice() throws {
        let enrolled = try EnrolledDevice()
        // The verbatim sample names the guide's credential, which this device does not hold.
        let assertion = try enrolled.device.startSigning(
            fidoOptions: BelvoGuideSamples.fidoOptions,
            fallbackCredential: enrolled.attestation.encodedId)
        #expect(assertion.encodedId == enrolled.attestation.encodedId)
        let clientData = try ClientDataJSON(bytes: Base64URL.decode(assertion.clientDataJSON))
            .clientData
        #expect(
            clientData.challenge
                == (try Base64URL.decode("oGW096Hvr8sVUIOf-10iqWI7ZfSx2GhoU359bBRK9h4")))
    }

    @Test func fallbackCredentialIsNotUsedWhenAnAllowedCredentialIsHeld() throws {
        let enrolled = try EnrolledDevice()
        let other = try enrolled.device.startRegistration(
            fidoOptions: BelvoGuideSamples.registrationOptions)
        let assertion = try enrolled.device.startSigning(
            fidoOptions: enrolled.fidoOptions,
            fallbackCredential: other.encodedId)
        #expect(assertion.encodedId == enrolled.attestation.encodedId)
    }

    @Test func requestOptionsMapTheDocumentedSample() throws {
        let device = BelvoDevice(store: InMemoryCredentialStore())
        let options = device.requestOptions(
            for: try BelvoAssertionOptions(json: Array(BelvoGuideSamples.fidoOptions.utf8)))
        #expect(options.rpId == "belvo.com")
        #expect(options.timeout == 300000)
        #expect(
            options.allowCredentials.map(\.id) == [
                try Base64URL.decode(BelvoGuideSamples.credentialID)
            ])
        #expect(options.allowCredentials.allSatisfy { $0.type == "public-key" })
        #expect(options.userVerification == .required)
        #expect(options.extensions == nil)
    }

    private func expectedAssertion(_ assertion: AssertionResponse) -> JSONValue {
        .object([
            "authenticatorAttachment": .string("platform"),
            "id": .string(assertion.encodedId),
            "rawId": .string(assertion.rawId),
            "response": .object([
                "authenticatorData": .string(assertion.authenticatorData),
                "clientDataJSON": .string(assertion.clientDataJSON),
                "signature": .string(assertion.signature),
                "userHandle": .string(assertion.userHandle),
            ]),
            "type": .string("public-key"),
        ])
    }

    @Test func authorizeBodyFromStartSigningHasTheDocumentedMembers() throws {
        let enrolled = try EnrolledDevice()
        let signals = try BelvoRiskSignals(jsonString: BelvoSamples.riskSignals)
        let request = try enrolled.device.authorizePaymentRequest(
            fidoOptions: Array(
                enrolled.fidoOptions.utf8),
            riskSignals: signals)
        let expected: JSONValue = .object([
            "risk_signals": try JSONValue.parse(BelvoSamples.riskSignals),
            "assertion": expectedAssertion(request.assertion),
        ])
        #expect(try JSONValue.parse(request.body) == expected)
        #expect(request.body.firstRange(of: Array(BelvoSamples.riskSignals.utf8)) != nil)
    }

    @Test func authorizeBodyOfTheSDKEditionAddsPlatform() throws {
        let enrolled = try EnrolledDevice()
        let intent = try BelvoPaymentIntent(
            json: Array(
                BelvoSamples.paymentIntent.replacingOccurrences(
                    of: BelvoGuideSamples.credentialID, with: enrolled.attestation.encodedId
                ).utf8))
        let request = try enrolled.device.authorizePaymentRequest(
            paymentIntent: intent, riskSignals: BelvoRiskSignals(jsonString: "{}"),
            platform: BelvoAuthorizePaymentRequest.iosPlatform)
        let expected: JSONValue = .object([
            "platform": .string("ios"),
            "risk_signals": .object([:]),
            "assertion": expectedAssertion(request.assertion),
        ])
        #expect(try JSONValue.parse(request.body) == expected)
    }

    @Test func assertionResponseCarriesTheAuthenticationResponseMembers() throws {
        let response = AuthenticationResponseJSON(
            rawId: [0xfb, 0xff],
            response: AuthenticatorAssertionResponseJSON(
                clientDataJSON: Array("{}".utf8), authenticatorData: [1, 2, 3], signature: [4],
                userHandle: [0x61]))
        let assertion = try AssertionResponse(response)
        #expect(assertion.encodedId == "-_8")
        #expect(assertion.rawId == "-_8")
        #expect(assertion.clientDataJSON == "e30")
        #expect(assertion.authenticatorData == "AQID")
        #expect(assertion.signature == "BA")
        #expect(assertion.userHandle == "YQ")
    }

    @Test func assertionWithoutUserHandleIsRefused() {
        let response = AuthenticationResponseJSON(
            rawId: [1],
            response: AuthenticatorAssertionResponseJSON(
                clientDataJSON: Array("{}".utf8), authenticatorData: [1], signature: [2]))
        do {
            _ = try AssertionResponse(response)
            Issue.record("an assertion without userHandle was accepted")
        } catch let error as BelvoError {
            #expect(error.code == .authenticatorFailure)
            #expect(error.field == "assertion.response.userHandle")
        } catch {
            Issue.record("expected a BelvoError, got \(error)")
        }
    }
}
