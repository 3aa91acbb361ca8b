import Fido2Encoding

/// The relying party in creation options (WebAuthn `PublicKeyCredentialRpEntity`).
public struct PublicKeyCredentialRpEntity: WebAuthnJSONForm, JSONFieldsDecodable {
    /// A human-palatable name for the relying party.
    public var name: String
    /// The RP ID; when absent the client uses the origin's effective domain.
    public var id: String?

    /// A relying party entity.
    public init(name: String, id: String? = nil) {
        self.name = name
        self.id = id
    }

    /// Reads `{name, id?}`.
    ///
    /// - Throws: ``WebAuthnError`` naming the missing or mistyped member.
    public init(jsonValue: JSONValue, path: String) throws(WebAuthnError) {
        self = try Self.decode(jsonValue, path: path)
    }

    /// Reads the members; errors name them relative to this object.
    init(fields: JSONFields) throws(WebAuthnError) {
        name = try fields.requiredString("name")
        id = try fields.optionalString("id")
    }

    /// Writes `{"name":…,"id":…}` (IDL order: the inherited `name` first).
    public func write(to writer: inout JSONWriter) {
        writer.beginObject()
        writer.name("name")
        writer.string(name)
        if let id {
            writer.name("id")
            writer.string(id)
        }
        writer.endObject()
    }
}
