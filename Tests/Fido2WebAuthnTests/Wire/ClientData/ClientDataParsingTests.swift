import Fido2Encoding
import Fido2TestSupport
import Fido2WebAuthn
import Fido2WebAuthnTestSupport
import Fido2WebAuthnWire
import Testing

private func parse(_ text: String) throws -> ClientDataJSON {
    try ClientDataJSON(bytes: Array(text.utf8))
}

@Test func keepsTheRawBytesForHashing() throws {
    // Whitespace, member order and escapes that a re-serialization would change.
    let text =
        "{ \"challenge\" : \"AQID\", \"origin\":\"https:\\/\\/a.example\",\"type\":\"webauthn.get\" }"
    let parsed = try parse(text)
    #expect(parsed.bytes == Array(text.utf8))
    #expect(parsed.clientData.origin == "https://a.example")
    #expect(parsed.clientData.challenge == [1, 2, 3])
    #expect(parsed.clientData.crossOrigin == false)
}

@Test func toleratesAndKeepsUnknownMembersInOrder() throws {
    let parsed = try parse(
        #"{"type":"webauthn.create","challenge":"AA","origin":"android:apk-key-hash:abc","#
            + #""androidPackageName":"com.example","crossOrigin":false,"other":{"x":[1]},"hashAlgorithm":"SHA-256"}"#
    )
    #expect(
        parsed.clientData.extraMembers.names == ["androidPackageName", "other", "hashAlgorithm"])
    #expect(parsed.clientData.extraMembers["other"] == ["x": [1]])
}

@Test func readsTokenBindingObjectsAndKeepsLegacyValuesAsExtras() throws {
    let object = try parse(
        #"{"type":"webauthn.create","challenge":"AA","origin":"o","tokenBinding":{"status":"present","id":"AQID"}}"#
    )
    #expect(object.clientData.tokenBinding == TokenBinding(status: "present", id: [1, 2, 3]))
    #expect(object.clientData.extraMembers.isEmpty)
    let legacy = try parse(
        #"{"type":"webauthn.create","challenge":"AA","origin":"o","tokenBinding":"unused"}"#)
    #expect(legacy.clientData.tokenBinding == nil)
    #expect(legacy.clientData.extraMembers["tokenBinding"] == "unused")
}

@Test func readsATopOriginEvenWithoutCrossOriginForTheRelyingPartyToJudge() throws {
    let parsed = try parse(
        #"{"type":"webauthn.get","challenge":"AA","origin":"o","crossOrigin":false,"topOrigin":"t"}"#
    )
    #expect(parsed.clientData.topOrigin == "t")
    #expect(parsed.clientData.crossOrigin == false)
}

/// (clientDataJSON text, field named in the error, code).
private let malformedClientData: [(String, String?, WebAuthnError.Code)] = [
    ("", "clientDataJSON", .malformedJSON),
    (#"{"type":"webauthn.get","#, "clientDataJSON", .malformedJSON),
    (
        #"{"type":"webauthn.get","type":"webauthn.get","challenge":"AA","origin":"o"}"#,
        "clientDataJSON", .malformedJSON
    ),
    (#"["webauthn.get"]"#, "clientDataJSON", .wrongType),
    (#"{"challenge":"AA","origin":"o"}"#, "clientDataJSON.type", .missingMember),
    (#"{"type":"webauthn.get","origin":"o"}"#, "clientDataJSON.challenge", .missingMember),
    (#"{"type":"webauthn.get","challenge":"AA"}"#, "clientDataJSON.origin", .missingMember),
    (#"{"type":1,"challenge":"AA","origin":"o"}"#, "clientDataJSON.type", .wrongType),
    (
        #"{"type":"webauthn.get","challenge":[0],"origin":"o"}"#, "clientDataJSON.challenge",
        .wrongType
    ),
    (
        #"{"type":"webauthn.get","challenge":"AA","origin":null}"#, "clientDataJSON.origin",
        .wrongType
    ),
    (
        #"{"type":"webauthn.get","challenge":"A+A","origin":"o"}"#, "clientDataJSON.challenge",
        .invalidBase64URL
    ),
    (
        #"{"type":"webauthn.get","challenge":"AB","origin":"o"}"#, "clientDataJSON.challenge",
        .invalidBase64URL
    ),
    (
        #"{"type":"webauthn.get","challenge":"AA","origin":"o","crossOrigin":"false"}"#,
        "clientDataJSON.crossOrigin", .wrongType
    ),
    (
        #"{"type":"webauthn.get","challenge":"AA","origin":"o","crossOrigin":null}"#,
        "clientDataJSON.crossOrigin", .wrongType
    ),
    (
        #"{"type":"webauthn.get","challenge":"AA","origin":"o","topOrigin":true}"#,
        "clientDataJSON.topOrigin", .wrongType
    ),
    (
        #"{"type":"webauthn.get","challenge":"AA","origin":"o","tokenBinding":{}}"#,
        "clientDataJSON.tokenBinding.status", .missingMember
    ),
    (
        #"{"type":"webauthn.get","challenge":"AA","origin":"o","tokenBinding":{"status":"present","id":"*"}}"#,
        "clientDataJSON.tokenBinding.id", .invalidBase64URL
    ),
]

@Test func namesTheMemberThatMakesClientDataUnreadable() {
    for (text, field, code) in malformedClientData {
        do {
            let parsed = try parse(text)
            Issue.record("accepted \(text) as \(parsed.clientData)")
        } catch let error as WebAuthnError {
            #expect(error.code == code, "\(text): \(error)")
            #expect(error.field == field, "\(text): \(error)")
        } catch {
            Issue.record("expected a WebAuthnError, got \(error)")
        }
    }
}

@Test func reportsTheOffsetOfMalformedJSON() {
    do {
        _ = try parse(#"{"type":"webauthn.get",}"#)
        Issue.record("accepted a trailing comma")
    } catch let error as WebAuthnError {
        #expect(error.code == .malformedJSON)
        #expect(error.offset == 23)
        #expect(error.description.hasPrefix("clientDataJSON: not valid JSON"))
    } catch {
        Issue.record("expected a WebAuthnError, got \(error)")
    }
}

@Test func readsTheClientDataOfEveryRealResponse() throws {
    var count = 0
    for file in ["real-registrations.json", "real-authentications.json"] {
        for testCase in try sharedVectorJSON(file).array() {
            let caseId = try testCase.string("case_id")
            let bytes = try Base64URL.decode(
                try testCase.string("credential.response.clientDataJSON"))
            let parsed = try ClientDataJSON(bytes: bytes)
            let decoded = try testCase.member("decoded.clientData")
            #expect(parsed.clientData.type.rawValue == (try decoded.string("type")), "\(caseId)")
            #expect(parsed.clientData.origin == (try decoded.string("origin")), "\(caseId)")
            #expect(
                parsed.clientData.challenge
                    == (try Base64URL.decode(try decoded.string("challenge"))), "\(caseId)")
            count += 1
        }
    }
    #expect(count == 83)
}
