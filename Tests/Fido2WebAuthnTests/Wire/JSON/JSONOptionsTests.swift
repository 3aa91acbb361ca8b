import Fido2Encoding
import Fido2WebAuthn
import Fido2WebAuthnTestSupport
import Fido2WebAuthnWire
import Testing

private let fullCreationOptions =
    #"{"rp":{"name":"Example","id":"example.org"},"#
    + #""user":{"id":"dXNlcg","name":"alice@example.org","displayName":"Alice"},"#
    + #""challenge":"AQIDBA","pubKeyCredParams":[{"type":"public-key","alg":-7},{"type":"public-key","alg":-257}],"#
    + #""timeout":60000,"excludeCredentials":[{"type":"public-key","id":"AAE","transports":["usb","nfc"]}],"#
    + #""authenticatorSelection":{"authenticatorAttachment":"cross-platform","residentKey":"required","#
    + #""requireResidentKey":true,"userVerification":"required"},"hints":["security-key"],"#
    + #""attestation":"direct","attestationFormats":["packed","none"],"extensions":{"credProps":true}}"#

@Test func readsEveryCreationOptionsMember() throws {
    let options = try PublicKeyCredentialCreationOptionsJSON(jsonText: fullCreationOptions)
    #expect(options.rp == PublicKeyCredentialRpEntity(name: "Example", id: "example.org"))
    #expect(
        options.user
            == PublicKeyCredentialUserEntityJSON(
                id: Array("user".utf8), name: "alice@example.org", displayName: "Alice"))
    #expect(options.challenge == [1, 2, 3, 4])
    #expect(options.pubKeyCredParams.map(\.alg) == [-7, -257])
    #expect(options.timeout == 60000)
    #expect(
        options.excludeCredentials == [
            PublicKeyCredentialDescriptorJSON(id: [0, 1], transports: [.usb, .nfc])
        ])
    #expect(
        options.authenticatorSelection
            == AuthenticatorSelectionCriteria(
                authenticatorAttachment: .crossPlatform, residentKey: .required,
                requireResidentKey: true,
                userVerification: .required))
    #expect(options.hints == [.securityKey])
    #expect(options.attestation == .direct)
    #expect(options.attestationFormats == ["packed", "none"])
    #expect(options.extensions == ["credProps": true])
}

@Test func writesCreationOptionsExactlyInIDLOrder() throws {
    let options = try PublicKeyCredentialCreationOptionsJSON(jsonText: fullCreationOptions)
    #expect(options.jsonText() == fullCreationOptions)
}

@Test func fillsCreationOptionsDefaults() throws {
    let minimal =
        #"{"rp":{"name":"R"},"user":{"id":"","name":"n","displayName":"d"},"challenge":"","pubKeyCredParams":[]}"#
    let options = try PublicKeyCredentialCreationOptionsJSON(jsonText: minimal)
    #expect(options.rp.id == nil)
    #expect(options.timeout == nil)
    #expect(options.excludeCredentials.isEmpty)
    #expect(options.authenticatorSelection == nil)
    #expect(options.hints.isEmpty)
    #expect(options.attestation == .none)
    #expect(options.attestationFormats.isEmpty)
    #expect(options.extensions == nil)
    #expect(
        options.jsonText()
            == #"{"rp":{"name":"R"},"user":{"id":"","name":"n","displayName":"d"},"challenge":"","#
            + #""pubKeyCredParams":[],"excludeCredentials":[],"hints":[],"attestation":"none","attestationFormats":[]}"#
    )
    let selection = try AuthenticatorSelectionCriteria(jsonText: "{}")
    #expect(selection == AuthenticatorSelectionCriteria())
    #expect(selection.jsonText() == #"{"requireResidentKey":false,"userVerification":"preferred"}"#)
}

@Test func treatsNullOptionalMembersAsAbsent() throws {
    let text =
        #"{"challenge":"AA","timeout":null,"rpId":null,"allowCredentials":null,"userVerification":null,"#
        + #""hints":null,"extensions":null}"#
    let options = try PublicKeyCredentialRequestOptionsJSON(jsonText: text)
    #expect(options == PublicKeyCredentialRequestOptionsJSON(challenge: [0]))
}

@Test func toleratesUnknownMembersAndValues() throws {
    let text =
        #"{"publicKeyFuture":1,"challenge":"AA","userVerification":"sometimes","hints":["teleport"],"#
        + #""allowCredentials":[{"type":"future-key","id":"AA","transports":["carrier-pigeon"],"extra":0}]}"#
    let options = try PublicKeyCredentialRequestOptionsJSON(jsonText: text)
    #expect(options.userVerification.rawValue == "sometimes")
    #expect(options.hints == ["teleport"])
    #expect(options.allowCredentials.first?.type == "future-key")
    #expect(options.allowCredentials.first?.transports == ["carrier-pigeon"])
}

@Test func readsAndWritesRequestOptions() throws {
    let text =
        #"{"challenge":"AQI","timeout":0,"rpId":"example.org","#
        + #""allowCredentials":[{"type":"public-key","id":"AQ"},{"type":"public-key","id":"Ag","transports":[]}],"#
        + #""userVerification":"discouraged","hints":["client-device","hybrid"],"extensions":{"appid":"https://x"}}"#
    let options = try PublicKeyCredentialRequestOptionsJSON(jsonText: text)
    #expect(options.challenge == [1, 2])
    #expect(options.timeout == 0)
    #expect(options.rpId == "example.org")
    #expect(options.allowCredentials.map(\.id) == [[1], [2]])
    #expect(options.allowCredentials.map(\.transports) == [nil, []])
    #expect(options.userVerification == .discouraged)
    #expect(options.hints == [.clientDevice, .hybrid])
    #expect(options.jsonText() == text)
    let minimal = PublicKeyCredentialRequestOptionsJSON(challenge: [1])
    #expect(
        minimal.jsonText()
            == #"{"challenge":"AQ","allowCredentials":[],"userVerification":"preferred","hints":[]}"#
    )
}

@Test func acceptsTheFullRangeOfTimeoutsAndAlgorithms() throws {
    let edge = try PublicKeyCredentialRequestOptionsJSON(
        jsonText: #"{"challenge":"","timeout":4294967295}"#)
    #expect(edge.timeout == .max)
    let params = try PublicKeyCredentialParameters(
        jsonText: #"{"type":"public-key","alg":-2147483648}"#)
    #expect(params.alg == Int(Int32.min))
}
