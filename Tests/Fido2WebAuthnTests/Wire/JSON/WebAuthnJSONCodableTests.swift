import Fido2Encoding
import Fido2TestSupport
import Fido2WebAuthn
import Fido2WebAuthnTestSupport
import Foundation
import Testing

/// The WebAuthn JSON forms through `Codable`: what a Vapor or Hummingbird handler does with a
/// request body.
@Suite struct WebAuthnJSONCodableTests {
    /// A body as a browser's `toJSON()` writes it, with members in its order and one this
    /// library does not know.
    static let registrationBody = #"""
        {"id":"AQID","rawId":"AQID","type":"public-key","authenticatorAttachment":"platform",
         "response":{"clientDataJSON":"e30","attestationObject":"oA","transports":["internal","hybrid"],
                     "publicKeyAlgorithm":-7},
         "clientExtensionResults":{"credProps":{"rk":true}},"somethingNew":[1]}
        """#

    struct Envelope: Codable {
        let sessionID: String
        let credential: RegistrationResponseJSON
    }

    @Test func decodesARequestBodyAsTheScannerReadsIt() throws {
        let decoded = try JSONDecoder().decode(
            RegistrationResponseJSON.self, from: Data(Self.registrationBody.utf8))
        #expect(decoded == (try RegistrationResponseJSON(jsonText: Self.registrationBody)))
        #expect(decoded.rawId == [1, 2, 3])
        #expect(decoded.response.transports == [.internal, .hybrid])
        #expect(decoded.clientExtensionResults["credProps"]?["rk"] == .bool(true))
        let envelope = try JSONDecoder().decode(
            Envelope.self,
            from: Data(#"{"sessionID":"s1","credential":\#(Self.registrationBody)}"#.utf8))
        #expect(envelope.credential == decoded)
    }

    @Test func encodesWhatABrowserParses() throws {
        let options = PublicKeyCredentialRequestOptionsJSON(
            challenge: [0xfb, 0xff], timeout: 60_000, rpId: "example.org",
            allowCredentials: [PublicKeyCredentialDescriptorJSON(id: [1], transports: [.usb])],
            userVerification: .required)
        let data = try JSONEncoder().encode(options)
        let value = try JSONValue(parsing: [UInt8](data))
        #expect(value["challenge"] == "-_8")
        // JSONEncoder chooses the member order; the members are the form's.
        let descriptor = try #require(value["allowCredentials"]?.arrayValue?.first)
        #expect(descriptor.objectValue?.names.sorted() == ["id", "transports", "type"])
        #expect(descriptor["id"] == "AQ" && descriptor["transports"] == ["usb"])
        #expect(
            try JSONDecoder().decode(PublicKeyCredentialRequestOptionsJSON.self, from: data)
                == options)
    }

    @Test func reportsTheMissingMemberThroughDecodingError() {
        let body = Data(#"{"id":"AQID","type":"public-key","response":{}}"#.utf8)
        do {
            _ = try JSONDecoder().decode(RegistrationResponseJSON.self, from: body)
            Issue.record("an incomplete response decoded")
        } catch DecodingError.dataCorrupted(let context) {
            let error = context.underlyingError as? WebAuthnError
            #expect(error?.code == .missingMember)
            #expect(error?.field == "response.clientDataJSON")
        } catch {
            Issue.record("\(error)")
        }
    }

    @Test func encodesEnumerationsAsTheirStrings() throws {
        let data = try JSONEncoder().encode([UserVerificationRequirement.required, "future-value"])
        #expect(String(decoding: data, as: UTF8.self) == #"["required","future-value"]"#)
        #expect(
            try JSONDecoder().decode(
                [AuthenticatorTransport].self, from: Data(#"["usb","x"]"#.utf8))
                == [.usb, "x"])
    }

    /// `JSONEncoder` writes an object's members in an order of its own: a form whose free-form
    /// extensions hold several members still reads back equal (fuzz finding of `webauthn-json`,
    /// 2026-11-28, on request options).
    @Test func aFormWithSeveralExtensionsSurvivesJSONEncoder() throws {
        let form = try PublicKeyCredentialRequestOptionsJSON(
            jsonText:
                #"{"challenge":"AMMPt3UxxGTStncdq417YDwBFi8vpIa-pw8oOuVW4TA","extensions":{"crID":"example.org","userVerifitiacon":"required","laloweud3edProps":true}}"#
        )
        let encoded = try JSONEncoder().encode(form)
        #expect(try PublicKeyCredentialRequestOptionsJSON(jsonBytes: [UInt8](encoded)) == form)
        #expect(
            try JSONDecoder().decode(PublicKeyCredentialRequestOptionsJSON.self, from: encoded)
                == form)
    }
}
