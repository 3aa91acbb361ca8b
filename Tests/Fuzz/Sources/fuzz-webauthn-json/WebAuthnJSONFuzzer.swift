// The WebAuthn Level 3 JSON forms (registration and authentication responses, creation and
// request options) and the relying party's own (credential records, ceremony states). Every
// input is tried as each of the seven forms.
// dictionary: json
// seeds: webauthn-json
import Fido2Encoding
import Fido2WebAuthn
import Fido2WebAuthnWire
import Foundation
import FuzzSupport

/// Invariants for each form an input parses as:
/// - parse → serialize → parse gives the same value, and serializing again the same bytes;
/// - reading from bytes and from an already parsed `JSONValue` agree;
/// - `Codable` agrees: `JSONDecoder` reads the form's bytes as the form, and what `JSONEncoder`
///   writes reads back as the form.
@main
enum WebAuthnJSONFuzzer: FuzzTarget {
    static func fuzz(_ input: [UInt8]) {
        let tree = try? JSONReader().read(input)
        check(RegistrationResponseJSON.self, input, tree)
        check(AuthenticationResponseJSON.self, input, tree)
        check(PublicKeyCredentialCreationOptionsJSON.self, input, tree)
        check(PublicKeyCredentialRequestOptionsJSON.self, input, tree)
        check(CredentialRecord.self, input, tree)
        check(RegistrationState.self, input, tree)
        check(AuthenticationState.self, input, tree)
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
        FuzzCheck.require(
            (try? JSONDecoder().decode(Form.self, from: Data(bytes))) == form,
            "\(Form.self): JSONDecoder does not read the form's own JSON as the form")
        guard let encoded = try? JSONEncoder().encode(form) else {
            FuzzCheck.fail("\(Form.self): JSONEncoder cannot encode the form")
        }
        FuzzCheck.require(
            (try? Form(jsonBytes: [UInt8](encoded))) == form,
            "\(Form.self): what JSONEncoder writes does not read back as the form")
    }
}
