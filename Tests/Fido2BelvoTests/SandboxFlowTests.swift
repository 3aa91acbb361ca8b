import Fido2Authenticator
import Fido2Belvo
import Fido2BelvoDevice
import Foundation
import Testing

/// docs/belvo.md's merchant test: the whole guide over HTTP with `BelvoClient`, a
/// `BelvoDevice` playing the payer's iPhone. It runs only when `BELVO_SECRET_ID` is set: against
/// Belvo's sandbox, or against `BELVO_BASE_URL` (Tests/Belvo/standin.py, for one).
@Suite struct SandboxFlowTests {
    @Test(.enabled(if: ProcessInfo.processInfo.environment["BELVO_SECRET_ID"] != nil))
    func enrollsAndPaysInBelvosSandbox() async throws {
        let environment = ProcessInfo.processInfo.environment
        let baseURL =
            environment["BELVO_BASE_URL"].flatMap(URL.init(string:)) ?? BelvoClient.sandboxBaseURL
        let client = BelvoClient(
            baseURL: baseURL,
            secretID: environment["BELVO_SECRET_ID"] ?? "",
            secretPassword: environment["BELVO_SECRET_PASSWORD"] ?? "")
        let customer = try #require(environment["BELVO_CUSTOMER_ID"])
        let beneficiary = try #require(environment["BELVO_BENEFICIARY_BANK_ACCOUNT"])
        let device = BelvoDevice(store: InMemoryCredentialStore())  // a fresh "iPhone"
        let signals = try BelvoRiskSignals(jsonString: #"{"deviceId":"merchant-ci-device"}"#)

        // Enrollment.
        let institution = try #require(try await client.getPaymentInstitutions().first)
        let callback = "https://merchant.example/belvo/callback"
        let enrollment = try await client.createEnrollment(
            BelvoCreateEnrollmentRequest(
                customer: customer, institution: institution.id, name: "CI iPhone",
                callbackURL: callback, riskSignals: signals))
        let returned = try await client.followBankRedirect(
            from: try #require(enrollment.details?.redirectURL), to: callback)
        _ = try await client.completeEnrollmentAfterRedirection(callbackURL: returned)
        let options = try #require(
            try await client.getFidoRegistrationOptions(enrollmentID: enrollment.id))
        let attestation = try device.startRegistration(options: BelvoRegistrationOptions(options))
        try await client.confirmEnrollment(
            enrollmentID: enrollment.id, BelvoConfirmEnrollmentRequest(attestation: attestation))
        #expect(try await client.waitForEnrollment(id: enrollment.id).status == .succeeded)

        // Payment.
        let intent = try await client.createPaymentIntent(
            BelvoPaymentIntentRequest(
                amount: Decimal(13) / 100, customer: customer, description: "CI coffee",
                statementDescription: "CI COFFEE", beneficiaryBankAccount: beneficiary,
                enrollment: enrollment.id))
        try await client.authorizePaymentIntent(
            paymentIntentID: intent.id,
            device.authorizePaymentRequest(paymentIntent: intent, riskSignals: signals))
        #expect(try await client.waitForPaymentIntent(id: intent.id).status == .succeeded)
    }
}
