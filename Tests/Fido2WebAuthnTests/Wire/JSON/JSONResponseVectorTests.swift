import Fido2Encoding
import Fido2TestSupport
import Fido2WebAuthn
import Fido2WebAuthnTestSupport
import Fido2WebAuthnWire
import Testing

/// One real response from `real-registrations.json` or `real-authentications.json`.
struct RealResponse: CustomTestStringConvertible, Sendable {
    let caseId: String
    let credential: JSONValue

    var testDescription: String { caseId }
}

func realResponses(_ file: String) throws -> [RealResponse] {
    try sharedVectorJSON(file).array().map { testCase in
        RealResponse(
            caseId: try testCase.string("case_id"), credential: try testCase.member("credential"))
    }
}

@Test func coversEveryRealResponse() throws {
    #expect(try realResponses("real-registrations.json").count == 64)
    #expect(try realResponses("real-authentications.json").count == 19)
}

@Test(arguments: try realResponses("real-registrations.json"))
func readsEveryRealRegistrationResponse(_ vector: RealResponse) throws {
    let response = try RegistrationResponseJSON(jsonBytes: vector.credential.serialized())
    let credential = vector.credential
    #expect(response.id == (try credential.string("id")))
    #expect(response.rawId == (try Base64URL.decode(try credential.string("rawId"))))
    #expect(
        response.response.clientDataJSON
            == (try Base64URL.decode(try credential.string("response.clientDataJSON"))))
    #expect(
        response.response.attestationObject
            == (try Base64URL.decode(try credential.string("response.attestationObject"))))
    let transports = credential["response"]?["transports"]?.arrayValue?.compactMap(\.stringValue)
    #expect(response.response.transports?.map(\.rawValue) == transports)
    #expect(
        response.authenticatorAttachment?.rawValue
            == credential["authenticatorAttachment"]?.stringValue)
    #expect(
        response.clientExtensionResults == credential["clientExtensionResults"]?.objectValue ?? [:])
}

@Test(arguments: try realResponses("real-registrations.json"))
func roundTripsEveryRealRegistrationResponse(_ vector: RealResponse) throws {
    let response = try RegistrationResponseJSON(jsonBytes: vector.credential.serialized())
    let bytes = response.jsonBytes()
    #expect(try RegistrationResponseJSON(jsonBytes: bytes) == response)
    #expect(try RegistrationResponseJSON(jsonBytes: bytes).jsonBytes() == bytes)
}

@Test(arguments: try realResponses("real-authentications.json"))
func readsEveryRealAuthenticationResponse(_ vector: RealResponse) throws {
    let response = try AuthenticationResponseJSON(jsonBytes: vector.credential.serialized())
    let credential = vector.credential
    #expect(response.id == (try credential.string("id")))
    #expect(
        response.response.authenticatorData
            == (try Base64URL.decode(try credential.string("response.authenticatorData"))))
    #expect(
        response.response.signature
            == (try Base64URL.decode(try credential.string("response.signature"))))
    let userHandle = try credential["response"]?["userHandle"]?.stringValue.map { text in
        try Base64URL.decode(text)
    }
    #expect(response.response.userHandle == userHandle)
}

@Test(arguments: try realResponses("real-authentications.json"))
func roundTripsEveryRealAuthenticationResponse(_ vector: RealResponse) throws {
    let response = try AuthenticationResponseJSON(jsonBytes: vector.credential.serialized())
    let bytes = response.jsonBytes()
    #expect(try AuthenticationResponseJSON(jsonBytes: bytes) == response)
    #expect(try AuthenticationResponseJSON(jsonBytes: bytes).jsonBytes() == bytes)
}

@Test func writesRegistrationResponsesInIDLOrder() throws {
    let response = RegistrationResponseJSON(
        rawId: [1, 2, 3],
        response: AuthenticatorAttestationResponseJSON(
            clientDataJSON: [4], authenticatorData: [5], transports: [.internal, .hybrid],
            publicKey: [6],
            publicKeyAlgorithm: -7, attestationObject: [7]),
        authenticatorAttachment: .platform, clientExtensionResults: ["credProps": ["rk": true]])
    #expect(
        response.jsonText()
            == #"{"id":"AQID","rawId":"AQID","response":{"clientDataJSON":"BA","authenticatorData":"BQ","#
            + #""transports":["internal","hybrid"],"publicKey":"Bg","publicKeyAlgorithm":-7,"attestationObject":"Bw"},"#
            + #""authenticatorAttachment":"platform","clientExtensionResults":{"credProps":{"rk":true}},"type":"public-key"}"#
    )
    let minimal = RegistrationResponseJSON(
        rawId: [],
        response: AuthenticatorAttestationResponseJSON(clientDataJSON: [], attestationObject: []))
    #expect(
        minimal.jsonText()
            == #"{"id":"","rawId":"","response":{"clientDataJSON":"","attestationObject":""},"#
            + #""clientExtensionResults":{},"type":"public-key"}"#)
}

@Test func writesAuthenticationResponsesInIDLOrder() throws {
    let response = AuthenticationResponseJSON(
        rawId: [0xFB, 0xFF],
        response: AuthenticatorAssertionResponseJSON(
            clientDataJSON: [1], authenticatorData: [2], signature: [3], userHandle: [4]),
        authenticatorAttachment: .crossPlatform)
    #expect(
        response.jsonText()
            == #"{"id":"-_8","rawId":"-_8","response":{"clientDataJSON":"AQ","authenticatorData":"Ag","#
            + #""signature":"Aw","userHandle":"BA"},"authenticatorAttachment":"cross-platform","#
            + #""clientExtensionResults":{},"type":"public-key"}"#)
}
