import Fido2Authenticator
import Fido2BelvoDevice
import Fido2Crypto
import Fido2Support
import Fido2TestSupport
import Fido2Vectors
import Foundation
import Testing

@testable import Fido2Belvo

/// `BelvoClient` over a real loopback socket, call by call: each sends its documented method and
/// path with HTTP Basic, the adapter's request body byte for byte with `Content-Type`, and
/// decodes the answer with the adapter's decoder.
@Suite struct ClientEndpointsTests {
    private static let enrollmentID = "3f2c1b7e-8d4a-4e5f-9a6b-0c1d2e3f4a5b"
    private static let paymentIntentID = "7d9e8f10-1a2b-4c3d-8e4f-5a6b7c8d9e0f"
    private static let institutions = """
        {"count": 1, "next": null, "previous": null, "results": [{"id": "i1", "name": "mockbank",
         "display_name": "Mock Bank", "icon_logo": "https://cdn.example/i.svg"}]}
        """

    /// What the loopback server answers to `request`: the guide's samples, the payment intent
    /// allowing the credential registered so far.
    private static func answer(
        _ request: LoopbackHTTPServer.Request, credentialID: String?
    ) -> LoopbackHTTPServer.Reply {
        let base = "/payments/br"
        let enrollment = #"{"id": "\#(enrollmentID)", "status": "SUCCEEDED"}"#
        switch (request.method, request.target) {
        case ("GET", "\(base)/institutions/"): return .answer(200, institutions)
        case ("POST", "\(base)/enrollments/"): return .answer(201, BelvoSamples.createdEnrollment)
        case ("POST", "\(base)/enrollments/complete-redirection/"):
            return .answer(200, BelvoSamples.createdEnrollment)
        case ("GET", "\(base)/enrollments/\(enrollmentID)/fido-registration-options/"):
            return .answer(200, BelvoGuideSamples.registrationOptions)
        case ("POST", "\(base)/enrollments/\(enrollmentID)/confirm/"),
            ("POST", "\(base)/payment-intents/\(paymentIntentID)/authorize/"):
            return .answer(204, "")
        case ("GET", "\(base)/enrollments/\(enrollmentID)/"): return .answer(200, enrollment)
        case ("GET", "\(base)/enrollments/?device_id=device-1"):
            return .answer(200, #"{"count": 1, "results": [\#(enrollment)]}"#)
        case ("POST", "\(base)/payment-intents/"),
            ("GET", "\(base)/payment-intents/\(paymentIntentID)/"):
            let options = BelvoGuideSamples.fidoOptions(allowing: credentialID ?? "AAAA")
            let intent = BelvoSamples.paymentIntent.replacingOccurrences(
                of: BelvoGuideSamples.fidoOptions, with: options)
            return .answer(request.method == "POST" ? 201 : 200, intent)
        case ("POST", "/payments/api/widget-token/"): return .answer(200, BelvoSamples.widgetToken)
        default: return .answer(404, #"{"detail": "no such endpoint"}"#)
        }
    }

    @Test func everyCallSendsItsDocumentedRequestAndDecodesTheAnswer() async throws {
        let credential = LockedState<String?>(nil)
        let server = try LoopbackHTTPServer { request in
            Self.answer(request, credentialID: credential.withLock { $0 })
        }
        defer { server.stop() }
        let client = BelvoClient(baseURL: server.baseURL, secretID: "sid", secretPassword: "spw")
        let store = try TemporaryStore()
        let device = BelvoDevice(store: store.store)
        let signals = try BelvoRiskSignals(jsonString: #"{"deviceId":"device-1"}"#)
        var bodies = [[UInt8]?]()

        #expect(try await client.getPaymentInstitutions().map(\.id) == ["i1"])
        bodies.append(nil)
        let create = try BelvoCreateEnrollmentRequest(
            customer: "c0ffee00-0000-4000-8000-000000000001", institution: "i1", name: "phone",
            callbackURL: "https://merchant.example/belvo/callback", riskSignals: signals)
        #expect(try await client.createEnrollment(create).id == Self.enrollmentID)
        bodies.append(create.body)
        _ = try await client.completeEnrollmentAfterRedirection(
            callbackURL: "https://merchant.example/belvo/callback?state=s&code=c&id_token=t")
        bodies.append(
            try BelvoCompleteRedirectionRequest(state: "s", code: "c", idToken: "t").body)
        let options = try #require(
            try await client.getFidoRegistrationOptions(enrollmentID: Self.enrollmentID))
        bodies.append(nil)
        let attestation = try device.startRegistration(options: BelvoRegistrationOptions(options))
        credential.withLock { $0 = attestation.encodedId }
        let confirm = try BelvoConfirmEnrollmentRequest(attestation: attestation)
        try await client.confirmEnrollment(enrollmentID: Self.enrollmentID, confirm)
        bodies.append(confirm.body)
        #expect(try await client.getEnrollment(id: Self.enrollmentID).status == .succeeded)
        bodies.append(nil)
        #expect(try await client.waitForEnrollment(id: Self.enrollmentID).status == .succeeded)
        bodies.append(nil)
        #expect(try await client.listEnrollments(deviceID: "device-1").count == 1)
        bodies.append(nil)
        let pay = try BelvoPaymentIntentRequest(
            amount: Decimal(13) / 100, customer: "c0ffee00-0000-4000-8000-000000000001",
            description: "Coffee", statementDescription: "COFFEE",
            beneficiaryBankAccount: "acct", enrollment: Self.enrollmentID)
        let intent = try await client.createPaymentIntent(pay)
        bodies.append(pay.body)
        let authorize = try device.authorizePaymentRequest(
            paymentIntent: intent, riskSignals: signals,
            platform: BelvoAuthorizePaymentRequest.iosPlatform)
        try await client.authorizePaymentIntent(paymentIntentID: intent.id, authorize)
        bodies.append(authorize.body)
        #expect(try await client.getPaymentIntent(id: intent.id).id == Self.paymentIntentID)
        bodies.append(nil)
        #expect(try await client.widgetToken().access == "eyJhbGciOiJIUzI1NiJ9.access.sig")
        bodies.append(nil)

        let base = "/payments/br"
        let sent = server.requests
        #expect(
            sent.map { "\($0.method) \($0.target)" } == [
                "GET \(base)/institutions/",
                "POST \(base)/enrollments/",
                "POST \(base)/enrollments/complete-redirection/",
                "GET \(base)/enrollments/\(Self.enrollmentID)/fido-registration-options/",
                "POST \(base)/enrollments/\(Self.enrollmentID)/confirm/",
                "GET \(base)/enrollments/\(Self.enrollmentID)/",
                "GET \(base)/enrollments/\(Self.enrollmentID)/",
                "GET \(base)/enrollments/?device_id=device-1",
                "POST \(base)/payment-intents/",
                "POST \(base)/payment-intents/\(Self.paymentIntentID)/authorize/",
                "GET \(base)/payment-intents/\(Self.paymentIntentID)/",
                "POST /payments/api/widget-token/",
            ])
        let basic = "Basic " + Data("sid:spw".utf8).base64EncodedString()
        #expect(sent.allSatisfy { $0.header("Authorization") == basic })
        try #require(sent.count == bodies.count)
        for (request, body) in zip(sent, bodies) {
            #expect(request.body == (body ?? []), "\(request.method) \(request.target)")
            #expect(
                // The widget-token call sends the guide's Content-Type without a body.
                request.header("Content-Type")
                    == (body == nil && request.target != BelvoAPI.widgetTokenPath
                        ? nil : "application/json"),
                "\(request.method) \(request.target)")
        }
    }
}
