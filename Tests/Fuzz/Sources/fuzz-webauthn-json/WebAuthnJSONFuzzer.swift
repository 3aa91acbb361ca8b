// The WebAuthn Level 3 JSON forms: registration and authentication responses, creation and
// request options. Every input is tried as each of the four forms.
// dictionary: json
// seeds: webauthn-json
import Fido2Encoding
import Fido2WebAuthn
import FuzzSupport

/// Invariants for each form an input parses as:
/// - parse → serialize → parse gives the same value, and serializing again the same bytes;
/// - reading from bytes and from an already parsed `JSONValue` agree.
@main
enum WebAuthnJSONFuzzer: FuzzTarget {
    static func fuzz(_ input: [UInt8]) {
        let tree = try? JSONReader().read(input)
        check(RegistrationResponseJSON.self, input, tree)
        check(AuthenticationResponseJSON.self, input, tree)
        check(PublicKeyCredentialCreationOptionsJSON.self, input, tree)
        check(PublicKeyCredentialRequestOptionsJSON.self, input, tree)
    }

    static func check<Form: WebAuthnJSONForm>(_: Form.Type, _ input: [UInt8], _ tree: JSONValue?) {
        let form = try? Form(jsonBytes: input)
        if let tree {
            FuzzCheck.require(
                (try? Form(jsonValue: tree, path: "fuzz")) == form,
                "\(Form.self): reading bytes and reading the parsed value disagree")
        }
        guard let form else { return }
        let bytes = form.jsonBytes()
        guard let again = try? Form(jsonBytes: bytes) else {
            FuzzCheck.fail(
                "\(Form.self) does not read its own JSON: \(String(decoding: bytes, as: UTF8.self))"
            )
        }
        FuzzCheck.require(again == form, "\(Form.self) changes through serialization")
        FuzzCheck.require(again.jsonBytes() == bytes, "\(Form.self) serialization is not stable")
    }
}
