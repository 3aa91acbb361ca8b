import Fido2Encoding

extension JSONWriter {
    /// Writes a WebAuthn JSON form as a value.
    package mutating func form<Form: WebAuthnJSONForm>(_ form: Form) {
        form.write(to: &self)
    }

    /// Writes an array of forms.
    mutating func forms<Form: WebAuthnJSONForm>(_ forms: [Form]) {
        beginArray()
        for form in forms { form.write(to: &self) }
        endArray()
    }

    /// Writes an array of strings.
    package mutating func strings(_ strings: [String]) {
        beginArray()
        for string in strings { self.string(string) }
        endArray()
    }

    /// Writes an array of enumeration values by their spelling.
    package mutating func enumerations<Value: WebAuthnStringEnumeration>(_ values: [Value]) {
        beginArray()
        for value in values { string(value.rawValue) }
        endArray()
    }

    /// Writes an array of base64url strings (credential IDs).
    package mutating func base64URLs(_ values: [[UInt8]]) {
        beginArray()
        for value in values { base64URL(value) }
        endArray()
    }

    /// Writes a raw JSON object.
    mutating func object(_ object: JSONObject) {
        value(.object(object))
    }
}
