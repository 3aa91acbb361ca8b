import Foundation
import Testing

@testable import Fido2Belvo

/// Request values refuse input Belvo would reject, with a typed error naming the field.
@Suite struct RequestValidationTests {
    private let signals = try! BelvoRiskSignals(jsonString: "{\"deviceId\": \"x\"}")
    private let attestation = AttestationResponse(
        encodedId: "AQIDBA", rawId: "AQIDBA", encodedAttestationObject: "o2NmbXQ",
        encodedClientDataJSON: "e30")
    private let assertion = AssertionResponse(
        encodedId: "AQIDBA", rawId: "AQIDBA", authenticatorData: "SZYN", clientDataJSON: "e30",
        signature: "MEUCIQ", userHandle: "YWJj")

    @Test(arguments: [
        "http://merchant.example/cb", "merchant://callback", "//merchant.example/cb",
        "https:///no-host", "not a url", "",
    ])
    func nonHTTPSCallbackURLIsRefused(url: String) {
        let error = #expect(throws: BelvoError.self) {
            try BelvoCreateEnrollmentRequest(
                customer: "c", institution: "i", name: "n", callbackURL: url, riskSignals: signals)
        }
        #expect(error?.code == .insecureCallbackURL)
        #expect(error?.kind == .invalidParameters)
        #expect(error?.field == "details.callback_url")
        #expect(error?.reason.contains("https") == true)
    }

    @Test func uppercaseHTTPSSchemeIsAccepted() throws {
        let request = try BelvoCreateEnrollmentRequest(
            customer: "c", institution: "i", name: "n", callbackURL: "HTTPS://m.example/cb",
            riskSignals: signals)
        #expect(request.callbackURL == "HTTPS://m.example/cb")
    }

    @Test(arguments: [
        ("", "i", "n", "details.customer"), ("c", " ", "n", "details.institution"),
        ("c", "i", "", "details.name"),
    ])
    func emptyEnrollmentFieldIsNamed(
        customer: String, institution: String, name: String, field: String
    ) {
        let error = #expect(throws: BelvoError.self) {
            try BelvoCreateEnrollmentRequest(
                customer: customer, institution: institution, name: name,
                callbackURL: "https://m.example/cb", riskSignals: signals)
        }
        #expect(error?.code == .missingField)
        #expect(error?.field == field)
    }

    private func paymentIntent(
        amount: String = "0.13", customer: String = "c", description: String = "d",
        statement: String = "s", account: String = "b", enrollment: String = "e",
        confirm: Bool = true
    ) throws -> BelvoPaymentIntentRequest {
        try BelvoPaymentIntentRequest(
            amount: Decimal(string: amount) ?? .nan, customer: customer, description: description,
            statementDescription: statement, beneficiaryBankAccount: account,
            enrollment: enrollment, confirm: confirm)
    }

    @Test func unconfirmedPaymentIntentIsRefused() {
        let error = #expect(throws: BelvoError.self) { try paymentIntent(confirm: false) }
        #expect(error?.code == .paymentNotConfirmed)
        #expect(error?.kind == .invalidParameters)
        #expect(error?.field == "confirm")
        #expect(error?.reason.contains("confirm must be true") == true)
    }

    @Test(arguments: ["0", "-1", "0.001", "12.345", "1000000000000.01", "nan"])
    func invalidAmountIsRefused(amount: String) {
        let error = #expect(throws: BelvoError.self) { try paymentIntent(amount: amount) }
        #expect(error?.code == .invalidAmount)
        #expect(error?.field == "amount")
    }

    @Test func amountInCentavosIsExact() throws {
        #expect(try paymentIntent(amount: "0.13").amountInCentavos == 13)
        #expect(try paymentIntent(amount: "1234.5").amountInCentavos == 123450)
    }

    @Test func emptyPaymentFieldsAreNamed() {
        let prefix = "payment_method_details.open_finance_biometric_pix"
        let cases: [(() throws -> BelvoPaymentIntentRequest, String)] = [
            ({ () throws in try paymentIntent(customer: "") }, "customer"),
            ({ () throws in try paymentIntent(description: "") }, "description"),
            (
                { () throws in try paymentIntent(statement: "") },
                "statement_description"
            ),
            (
                { () throws in try paymentIntent(account: "") },
                "\(prefix).beneficiary_bank_account"
            ),
            (
                { () throws in try paymentIntent(enrollment: "") },
                "\(prefix).enrollment"
            ),
        ]
        for (make, field) in cases {
            let error = #expect(throws: BelvoError.self) { try make() }
            #expect(error?.code == .missingField)
            #expect(error?.field == field)
        }
    }

    @Test(arguments: [
        ("{\"a\": }", "not valid JSON"), ("[1, 2]", "must be a JSON object"),
        ("\"text\"", "must be a JSON object"), ("", "not valid JSON"),
        ("{} {}", "not valid JSON"),
        // Found by fuzz-belvo: Foundation's parser took a trailing comma, and the authorize
        // body embedding the signals verbatim was then not JSON.
        ("{\"a\": [{\"b\": 1,}]}", "not valid JSON"), ("{\"a\": 1,}", "not valid JSON"),
        ("{\"a\": 1, \"a\": 2}", "not valid JSON"), ("{\"a\": NaN}", "not valid JSON"),
        ("{\"a\": 1} // note", "not valid JSON"),
    ])
    func malformedRiskSignalsAreRefused(json: String, message: String) {
        let error = #expect(throws: BelvoError.self) { try BelvoRiskSignals(jsonString: json) }
        #expect(error?.code == .malformedRiskSignals)
        #expect(error?.reason.contains(message) == true)
    }

    @Test func riskSignalsThatAreNotUTF8OrStartWithABOMAreRefused() {
        let latin1: [UInt8] = Array("{\"a\": \"".utf8) + [0xE9] + Array("\"}".utf8)
        let notUTF8 = #expect(throws: BelvoError.self) { try BelvoRiskSignals(json: latin1) }
        #expect(notUTF8?.reason.contains("UTF-8") == true)
        let bom = #expect(throws: BelvoError.self) {
            try BelvoRiskSignals(json: [0xEF, 0xBB, 0xBF] + Array("{}".utf8))
        }
        #expect(bom?.reason.contains("byte order mark") == true)
    }

    @Test func deeplyNestedRiskSignalsFailWithoutCrashing() {
        let json =
            "{\"a\": " + String(repeating: "[", count: 100_000)
            + String(repeating: "]", count: 100_000) + "}"
        let error = #expect(throws: BelvoError.self) { try BelvoRiskSignals(jsonString: json) }
        #expect(error?.code == .malformedRiskSignals)
    }

    @Test(
        arguments: [
            (\AttestationResponse.encodedId, "AQ=", "confirmation_data.id"),
            (\AttestationResponse.rawId, "AQ+D", "confirmation_data.rawId"),
            (
                \AttestationResponse.encodedAttestationObject, "",
                "confirmation_data.response.attestationObject"
            ),
            (
                \AttestationResponse.encodedClientDataJSON, "e3 0",
                "confirmation_data.response.clientDataJSON"
            ),
        ] as [(any WritableKeyPath<AttestationResponse, String> & Sendable, String, String)])
    func confirmBodyRefusesNonBase64urlMembers(
        member: any WritableKeyPath<AttestationResponse, String> & Sendable, value: String,
        field: String
    ) {
        var bad = attestation
        bad[keyPath: member] = value
        let error = #expect(throws: BelvoError.self) {
            try BelvoConfirmEnrollmentRequest(attestation: bad)
        }
        #expect(error?.code == .invalidBase64URL)
        #expect(error?.field == field)
    }

    @Test func confirmBodyRefusesMismatchedIDs() {
        var bad = attestation
        bad.rawId = "AQIDBQ"
        let error = #expect(throws: BelvoError.self) {
            try BelvoConfirmEnrollmentRequest(attestation: bad)
        }
        #expect(error?.code == .credentialIDMismatch)
    }

    @Test(
        arguments: [
            (\AssertionResponse.encodedId, "AQ==", "assertion.id"),
            (\AssertionResponse.rawId, "", "assertion.rawId"),
            (\AssertionResponse.authenticatorData, "SZY/", "assertion.response.authenticatorData"),
            (\AssertionResponse.clientDataJSON, "e", "assertion.response.clientDataJSON"),
            (\AssertionResponse.signature, "", "assertion.response.signature"),
            (\AssertionResponse.userHandle, "", "assertion.response.userHandle"),
        ] as [(any WritableKeyPath<AssertionResponse, String> & Sendable, String, String)])
    func authorizeBodyRefusesNonBase64urlMembers(
        member: any WritableKeyPath<AssertionResponse, String> & Sendable, value: String,
        field: String
    ) {
        var bad = assertion
        bad[keyPath: member] = value
        let error = #expect(throws: BelvoError.self) {
            try BelvoAuthorizePaymentRequest(riskSignals: signals, assertion: bad)
        }
        #expect(error?.code == .invalidBase64URL)
        #expect(error?.field == field)
    }

    @Test func authorizeBodyRefusesMismatchedIDsAndEmptyPlatform() {
        var bad = assertion
        bad.encodedId = "AQIDBQ"
        let mismatch = #expect(throws: BelvoError.self) {
            try BelvoAuthorizePaymentRequest(riskSignals: signals, assertion: bad)
        }
        #expect(mismatch?.code == .credentialIDMismatch)
        let platform = #expect(throws: BelvoError.self) {
            try BelvoAuthorizePaymentRequest(
                riskSignals: signals, assertion: assertion, platform: "")
        }
        #expect(platform?.code == .missingField)
        #expect(platform?.field == "platform")
    }
}
