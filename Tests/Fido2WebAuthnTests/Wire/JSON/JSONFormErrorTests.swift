import Fido2Encoding
import Fido2WebAuthn
import Fido2WebAuthnTestSupport
import Fido2WebAuthnWire
import Testing

/// A document that one of the forms must refuse, and the error it must give.
struct BrokenForm: CustomTestStringConvertible, Sendable {
    let form: String
    let text: String
    let field: String?
    let code: WebAuthnError.Code

    var testDescription: String { "\(form): \(field ?? "-") \(code)" }

    func read() throws {
        switch form {
        case "creation": _ = try PublicKeyCredentialCreationOptionsJSON(jsonText: text)
        case "request": _ = try PublicKeyCredentialRequestOptionsJSON(jsonText: text)
        case "registration": _ = try RegistrationResponseJSON(jsonText: text)
        default: _ = try AuthenticationResponseJSON(jsonText: text)
        }
    }
}

private let creation =
    #"{"rp":{"name":"R"},"user":{"id":"AA","name":"n","displayName":"d"},"challenge":"AA","pubKeyCredParams":[{"type":"public-key","alg":-7}]}"#
private let request = #"{"challenge":"AA"}"#
private let registration =
    #"{"id":"AQ","rawId":"AQ","response":{"clientDataJSON":"AA","attestationObject":"AA"},"clientExtensionResults":{},"type":"public-key"}"#
private let authentication =
    #"{"id":"AQ","rawId":"AQ","response":{"clientDataJSON":"AA","authenticatorData":"AA","signature":"AA"},"clientExtensionResults":{},"type":"public-key"}"#

/// `base` with the first occurrence of `old` replaced by `new`.
private func edit(_ base: String, _ old: String, _ new: String) -> String {
    guard let range = base.range(of: old) else { return "unedited: \(old) not in base" }
    return base.replacingCharacters(in: range, with: new)
}

