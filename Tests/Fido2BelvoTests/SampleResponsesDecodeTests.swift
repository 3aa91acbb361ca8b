import Fido2Vectors
import Testing

@testable import Fido2Belvo

/// The answers Belvo documents decode as they are, unknown members included.
@Suite struct SampleResponsesDecodeTests {
    private let auth = BelvoAuthorization.bearer(accessToken: "token")

    @Test func documentedRegistrationOptionsDecodeAsSent() throws {
        let options = try BelvoFidoRegistrationOptions(
            json: Array(BelvoGuideSamples.registrationOptions.utf8))
        #expect(options.rp.id == "belvo.com")
        #expect(options.rp.name == "Raidiam Mockbank - Pipeline NRJ")
        #expect(options.user.id == "a5bd0ef9-f8ab-41a2-b968-489761a91de6")
        #expect(options.user.name == "Ralph Bragg")
        #expect(options.user.displayName == "Ralph Bragg")
        #expect(options.challenge == "R3dsT2REOE5oZ25JbVE")
        #expect(options.pubKeyCredParams.map(\.alg) == [-257, -7])
        #expect(options.pubKeyCredParams.allSatisfy { $0.type == "public-key" })
        #expect(options.extensions?.identifiers == ["appid"])
        #expect(options.extensions?.appid == "true")
        #expect(options.timeout == nil)
    }

    @Test func registrationOptionsEndpointDecodesTheSample() throws {
        let endpoint = try BelvoAPI.fidoRegistrationOptions(enrollmentID: "e1", authorization: auth)
        let options = try endpoint.decode(
            status: 200, body: Array(BelvoGuideSamples.registrationOptions.utf8))
        #expect(options.user.id == "a5bd0ef9-f8ab-41a2-b968-489761a91de6")
    }

