import Fido2Belvo
import Fido2Vectors
import Testing

/// Belvo JSON that repeats a member name is refused, naming the member: `JSONDecoder` alone
/// would keep the first of the two, so the device could sign a challenge that another reader
/// of the same body (Belvo, a proxy, a log) takes to be the other one (issue 21).
@Suite struct RepeatedMemberNameTests {
    /// `text` with the first occurrence of `member` written twice, the copy first.
    static func repeating(_ member: String, as copy: String, in text: String) -> String {
        guard let range = text.range(of: "\"\(member)\":") else {
            preconditionFailure("fixture has no \(member)")
        }
        return text.replacingCharacters(in: range, with: "\"\(member)\": \(copy), \"\(member)\":")
    }

    static func expectRepeated(
        _ code: BelvoError.Code, field: String, sourceLocation: SourceLocation = #_sourceLocation,
        _ body: () throws -> Void
    ) {
        do {
            try body()
            Issue.record("a repeated member name was accepted", sourceLocation: sourceLocation)
        } catch let error as BelvoError {
            #expect(error.code == code, "\(error)", sourceLocation: sourceLocation)
            #expect(error.field == field, "\(error)", sourceLocation: sourceLocation)
            #expect(
                error.reason.contains("appears twice"), "\(error)", sourceLocation: sourceLocation)
        } catch {
            Issue.record("expected a BelvoError, got \(error)")
        }
    }

    @Test(arguments: [
        ("challenge", "\"AAAA\"", "challenge"), ("id", "\"evil.example\"", "rp.id"),
        ("pubKeyCredParams", "[]", "pubKeyCredParams"),
    ])
    func registrationOptionsRepeatingAMemberAreRefused(
        member: String, copy: String, field: String
    ) throws {
        let enrolled = try EnrolledDevice()
        let before = try enrolled.temporary.snapshot()
        let json = Self.repeating(member, as: copy, in: BelvoGuideSamples.registrationOptions)
        Self.expectRepeated(.malformedFidoOptions, field: field) { () throws in
            _ = try enrolled.device.startRegistration(fidoOptions: json)
        }
        #expect(try enrolled.temporary.snapshot() == before)
    }

    @Test func fidoOptionsRepeatingTheChallengeAreRefused() throws {
        let enrolled = try EnrolledDevice()
        let before = try enrolled.temporary.snapshot()
        let json = Self.repeating("challenge", as: "\"AAAA\"", in: enrolled.fidoOptions)
        Self.expectRepeated(.malformedFidoOptions, field: "challenge") { () throws in
            _ = try enrolled.device.startSigning(fidoOptions: json)
        }
        Self.expectRepeated(.malformedFidoOptions, field: "challenge") { () throws in
            _ = try BelvoAssertionOptions(json: Array(json.utf8))
        }
        #expect(try enrolled.temporary.snapshot() == before)
    }

    @Test func aPaymentIntentRepeatingAMemberIsRefused() {
        let fido = "payment_method_information.open_finance_biometric_pix.fido_options"
        let inOptions = Self.repeating("challenge", as: "\"AAAA\"", in: BelvoSamples.paymentIntent)
        Self.expectRepeated(.malformedFidoOptions, field: fido + ".challenge") {
            () throws in
            _ = try BelvoPaymentIntent(json: Array(inOptions.utf8))
        }
        let outside = Self.repeating("status", as: "\"SUCCEEDED\"", in: BelvoSamples.paymentIntent)
        Self.expectRepeated(.malformedResponse, field: "status") { () throws in
            _ = try BelvoPaymentIntent(json: Array(outside.utf8))
        }
    }

    @Test func anAPIAnswerRepeatingAMemberIsRefused() throws {
        let endpoint = BelvoAPI.widgetToken(secretID: "i", secretPassword: "p")
        let body = Self.repeating("access", as: "\"other\"", in: BelvoSamples.widgetToken)
        Self.expectRepeated(.malformedResponse, field: "access") { () throws in
            _ = try endpoint.decode(status: 200, body: Array(body.utf8))
        }
    }

    @Test func malformedJSONIsStillNamedAsSuch() {
        do {
            _ = try BelvoAssertionOptions(json: Array(#"{"challenge": "AAAA",}"#.utf8))
            Issue.record("a trailing comma was accepted")
        } catch let error as BelvoError {
            #expect(error.code == .malformedFidoOptions)
            #expect(error.reason.contains("not valid JSON"), "\(error)")
        } catch {
            Issue.record("expected a BelvoError, got \(error)")
        }
    }
}
