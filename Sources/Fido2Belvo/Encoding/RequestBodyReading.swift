import Fido2Encoding
import Fido2WebAuthnWire

/// Reads back the WebAuthn response a confirm or authorize body carries, with the WebAuthn
/// module's own strict reader, so a verifier sees exactly what Belvo would.
enum RequestBodyReading {
    /// The `member` object of `body` read as the WebAuthn form `Form`.
    static func form<Form: WebAuthnJSONForm>(
        _ type: Form.Type, member: String, of body: some Collection<UInt8>, what: String
    ) throws(BelvoError) -> Form {
        let document: JSONValue
        do {
            document = try JSONValue(parsing: body)
        } catch {
            throw BelvoError(.malformedRequestBody, "the \(what) body is not JSON: \(error)")
        }
        guard case .object = document else {
            throw BelvoError(.malformedRequestBody, "the \(what) body is not a JSON object")
        }
        guard let value = document[member] else {
            throw BelvoError(
                .malformedRequestBody, "the \(what) body has no \(member) member", field: member)
        }
        do {
            return try Form(jsonValue: value, path: member)
        } catch {
            throw BelvoError(
                .malformedRequestBody, "the \(what) body's \(member): \(error)",
                field: (error as? WebAuthnError)?.field ?? member)
        }
    }
}