    @Test func documentedFidoOptionsDecodeAsSent() throws {
        let options = try BelvoFidoAssertionOptions(json: Array(BelvoGuideSamples.fidoOptions.utf8))
        #expect(options.rpId == "belvo.com")
        #expect(options.timeout == 300000)
        #expect(options.challenge == "oGW096Hvr8sVUIOf-10iqWI7ZfSx2GhoU359bBRK9h4")
        #expect(
            options.allowCredentials == [
                BelvoCredentialDescriptor(id: BelvoGuideSamples.credentialID)
            ])
        #expect(options.userVerification == nil)
    }

    @Test func createdEnrollmentDecodesWithUnknownMembers() throws {
        let request = try BelvoCreateEnrollmentRequest(
            customer: "c", institution: "i", name: "n", callbackURL: "https://m.example/cb",
            riskSignals: BelvoRiskSignals(jsonString: "{}"))
        let endpoint = BelvoAPI.createEnrollment(request, authorization: auth)
        let enrollment = try endpoint.decode(
            status: 201, body: Array(BelvoSamples.createdEnrollment.utf8))
        #expect(enrollment.id == "3f2c1b7e-8d4a-4e5f-9a6b-0c1d2e3f4a5b")
        #expect(enrollment.status == .pending)
        #expect(!enrollment.status.isFinal)
        #expect(enrollment.details?.status == "AWAITING_ACCOUNT_HOLDER_VALIDATION")
        #expect(enrollment.details?.redirectURL == "https://bank.example/authorize?request=abc")
        #expect(enrollment.details?.platform == "IOS")
        #expect(enrollment.details?.callbackURL == "https://merchant.example/belvo/callback")
        #expect(enrollment.type == "open_finance_biometric_pix")
        #expect(enrollment.createdAt == "2025-01-02T03:04:05.678Z")
        #expect(enrollment.statusReasonCode == nil)
    }

    @Test func failedEnrollmentCarriesItsReason() throws {
        let endpoint = try BelvoAPI.getEnrollment(id: "e1", authorization: auth)
        let enrollment = try endpoint.decode(
            status: 200,
            body: Array(
                #"{"id": "e1", "status": "FAILED", "status_reason_code": "consent_rejected", "status_reason_message": "The payer rejected the consent"}"#
                    .utf8))
        #expect(enrollment.status == .failed)
        #expect(enrollment.status.isFinal)
        #expect(enrollment.statusReasonCode == "consent_rejected")
        #expect(enrollment.statusReasonMessage == "The payer rejected the consent")
        #expect(enrollment.details == nil)
    }

    @Test func unknownStatusValuesDecode() throws {
        let endpoint = try BelvoAPI.getEnrollment(id: "e1", authorization: auth)
        let enrollment = try endpoint.decode(
            status: 200, body: Array(#"{"id": "e1", "status": "SOMETHING_NEW"}"#.utf8))
        #expect(enrollment.status == BelvoStatus(rawValue: "SOMETHING_NEW"))
        #expect(!enrollment.status.isFinal)
    }

    @Test func enrollmentListDecodesPaginatedAndBare() throws {
        let endpoint = try BelvoAPI.listEnrollments(deviceID: "dev", authorization: auth)
        let paginated = try endpoint.decode(
            status: 200,
            body: Array(
                #"{"count": 2, "next": null, "previous": null, "results": [{"id": "a", "status": "SUCCEEDED"}, {"id": "b", "status": "PENDING"}]}"#
                    .utf8))
        #expect(paginated.count == 2)
        #expect(paginated.next == nil)
        #expect(paginated.results.filter { $0.status == .succeeded }.map(\.id) == ["a"])
        let bare = try endpoint.decode(
            status: 200, body: Array(#"[{"id": "a", "status": "SUCCEEDED"}]"#.utf8))
        #expect(bare.results.map(\.id) == ["a"])
        #expect(bare.count == nil)
    }

    @Test func institutionListDecodes() throws {
        let endpoint = BelvoAPI.listInstitutions(authorization: auth)
        let list = try endpoint.decode(
            status: 200,
            body: Array(
                #"{"count": 1, "next": "https://api.belvo.com/payments/br/institutions/?page=2", "results": [{"id": "i1", "name": "mockbank", "display_name": "Mock Bank", "icon_logo": "https://cdn.example/i.svg", "country": "BR"}]}"#
                    .utf8))
        #expect(list.next == "https://api.belvo.com/payments/br/institutions/?page=2")
        #expect(
            list.results == [
                BelvoInstitution(
                    id: "i1", name: "mockbank", displayName: "Mock Bank",
                    iconLogo: "https://cdn.example/i.svg")
            ])
    }

    @Test func paymentIntentDecodesFidoOptionsAndPaymentIDs() throws {
        let request = try BelvoPaymentIntentRequest(
            amount: 1, customer: "c", description: "d", statementDescription: "s",
            beneficiaryBankAccount: "b", enrollment: "e")
        let endpoint = BelvoAPI.createPaymentIntent(request, authorization: auth)
        let intent = try endpoint.decode(status: 201, body: Array(BelvoSamples.paymentIntent.utf8))
        #expect(intent.id == "7d9e8f10-1a2b-4c3d-8e4f-5a6b7c8d9e0f")
        #expect(intent.status == .requiresAction)
        #expect(intent.consentID == "urn:bank:consent-42")
        #expect(intent.endToEndID == "E1234567820250102030405abcdef")
        #expect(intent.externalPaymentID == "ext-99")
        #expect(intent.providerRequestID == "prov-7")
        #expect(
            intent.fidoOptions
                == (try BelvoFidoAssertionOptions(json: Array(BelvoGuideSamples.fidoOptions.utf8))))
        let options = try intent.assertionOptions()
        #expect(options.rpId == "belvo.com")
    }

    @Test func paymentIDsAreAlsoFoundAtTheTopLevel() throws {
        let endpoint = try BelvoAPI.getPaymentIntent(id: "p1", authorization: auth)
        let intent = try endpoint.decode(
            status: 200,
            body: Array(
                #"{"id": "p1", "status": "SUCCEEDED", "consent_id": "c", "end_to_end_id": "e", "external_payment_id": "x", "provider_request_id": "p", "payment_method_information": null}"#
                    .utf8))
        #expect(intent.status == .succeeded)
        #expect(intent.consentID == "c")
        #expect(intent.endToEndID == "e")
        #expect(intent.externalPaymentID == "x")
        #expect(intent.providerRequestID == "p")
        #expect(intent.fidoOptions == nil)
    }

    @Test func paymentIntentWithoutFidoOptionsCannotBeSigned() throws {
        let endpoint = try BelvoAPI.getPaymentIntent(id: "p1", authorization: auth)
        let intent = try endpoint.decode(
            status: 200, body: Array(#"{"id": "p1", "status": "PROCESSING"}"#.utf8))
        let error = #expect(throws: BelvoError.self) { try intent.assertionOptions() }
        #expect(error?.code == .malformedFidoOptions)
        #expect(error?.reason.contains("no fido_options") == true)
    }

    @Test func widgetTokenDecodes() throws {
        let endpoint = BelvoAPI.widgetToken(secretID: "id", secretPassword: "pw")
        let token = try endpoint.decode(status: 200, body: Array(BelvoSamples.widgetToken.utf8))
        #expect(token.access == "eyJhbGciOiJIUzI1NiJ9.access.sig")
        #expect(token.refresh == "eyJhbGciOiJIUzI1NiJ9.refresh.sig")
    }

    @Test func completeRedirectionAnswerDecodes() throws {
        let request = try BelvoCompleteRedirectionRequest(state: "s", code: "c", idToken: "t")
        let endpoint = BelvoAPI.completeRedirection(request, authorization: auth)
        let enrollment = try endpoint.decode(
            status: 200, body: Array(#"{"id": "e1", "status": "PENDING"}"#.utf8))
        #expect(enrollment.status == .pending)
    }
}
