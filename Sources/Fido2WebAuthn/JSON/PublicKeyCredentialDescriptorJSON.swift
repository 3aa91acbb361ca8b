import Fido2Encoding

/// A reference to one credential, in `excludeCredentials` and `allowCredentials`
/// (WebAuthn `PublicKeyCredentialDescriptorJSON`).
public struct PublicKeyCredentialDescriptorJSON: WebAuthnJSONForm, JSONFieldsDecodable {
    /// The credential type; `public-key` is the only one defined, others are kept as read.
    public var type: String
    /// The credential ID (base64url in JSON).
    public var id: [UInt8]
    /// How the credential's authenticator may be reached, when the relying party knows.
    public var transports: [AuthenticatorTransport]?

    /// A descriptor of credential `id`.
    public init(
        type: String = "public-key", id: [UInt8], transports: [AuthenticatorTransport]? = nil
    ) {
        self.type = type
        self.id = id
        self.transports = transports
    }

    /// Reads `{type, id, transports?}`.
    ///
    /// - Throws: ``WebAuthnError`` naming the missing or mistyped member.
    public init(jsonValue: JSONValue, path: String) throws(WebAuthnError) {
        self = try Self.decode(jsonValue, path: path)
    }

    /// Reads the members; errors name them relative to this object.
    init(fields: JSONFields) throws(WebAuthnError) {
        type = try fields.requiredString("type")
        id = try fields.requiredBase64URL("id")
        transports = try fields.optionalEnumerations("transports")
    }

    /// Writes `{"type":…,"id":…,"transports":[…]}`.
    public func write(to writer: inout JSONWriter) {
        writer.beginObject()
        writer.name("type")
        writer.string(type)
        writer.name("id")
        writer.base64URL(id)
        if let transports {
            writer.name("transports")
            writer.enumerations(transports)
        }
        writer.endObject()
    }
}