private let brokenForms: [BrokenForm] = [
    // Not JSON, not an object.
    BrokenForm(form: "creation", text: "{", field: nil, code: .malformedJSON),
    BrokenForm(
        form: "request", text: #"{"challenge":"AA","challenge":"AA"}"#, field: nil,
        code: .malformedJSON),
    BrokenForm(form: "registration", text: "[]", field: nil, code: .wrongType),
    // Creation options.
    BrokenForm(
        form: "creation", text: edit(creation, #""rp":{"name":"R"},"#, ""), field: "rp",
        code: .missingMember),
    BrokenForm(
        form: "creation", text: edit(creation, #"{"name":"R"}"#, "{}"), field: "rp.name",
        code: .missingMember),
    BrokenForm(
        form: "creation", text: edit(creation, #"{"name":"R"}"#, #"{"name":"R","id":7}"#),
        field: "rp.id", code: .wrongType),
    BrokenForm(
        form: "creation", text: edit(creation, #""rp":{"name":"R"}"#, #""rp":"R""#), field: "rp",
        code: .wrongType),
    BrokenForm(
        form: "creation", text: edit(creation, #""id":"AA","name""#, #""id":"A/A","name""#),
        field: "user.id", code: .invalidBase64URL),
    BrokenForm(
        form: "creation", text: edit(creation, #""id":"AA","name""#, #""id":null,"name""#),
        field: "user.id", code: .wrongType),
    BrokenForm(
        form: "creation", text: edit(creation, #","displayName":"d""#, ""),
        field: "user.displayName", code: .missingMember),
    BrokenForm(
        form: "creation", text: edit(creation, #""challenge":"AA""#, #""challenge":"AB""#),
        field: "challenge", code: .invalidBase64URL),
    BrokenForm(
        form: "creation", text: edit(creation, #""challenge":"AA""#, #""challenge":[0]"#),
        field: "challenge", code: .wrongType),
    BrokenForm(
        form: "creation",
        text: edit(creation, #","pubKeyCredParams":[{"type":"public-key","alg":-7}]"#, ""),
        field: "pubKeyCredParams", code: .missingMember),
    BrokenForm(
        form: "creation", text: edit(creation, #"[{"type":"public-key","alg":-7}]"#, "{}"),
        field: "pubKeyCredParams", code: .wrongType),
    BrokenForm(
        form: "creation", text: edit(creation, #""alg":-7"#, #""alg":"-7""#),
        field: "pubKeyCredParams[0].alg", code: .wrongType),
    BrokenForm(
        form: "creation", text: edit(creation, #""alg":-7"#, #""alg":-7.5"#),
        field: "pubKeyCredParams[0].alg", code: .wrongType),
    BrokenForm(
        form: "creation", text: edit(creation, #""alg":-7"#, #""alg":2147483648"#),
        field: "pubKeyCredParams[0].alg", code: .invalidValue),
    BrokenForm(
        form: "creation", text: edit(creation, #"{"type":"public-key","alg":-7}"#, #"{"alg":-7}"#),
        field: "pubKeyCredParams[0].type", code: .missingMember),
    BrokenForm(
        form: "creation", text: edit(creation, #"[{"type""#, #"[1,{"type""#),
        field: "pubKeyCredParams[0]", code: .wrongType),
    BrokenForm(
        form: "creation",
        text: edit(creation, #""challenge":"AA""#, #""challenge":"AA","timeout":-1"#),
        field: "timeout", code: .invalidValue),
    BrokenForm(
        form: "creation",
        text: edit(creation, #""challenge":"AA""#, #""challenge":"AA","timeout":4294967296"#),
        field: "timeout", code: .invalidValue),
    BrokenForm(
        form: "creation",
        text: edit(creation, #""challenge":"AA""#, #""challenge":"AA","timeout":"60000""#),
        field: "timeout", code: .wrongType),
    BrokenForm(
        form: "creation",
        text: edit(
            creation, #""challenge":"AA""#,
            #""challenge":"AA","excludeCredentials":[{"type":"public-key"}]"#),
        field: "excludeCredentials[0].id", code: .missingMember),
    BrokenForm(
        form: "creation",
        text: edit(
            creation, #""challenge":"AA""#,
            #""challenge":"AA","excludeCredentials":[{"type":"public-key","id":"AA","transports":"usb"}]"#
        ), field: "excludeCredentials[0].transports", code: .wrongType),
    BrokenForm(
        form: "creation",
        text: edit(
            creation, #""challenge":"AA""#,
            #""challenge":"AA","excludeCredentials":[{"type":"public-key","id":"AA","transports":["usb",2]}]"#
        ), field: "excludeCredentials[0].transports[1]", code: .wrongType),
    BrokenForm(
        form: "creation",
        text: edit(
            creation, #""challenge":"AA""#,
            #""challenge":"AA","authenticatorSelection":{"requireResidentKey":"yes"}"#),
        field: "authenticatorSelection.requireResidentKey", code: .wrongType),
    BrokenForm(
        form: "creation",
        text: edit(
            creation, #""challenge":"AA""#, #""challenge":"AA","authenticatorSelection":[]"#),
        field: "authenticatorSelection", code: .wrongType),
    BrokenForm(
        form: "creation",
        text: edit(creation, #""challenge":"AA""#, #""challenge":"AA","attestation":1"#),
        field: "attestation", code: .wrongType),
    BrokenForm(
        form: "creation",
        text: edit(
            creation, #""challenge":"AA""#, #""challenge":"AA","attestationFormats":"packed""#),
        field: "attestationFormats", code: .wrongType),
    BrokenForm(
        form: "creation",
        text: edit(creation, #""challenge":"AA""#, #""challenge":"AA","hints":[true]"#),
        field: "hints[0]", code: .wrongType),
    BrokenForm(
        form: "creation",
        text: edit(creation, #""challenge":"AA""#, #""challenge":"AA","extensions":[]"#),
        field: "extensions", code: .wrongType),
    // Request options.
    BrokenForm(form: "request", text: "{}", field: "challenge", code: .missingMember),
    BrokenForm(
        form: "request", text: #"{"challenge":"AA","rpId":1}"#, field: "rpId", code: .wrongType),
    BrokenForm(
        form: "request", text: #"{"challenge":"AA","allowCredentials":{}}"#,
        field: "allowCredentials", code: .wrongType),
    BrokenForm(
        form: "request",
        text: #"{"challenge":"AA","allowCredentials":[{"type":"public-key","id":"A"}]}"#,
        field: "allowCredentials[0].id", code: .invalidBase64URL),
    BrokenForm(
        form: "request", text: #"{"challenge":"AA","userVerification":false}"#,
        field: "userVerification", code: .wrongType),
    // Registration responses.
    BrokenForm(
        form: "registration", text: edit(registration, #""id":"AQ","#, ""), field: "id",
        code: .missingMember),
    BrokenForm(
        form: "registration", text: edit(registration, #""rawId":"AQ","#, ""), field: "rawId",
        code: .missingMember),
    BrokenForm(
        form: "registration", text: edit(registration, #""id":"AQ""#, #""id":"Ag""#), field: "id",
        code: .invalidValue),
    BrokenForm(
        form: "registration", text: edit(registration, #""id":"AQ""#, #""id":"A""#), field: "id",
        code: .invalidBase64URL),
    BrokenForm(
        form: "registration", text: edit(registration, #""rawId":"AQ""#, #""rawId":1"#),
        field: "rawId", code: .wrongType),
    BrokenForm(
        form: "registration", text: edit(registration, #","type":"public-key""#, ""), field: "type",
        code: .missingMember),
    BrokenForm(
        form: "registration",
        text: edit(registration, #""type":"public-key""#, #""type":"password""#), field: "type",
        code: .invalidValue),
    BrokenForm(
        form: "registration", text: edit(registration, #""type":"public-key""#, #""type":null"#),
        field: "type", code: .wrongType),
    BrokenForm(
        form: "registration",
        text: edit(
            registration, #""response":{"clientDataJSON":"AA","attestationObject":"AA"},"#, ""),
        field: "response", code: .missingMember),
    BrokenForm(
        form: "registration", text: edit(registration, #""clientDataJSON":"AA","#, ""),
        field: "response.clientDataJSON", code: .missingMember),
    BrokenForm(
        form: "registration",
        text: edit(registration, #""clientDataJSON":"AA""#, #""clientDataJSON":5"#),
        field: "response.clientDataJSON", code: .wrongType),
    BrokenForm(
        form: "registration",
        text: edit(registration, #""clientDataJSON":"AA""#, #""clientDataJSON":"AA==x""#),
        field: "response.clientDataJSON", code: .invalidBase64URL),
    BrokenForm(
        form: "registration", text: edit(registration, #","attestationObject":"AA""#, ""),
        field: "response.attestationObject", code: .missingMember),
    BrokenForm(
        form: "registration",
        text: edit(
            registration, #""attestationObject":"AA""#,
            #""attestationObject":"AA","authenticatorData":{}"#),
        field: "response.authenticatorData", code: .wrongType),
    BrokenForm(
        form: "registration",
        text: edit(
            registration, #""attestationObject":"AA""#, #""attestationObject":"AA","publicKey":"!""#
        ), field: "response.publicKey", code: .invalidBase64URL),
    BrokenForm(
        form: "registration",
        text: edit(
            registration, #""attestationObject":"AA""#,
            #""attestationObject":"AA","publicKeyAlgorithm":"ES256""#),
        field: "response.publicKeyAlgorithm", code: .wrongType),
    BrokenForm(
        form: "registration",
        text: edit(
            registration, #""attestationObject":"AA""#,
            #""attestationObject":"AA","transports":[null]"#), field: "response.transports[0]",
        code: .wrongType),
    BrokenForm(
        form: "registration",
        text: edit(registration, #""response":{"#, #""authenticatorAttachment":1,"response":{"#),
        field: "authenticatorAttachment", code: .wrongType),
    BrokenForm(
        form: "registration",
        text: edit(registration, #""clientExtensionResults":{}"#, #""clientExtensionResults":[]"#),
        field: "clientExtensionResults", code: .wrongType),
    // Authentication responses.
    BrokenForm(
        form: "authentication", text: edit(authentication, #""signature":"AA""#, #""sig":"AA""#),
        field: "response.signature", code: .missingMember),
    BrokenForm(
        form: "authentication", text: edit(authentication, #""authenticatorData":"AA","#, ""),
        field: "response.authenticatorData", code: .missingMember),
    BrokenForm(
        form: "authentication",
        text: edit(authentication, #""signature":"AA""#, #""signature":"AA","userHandle":7"#),
        field: "response.userHandle", code: .wrongType),
    BrokenForm(
        form: "authentication",
        text: edit(authentication, #""signature":"AA""#, #""signature":"AA","userHandle":"A+""#),
        field: "response.userHandle", code: .invalidBase64URL),
    BrokenForm(
        form: "authentication",
        text: edit(authentication, #""response":{"#, #""response":["#).replacingOccurrences(
            of: #""signature":"AA"},"#, with: #""signature":"AA"],"#), field: "response",
        code: .malformedJSON),
    BrokenForm(
        form: "authentication",
        text: edit(
            authentication,
            #""response":{"clientDataJSON":"AA","authenticatorData":"AA","signature":"AA"}"#,
            #""response":"AA""#), field: "response", code: .wrongType),
    BrokenForm(
        form: "authentication",
        text: edit(authentication, #""type":"public-key""#, #""type":"Public-Key""#), field: "type",
        code: .invalidValue),
]

@Test func acceptsTheUnbrokenBases() throws {
    _ = try PublicKeyCredentialCreationOptionsJSON(jsonText: creation)
    _ = try PublicKeyCredentialRequestOptionsJSON(jsonText: request)
    _ = try RegistrationResponseJSON(jsonText: registration)
    _ = try AuthenticationResponseJSON(jsonText: authentication)
}

@Test(arguments: brokenForms)
func namesTheMissingOrMistypedMember(_ broken: BrokenForm) {
    do {
        try broken.read()
        Issue.record("accepted \(broken.text)")
    } catch let error as WebAuthnError {
        #expect(error.code == broken.code, "\(error)")
        #expect(error.field == (broken.code == .malformedJSON ? nil : broken.field), "\(error)")
    } catch {
        Issue.record("expected a WebAuthnError, got \(error)")
    }
}

@Test func describesErrorsWithTheMemberPath() {
    do {
        _ = try RegistrationResponseJSON(
            jsonText: edit(registration, #""clientDataJSON":"AA""#, #""clientDataJSON":5"#))
        Issue.record("accepted a number as clientDataJSON")
    } catch {
        #expect(
            "\(error)"
                == "response.clientDataJSON: expected a base64url string, found a number")
    }
    do {
        _ = try PublicKeyCredentialRequestOptionsJSON(jsonText: #"{"challenge":"A+"}"#)
        Issue.record("accepted a standard-base64 challenge")
    } catch let error as WebAuthnError {
        #expect(error.offset == 15)  // the "+", counted in the whole document
        #expect(error.description.hasPrefix("challenge: not base64url: byte 0x2b"))
    } catch {
        Issue.record("expected a WebAuthnError, got \(error)")
    }
}

@Test func readsFormsFromNestedValuesWithTheirPath() {
    let value: JSONValue = ["publicKey": ["challenge": 5]]
    do {
        _ = try PublicKeyCredentialRequestOptionsJSON(
            jsonValue: value["publicKey"] ?? .null, path: "publicKey")
        Issue.record("accepted a numeric challenge")
    } catch let error as WebAuthnError {
        #expect(error.field == "publicKey.challenge")
    } catch {
        Issue.record("expected a WebAuthnError, got \(error)")
    }
}
