import Fido2Encoding
import Fido2TestSupport
import Fido2WebAuthn
import Fido2WebAuthnTestSupport
import Fido2WebAuthnWire
import Testing

/// Typed client extension outputs and inputs (issue 32): credProps, prf, largeBlob, appid;
/// other outputs pass through; a bad shape is a typed error naming the field.
@Suite struct ClientExtensionOutputsTests {
    static func read(_ json: String) throws -> ClientExtensionOutputs {
        guard case .object(let object) = try JSONValue(parsing: json) else {
            throw WebAuthnError(.wrongType, "not an object")
        }
        return try ClientExtensionOutputs(object)
    }

    @Test func readsTheKnownOutputsAndKeepsTheOthers() throws {
        let outputs = try Self.read(
            #"{"credProps":{"rk":true},"prf":{"enabled":true,"results":{"first":"AQID","second":"BAU"}},"largeBlob":{"supported":false,"blob":"Bwg","written":true},"appid":true,"appidExclude":false,"devicePubKey":{"x":1}}"#
        )
        #expect(outputs.credentialProperties?.residentKey == true)
        #expect(outputs.pseudoRandomFunction?.enabled == true)
        #expect(outputs.pseudoRandomFunction?.first == [1, 2, 3])
        #expect(outputs.pseudoRandomFunction?.second == [4, 5])
        #expect(outputs.largeBlob == .init(supported: false, blob: [7, 8], written: true))
        #expect(outputs.appID == true && outputs.appIDExclude == false)
        #expect(outputs.unknown.names == ["devicePubKey"])
        let empty = try Self.read("{}")
        #expect(empty == ClientExtensionOutputs())
        let sparse = try Self.read(#"{"credProps":{},"prf":{"results":null}}"#)
        #expect(sparse.credentialProperties?.residentKey == nil)
        #expect(sparse.pseudoRandomFunction == .init())
    }

    @Test(arguments: [
        (#"{"credProps":true}"#, "clientExtensionResults.credProps"),
        (#"{"credProps":{"rk":"yes"}}"#, "clientExtensionResults.credProps.rk"),
        (#"{"prf":{"results":{"first":"a+b/"}}}"#, "clientExtensionResults.prf.results.first"),
        (#"{"prf":{"results":[]}}"#, "clientExtensionResults.prf.results"),
        (#"{"largeBlob":{"blob":5}}"#, "clientExtensionResults.largeBlob.blob"),
        (#"{"appid":"true"}"#, "clientExtensionResults.appid"),
    ])
    func refusesABadShapeNamingTheField(_ json: String, _ field: String) throws {
        let error = webAuthnError { () throws in try Self.read(json) }
        #expect(error?.field == field)
        #expect(error?.code == .wrongType || error?.code == .invalidValue)
    }

    @Test func aVerifiedAssertionReadsItsOutputs() throws {
        var ceremony = try SyntheticCeremony.p256()
        ceremony.type = .get
        ceremony.flags = [.userPresent]
        ceremony.signCount = 1
        var response = try ceremony.assertion()
        response.clientExtensionResults = [
            "largeBlob": .object(["written": .bool(true)]), "other": .number(JSONNumber(1 as Int)),
        ]
        let verified = try SyntheticCeremony.relyingParty().verifyAuthentication(
            response,
            expecting: AuthenticationExpectations(
                challenge: SyntheticCeremony.challenge, credential: try ceremony.record()))
        let outputs = try verified.clientExtensionOutputs()
        #expect(outputs.largeBlob?.written == true)
        #expect(outputs.unknown.names == ["other"])
        #expect(verified.clientExtensionResults.names == ["largeBlob", "other"])
    }

    @Test func buildsTheInputsAsJSON() throws {
        let registration = ExtensionInputs().credentialProperties().pseudoRandomFunction()
            .largeBlob(support: .preferred).appIDExclude("https://example.org/app-id.json")
        #expect(
            String(decoding: JSONValue.object(registration.json).serialized(), as: UTF8.self)
                == #"{"credProps":true,"prf":{},"largeBlob":{"support":"preferred"},"appidExclude":"https://example.org/app-id.json"}"#
        )
        let authentication = ExtensionInputs().pseudoRandomFunction(first: [1, 2, 3], second: [4])
            .largeBlobRead().largeBlobWrite([9]).appID("https://example.org/app-id.json")
        #expect(
            String(decoding: JSONValue.object(authentication.json).serialized(), as: UTF8.self)
                == #"{"prf":{"eval":{"first":"AQID","second":"BA"}},"largeBlob":{"write":"CQ"},"appid":"https://example.org/app-id.json"}"#
        )
        // Other extensions' inputs stay, and the options carry the JSON as written.
        let custom = ExtensionInputs(["example.ext": .bool(false)]).credentialProperties()
        #expect(custom.json.names == ["example.ext", "credProps"])
    }
}
