import Fido2Encoding
import Fido2WebAuthn
import Fido2WebAuthnWire
import Testing

@testable import Fido2Belvo

/// The confirm and authorize bodies read back as the WebAuthn responses they carry, with the
/// WebAuthn module's strict reader; bodies that do not carry one are refused with the member
/// at fault.
@Suite struct BodiesReadBackTests {
    @Test func confirmBodyReadsBackAsTheRegistrationResponse() throws {
        let enrolled = try EnrolledDevice()
        let body = try BelvoConfirmEnrollmentRequest(attestation: enrolled.attestation).body
        let response = try BelvoConfirmEnrollmentRequest.registrationResponse(body: body)
        #expect(response.id == enrolled.attestation.encodedId)
        #expect(Base64URL.encode(response.rawId) == enrolled.attestation.rawId)
        #expect(
            Base64URL.encode(response.response.attestationObject)
                == enrolled.attestation.encodedAttestationObject)
        #expect(
            Base64URL.encode(response.response.clientDataJSON)
                == enrolled.attestation.encodedClientDataJSON)
        #expect(response.authenticatorAttachment == .platform)
    }

    @Test(arguments: [nil, BelvoAuthorizePaymentRequest.iosPlatform])
    func authorizeBodyReadsBackAsTheAuthenticationResponse(platform: String?) throws {
        let enrolled = try EnrolledDevice()
        let request = try enrolled.device.authorizePaymentRequest(
            fidoOptions: Array(enrolled.fidoOptions.utf8),
            riskSignals: BelvoRiskSignals(jsonString: BelvoSamples.riskSignals), platform: platform)
        let response = try BelvoAuthorizePaymentRequest.authenticationResponse(body: request.body)
        #expect(response.id == request.assertion.encodedId)
        #expect(Base64URL.encode(response.response.signature) == request.assertion.signature)
        #expect(
            Base64URL.encode(response.response.authenticatorData)
                == request.assertion.authenticatorData)
        #expect(response.response.userHandle.map(Base64URL.encode) == request.assertion.userHandle)
    }

    @Test(arguments: [
        ("{", nil as String?), ("[]", nil), (#"{"confirmation":{}}"#, "confirmation_data"),
        (#"{"confirmation_data": 3}"#, "confirmation_data"),
        (
            #"{"confirmation_data": {"id": "AQID", "rawId": "AQIE", "type": "public-key", "response": {"attestationObject": "oA", "clientDataJSON": "e30"}}}"#,
            "confirmation_data"
        ),
        (
            #"{"confirmation_data": {"id": "AQID", "rawId": "AQID", "type": "public-key", "response": {"clientDataJSON": "e30"}}}"#,
            "confirmation_data.response.attestationObject"
        ),
    ])
    func confirmBodyWithoutARegistrationResponseIsRefused(body: String, field: String?) {
        do {
            _ = try BelvoConfirmEnrollmentRequest.registrationResponse(body: Array(body.utf8))
            Issue.record("accepted \(body)")
        } catch let error as BelvoError {
            #expect(error.code == .malformedRequestBody)
            if let field { #expect(error.field?.hasPrefix(field) == true, "\(error)") }
        } catch {
            Issue.record("expected a BelvoError, got \(error)")
        }
    }

    @Test(arguments: [
        ("null", nil as String?), (#"{"risk_signals": {}}"#, "assertion"),
        (
            #"{"assertion": {"id": "AQID", "rawId": "AQID", "type": "public-key", "response": {"authenticatorData": "AQ", "clientDataJSON": "e30"}}}"#,
            "assertion.response.signature"
        ),
    ])
    func authorizeBodyWithoutAnAuthenticationResponseIsRefused(body: String, field: String?) {
        do {
            _ = try BelvoAuthorizePaymentRequest.authenticationResponse(body: Array(body.utf8))
            Issue.record("accepted \(body)")
        } catch let error as BelvoError {
            #expect(error.code == .malformedRequestBody)
            if let field { #expect(error.field?.hasPrefix(field) == true, "\(error)") }
        } catch {
            Issue.record("expected a BelvoError, got \(error)")
        }
    }
}
