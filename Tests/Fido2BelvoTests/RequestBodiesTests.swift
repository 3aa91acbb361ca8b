import Foundation
import Testing

@testable import Fido2Belvo

/// The bodies we write have exactly the documented members, with the documented JSON types.
@Suite struct RequestBodiesTests {
    private let attestation = AttestationResponse(
        encodedId: "AQIDBA", rawId: "AQIDBA", encodedAttestationObject: "o2NmbXRkbm9uZQ",
        encodedClientDataJSON: "eyJ0eXBlIjoid2ViYXV0aG4uY3JlYXRlIn0")
    private let assertion = AssertionResponse(
        encodedId: "AQIDBA", rawId: "AQIDBA", authenticatorData: "SZYN5YgO",
        clientDataJSON: "eyJ0eXBlIjoid2ViYXV0aG4uZ2V0In0", signature: "MEUCIQ",
        userHandle: "YTViZDBlZjktZjhhYi00MWEyLWI5NjgtNDg5NzYxYTkxZGU2")

    private func riskSignals() throws -> BelvoRiskSignals {
        try BelvoRiskSignals(jsonString: BelvoSamples.riskSignals)
    }

    @Test func createEnrollmentBodyHasTheDocumentedMembers() throws {
        let request = try BelvoCreateEnrollmentRequest(
            customer: "c0ffee00-0000-4000-8000-000000000001",
            institution: "1ns71707-0000-4000-8000-000000000002", name: "Ralph's iPhone",
            callbackURL: "https://merchant.example/belvo/callback", riskSignals: riskSignals())
        let expected: JSONValue = .object([
            "type": .string("open_finance_biometric_pix"),
            "details": .object([
                "customer": .string("c0ffee00-0000-4000-8000-000000000001"),
                "institution": .string("1ns71707-0000-4000-8000-000000000002"),
                "name": .string("Ralph's iPhone"),
                "platform": .string("IOS"),
                "callback_url": .string("https://merchant.example/belvo/callback"),
                "risk_signals": try JSONValue.parse(BelvoSamples.riskSignals),
            ]),
        ])
        #expect(try JSONValue.parse(request.body) == expected)
    }

    @Test func riskSignalsAreEmbeddedByteForByte() throws {
        let signals = try riskSignals()
        let enrollment = try BelvoCreateEnrollmentRequest(
            customer: "c", institution: "i", name: "n", callbackURL: "https://m.example/cb",
            riskSignals: signals)
        let authorize = try BelvoAuthorizePaymentRequest(riskSignals: signals, assertion: assertion)
        let verbatim = Array(BelvoSamples.riskSignals.utf8)
        #expect(signals.json == verbatim)
        #expect(enrollment.body.firstRange(of: verbatim) != nil)
        #expect(authorize.body.firstRange(of: verbatim) != nil)
    }

    @Test func completeRedirectionBodyHasTheDocumentedMembers() throws {
        let request = try BelvoCompleteRedirectionRequest(
            state: "st\"ate", code: "co\\de", idToken: "eyJ.a.b")
        let expected: JSONValue = .object([
            "state": .string("st\"ate"), "code": .string("co\\de"), "id_token": .string("eyJ.a.b"),
        ])
        #expect(try JSONValue.parse(request.body) == expected)
    }

    @Test func paymentIntentBodyHasTheDocumentedMembers() throws {
        let request = try BelvoPaymentIntentRequest(
            amount: Decimal(string: "0.13")!, customer: "c0ffee00-0000-4000-8000-000000000001",
            description: "Coffee \u{1}and\ncake", statementDescription: "CAFE",
            beneficiaryBankAccount: "bank-account-uuid", enrollment: "enrollment-uuid")
        let expected: JSONValue = .object([
            "amount": .number(0.13),
            "allowed_payment_method_types": .array([.string("open_finance_biometric_pix")]),
            "customer": .string("c0ffee00-0000-4000-8000-000000000001"),
            "description": .string("Coffee \u{1}and\ncake"),
            "statement_description": .string("CAFE"),
            "payment_method_details": .object([
                "open_finance_biometric_pix": .object([
                    "beneficiary_bank_account": .string("bank-account-uuid"),
                    "enrollment": .string("enrollment-uuid"),
                ])
            ]),
            "confirm": .bool(true),
        ])
        #expect(try JSONValue.parse(request.body) == expected)
    }

    @Test(arguments: [
        ("0.13", "0.13"), ("10", "10"), ("10.5", "10.5"), ("10.50", "10.5"), ("0.01", "0.01"),
        ("1234567.89", "1234567.89"), ("1000000000000", "1000000000000"),
    ])
    func amountIsWrittenAsAPlainDecimalNumber(input: String, written: String) throws {
        let request = try BelvoPaymentIntentRequest(
            amount: Decimal(string: input)!, customer: "c", description: "d",
            statementDescription: "s", beneficiaryBankAccount: "b", enrollment: "e")
        let body = String(decoding: request.body, as: UTF8.self)
        #expect(body.hasPrefix("{\"amount\":\(written),"))
    }

    @Test func confirmEnrollmentBodyHasTheDocumentedMembers() throws {
        let request = try BelvoConfirmEnrollmentRequest(attestation: attestation)
        let expected: JSONValue = .object([
            "confirmation_data": .object([
                "authenticatorAttachment": .string("platform"),
                "id": .string("AQIDBA"),
                "rawId": .string("AQIDBA"),
                "type": .string("public-key"),
                "response": .object([
                    "attestationObject": .string("o2NmbXRkbm9uZQ"),
                    "clientDataJSON": .string("eyJ0eXBlIjoid2ViYXV0aG4uY3JlYXRlIn0"),
                ]),
            ])
        ])
        #expect(try JSONValue.parse(request.body) == expected)
    }

    private func expectedAssertion() -> JSONValue {
        .object([
            "authenticatorAttachment": .string("platform"),
            "id": .string("AQIDBA"),
            "rawId": .string("AQIDBA"),
            "response": .object([
                "authenticatorData": .string("SZYN5YgO"),
                "clientDataJSON": .string("eyJ0eXBlIjoid2ViYXV0aG4uZ2V0In0"),
                "signature": .string("MEUCIQ"),
                "userHandle": .string("YTViZDBlZjktZjhhYi00MWEyLWI5NjgtNDg5NzYxYTkxZGU2"),
            ]),
            "type": .string("public-key"),
        ])
    }

    @Test func authorizeBodyGuideEditionHasNoPlatform() throws {
        let request = try BelvoAuthorizePaymentRequest(
            riskSignals: riskSignals(), assertion: assertion)
        let expected: JSONValue = .object([
            "risk_signals": try JSONValue.parse(BelvoSamples.riskSignals),
            "assertion": expectedAssertion(),
        ])
        #expect(try JSONValue.parse(request.body) == expected)
    }

    @Test func authorizeBodySDKEditionAddsPlatformIOS() throws {
        let request = try BelvoAuthorizePaymentRequest(
            riskSignals: riskSignals(), assertion: assertion,
            platform: BelvoAuthorizePaymentRequest.iosPlatform)
        let expected: JSONValue = .object([
            "platform": .string("ios"),
            "risk_signals": try JSONValue.parse(BelvoSamples.riskSignals),
            "assertion": expectedAssertion(),
        ])
        #expect(try JSONValue.parse(request.body) == expected)
    }
}
