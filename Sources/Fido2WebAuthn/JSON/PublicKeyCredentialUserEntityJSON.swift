import Fido2Encoding

/// The user account in creation options (WebAuthn `PublicKeyCredentialUserEntityJSON`).
public struct PublicKeyCredentialUserEntityJSON: WebAuthnJSONForm, JSONFieldsDecodable {
    /// The user handle (base64url in JSON); at most 64 bytes by the specification.
    public var id: [UInt8]
    /// A human-palatable account identifier, such as an e-mail address.
    public var name: String
    /// A human-palatable display name.
    public var displayName: String

    /// A user entity.
    public init(id: [UInt8], name: String, displayName: String) {
        self.id = id
        self.name = name
        self.displayName = displayName
    }

    /// Reads `{id, name, displayName}`.
    ///
    /// - Throws: ``WebAuthnError`` naming the missing or mistyped member.
    public init(jsonValue: JSONValue, path: String) throws(WebAuthnError) {
        self = try Self.decode(jsonValue, path: path)
    }

    /// Reads the members; errors name them relative to this object.
    init(fields: JSONFields) throws(WebAuthnError) {
        id = try fields.requiredBase64URL("id")
        name = try fields.requiredString("name")
        displayName = try fields.requiredString("displayName")
    }

    /// Writes `{"id":…,"name":…,"displayName":…}`.
    public func write(to writer: inout JSONWriter) {
        writer.beginObject()
        writer.name("id")
        writer.base64URL(id)
        writer.name("name")
        writer.string(name)
        writer.name("displayName")
        writer.string(displayName)
        writer.endObject()
    }
}
