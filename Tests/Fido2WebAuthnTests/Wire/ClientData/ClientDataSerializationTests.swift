import Fido2Encoding
import Fido2WebAuthnTestSupport
import Testing

@testable import Fido2WebAuthn
@testable import Fido2WebAuthnWire

private func text(_ clientData: CollectedClientData) -> String {
    String(decoding: clientData.jsonBytes(), as: UTF8.self)
}

@Test func writesTheFixedMembersInSpecificationOrder() throws {
    let clientData = try CollectedClientData(
        type: .get, challenge: [0xFB, 0xFF, 0x00], origin: "https://example.org")
    #expect(
        text(clientData)
            == #"{"type":"webauthn.get","challenge":"-_8A","origin":"https://example.org","crossOrigin":false}"#
    )
}

@Test func writesTopOriginOnlyWhenGivenForACrossOriginCall() throws {
    let crossOnly = try CollectedClientData(
        type: .create, challenge: [1], origin: "https://a.example", crossOrigin: true)
    #expect(
        text(crossOnly)
            == #"{"type":"webauthn.create","challenge":"AQ","origin":"https://a.example","crossOrigin":true}"#
    )
    let withTop = try CollectedClientData(
        type: .create, challenge: [1], origin: "https://a.example", crossOrigin: true,
        topOrigin: "https://b.example")
    #expect(
        text(withTop)
            == #"{"type":"webauthn.create","challenge":"AQ","origin":"https://a.example","crossOrigin":true,"topOrigin":"https://b.example"}"#
    )
}

@Test func supportsPaymentGet() throws {
    let clientData = try CollectedClientData(
        type: .paymentGet, challenge: [], origin: "https://shop.example",
        extraMembers: [
            "payment": ["rpId": "bank.example", "total": ["value": "1.01", "currency": "BRL"]]
        ])
    #expect(
        text(clientData)
            == #"{"type":"payment.get","challenge":"","origin":"https://shop.example","crossOrigin":false,"#
            + #""payment":{"rpId":"bank.example","total":{"value":"1.01","currency":"BRL"}}}"#)
}

@Test func escapesFixedMembersWithCCDToStringAndExtrasWithJSONStringify() throws {
    let clientData = try CollectedClientData(
        type: ClientDataType(rawValue: "x\ty"), challenge: [], origin: "o\"\\\n\u{1}é",
        crossOrigin: true, topOrigin: "t\r", extraMembers: ["e\n": "v\n\u{1}\"", "n": 1])
    #expect(
        text(clientData)
            == #"{"type":"x\u0009y","challenge":"","origin":"o\"\\\u000a\u0001é","crossOrigin":true,"#
            + #""topOrigin":"t\u000d","e\n":"v\n\u0001\"","n":1}"#)
}

@Test func writesTokenBindingBeforeExtraMembers() throws {
    let clientData = try CollectedClientData(
        type: .create, challenge: [0], origin: "https://a.example",
        tokenBinding: TokenBinding(status: "present", id: [1, 2, 3]), extraMembers: ["z": true])
    #expect(
        text(clientData)
            == #"{"type":"webauthn.create","challenge":"AA","origin":"https://a.example","crossOrigin":false,"#
            + #""tokenBinding":{"status":"present","id":"AQID"},"z":true}"#)
}

@Test func allocatesClientDataJSONAtItsExactSize() throws {
    let clientData = try CollectedClientData(
        type: .create, challenge: Array(0..<37), origin: "https://é.example\n", crossOrigin: true,
        topOrigin: "https://top.example", tokenBinding: TokenBinding(status: "supported"),
        extraMembers: ["a": [1, "\u{2}", ["b": .null]], "c": false])
    #expect(clientData.serializedLength == clientData.jsonBytes().count)
    let withId = try CollectedClientData(
        type: .get, challenge: [9], origin: "o",
        tokenBinding: TokenBinding(status: "present", id: [7]))
    #expect(withId.serializedLength == withId.jsonBytes().count)
}

@Test func refusesTopOriginWithoutCrossOrigin() {
    let error = builderError {
        try CollectedClientData(type: .get, challenge: [], origin: "o", topOrigin: "t")
    }
    #expect(error?.field == "topOrigin")
    #expect(error?.code == .invalidValue)
}

@Test func refusesExtraMembersThatShadowFixedMembers() {
    for name in ["type", "challenge", "origin", "crossOrigin", "topOrigin", "tokenBinding"] {
        let error = builderError {
            try CollectedClientData(type: .get, challenge: [], origin: "o", extraMembers: [name: 1])
        }
        #expect(error?.field == "extraMembers.\(name)")
        #expect(error?.code == .invalidValue)
    }
}

@Test func refusesRepeatedExtraMembers() {
    let error = builderError {
        try CollectedClientData(
            type: .get, challenge: [], origin: "o",
            extraMembers: JSONObject([JSONMember("a", 1), JSONMember("a", 2)]))
    }
    #expect(error?.field == "extraMembers.a")
    #expect(error?.code == .invalidValue)
}

private func builderError(_ body: () throws -> CollectedClientData) -> WebAuthnError? {
    do {
        _ = try body()
        Issue.record("built invalid client data")
        return nil
    } catch let error as WebAuthnError {
        return error
    } catch {
        Issue.record("unexpected error \(error)")
        return nil
    }
}
