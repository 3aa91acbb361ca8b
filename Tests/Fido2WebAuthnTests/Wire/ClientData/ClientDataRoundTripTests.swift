import Fido2Encoding
import Fido2TestSupport
import Fido2WebAuthn
import Fido2WebAuthnTestSupport
import Fido2WebAuthnWire
import PropertyBased
import Testing

@Test func readsBackRandomClientData() async {
    await propertyCheck(count: 400, input: Gen<UInt64>.value(in: 0...UInt64.max)) { seed in
        var random = SplitMix(seed: seed)
        guard let clientData = randomClientData(&random) else {
            Issue.record("generator built invalid client data")
            return
        }
        let bytes = clientData.jsonBytes()
        do {
            let parsed = try ClientDataJSON(bytes: bytes)
            #expect(parsed.clientData == clientData)
            #expect(parsed.bytes == bytes)
            #expect(ClientDataJSON(clientData) == parsed)
        } catch {
            Issue.record(
                "rejected its own output \(String(decoding: bytes, as: UTF8.self)): \(error)")
        }
    }
}

func randomClientData(_ random: inout SplitMix) -> CollectedClientData? {
    let types: [ClientDataType] = [
        .create, .get, .paymentGet, ClientDataType(rawValue: random.jsonString()),
    ]
    let crossOrigin = random.below(2) == 0
    var extras = JSONObject()
    for index in 0..<random.below(4) {
        extras.append("x\(index)" + random.jsonString(), random.jsonValue(depth: 1))
    }
    let tokenBinding =
        random.below(4) == 0
        ? TokenBinding(status: random.jsonString(), id: random.below(2) == 0 ? random.bytes() : nil)
        : nil
    return try? CollectedClientData(
        type: types[random.below(types.count)], challenge: random.bytes(),
        origin: random.jsonString(),
        crossOrigin: crossOrigin,
        topOrigin: crossOrigin && random.below(2) == 0 ? random.jsonString() : nil,
        tokenBinding: tokenBinding, extraMembers: extras)
}
