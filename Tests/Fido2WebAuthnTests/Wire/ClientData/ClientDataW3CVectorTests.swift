import Fido2Encoding
import Fido2TestSupport
import Fido2WebAuthn
import Fido2WebAuthnTestSupport
import Fido2WebAuthnWire
import Testing

/// The inputs of one ceremony of one W3C test vector case, and the clientDataJSON it expects.
struct W3CClientDataCase: CustomTestStringConvertible {
    let label: String
    let type: ClientDataType
    let challenge: [UInt8]
    let origin: String
    let crossOrigin: Bool
    let topOrigin: String?
    let extraData: String?
    let expected: [UInt8]

    var testDescription: String { label }
}

/// Every registration and authentication of `webauthn-l3-test-vectors.json`.
func w3cClientDataCases() throws -> [W3CClientDataCase] {
    let document = try sharedVectorJSON("webauthn-l3-test-vectors.json")
    var cases: [W3CClientDataCase] = []
    for testCase in try document.array("cases") {
        let id = try testCase.string("id")
        let crossOrigin = try testCase.member("derived.cross_origin").boolValue ?? false
        let topOrigin = testCase["derived"]?["top_origin"]?.stringValue
        let origin = try testCase.string("derived.origin")
        for (ceremony, type) in [("registration", ClientDataType.create), ("authentication", .get)]
        {
            let values = try testCase.member("\(ceremony).values")
            let flags = try values.hexBytes("client_data_gen_flags")
            var extraData: String?
            if let flag = flags.first, flag & 0x01 != 0 {
                // The member's text, as the vectors README and the spec give it.
                let random = try values.hexBytes("extraData_random")
                extraData =
                    "clientDataJSON may be extended with additional fields in the future, "
                    + "such as this: " + Base64URL.encode(random)
            }
            cases.append(
                W3CClientDataCase(
                    label: "\(id) \(ceremony)", type: type,
                    challenge: try values.hexBytes("challenge"),
                    origin: origin, crossOrigin: crossOrigin, topOrigin: topOrigin,
                    extraData: extraData, expected: try values.hexBytes("clientDataJSON")))
        }
    }
    return cases
}

@Test func coversEveryW3CCeremony() throws {
    let cases = try w3cClientDataCases()
    #expect(cases.count == 30)
    #expect(cases.contains { $0.topOrigin != nil })
    #expect(cases.contains { $0.crossOrigin && $0.topOrigin == nil })
    #expect(cases.contains { $0.extraData != nil })
    #expect(cases.contains { $0.extraData == nil })
}

@Test(arguments: try w3cClientDataCases())
func reproducesW3CClientDataJSONByteForByte(_ vector: W3CClientDataCase) throws {
    var extra = JSONObject()
    if let extraData = vector.extraData { extra.append("extraData", .string(extraData)) }
    let clientData = try CollectedClientData(
        type: vector.type, challenge: vector.challenge, origin: vector.origin,
        crossOrigin: vector.crossOrigin, topOrigin: vector.topOrigin, extraMembers: extra)
    let bytes = clientData.jsonBytes()
    #expect(
        bytes == vector.expected,
        "\(String(decoding: bytes, as: UTF8.self)) != \(String(decoding: vector.expected, as: UTF8.self))"
    )
    #expect(ClientDataJSON(clientData).bytes == vector.expected)
}

@Test(arguments: try w3cClientDataCases())
func readsW3CClientDataJSONBack(_ vector: W3CClientDataCase) throws {
    let parsed = try ClientDataJSON(bytes: vector.expected)
    #expect(parsed.bytes == vector.expected)
    let clientData = parsed.clientData
    #expect(clientData.type == vector.type)
    #expect(clientData.challenge == vector.challenge)
    #expect(clientData.origin == vector.origin)
    #expect(clientData.crossOrigin == vector.crossOrigin)
    #expect(clientData.topOrigin == vector.topOrigin)
    #expect(clientData.tokenBinding == nil)
    #expect(clientData.extraMembers["extraData"]?.stringValue == vector.extraData)
    #expect(clientData.extraMembers.count == (vector.extraData == nil ? 0 : 1))
    #expect(clientData.jsonBytes() == vector.expected)
}
