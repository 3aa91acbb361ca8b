import Fido2Encoding

/// One acceptable credential type and algorithm (WebAuthn `PublicKeyCredentialParameters`).
public struct PublicKeyCredentialParameters: WebAuthnJSONForm, JSONFieldsDecodable {
    /// The credential type; `public-key` is the only one defined, others are kept as read.
    public var type: String
    /// The COSE algorithm identifier (a WebIDL `long`): -7 ES256, -257 RS256, -8 EdDSA, …
    public var alg: Int

    /// Parameters for `alg`, of type `public-key` unless told otherwise.
    public init(type: String = "public-key", alg: Int) {
        self.type = type
        self.alg = alg
    }

    /// Reads `{type, alg}`.
    ///
    /// - Throws: ``WebAuthnError`` naming the missing or mistyped member; `invalidValue` when
    ///   `alg` is outside the 32-bit range of a WebIDL `long`.
    public init(jsonValue: JSONValue, path: String) throws(WebAuthnError) {
        self = try Self.decode(jsonValue, path: path)
    }

    /// Reads the members; errors name them relative to this object.
    init(fields: JSONFields) throws(WebAuthnError) {
        type = try fields.requiredString("type")
        alg = try fields.requiredLong("alg")
    }

    /// Writes `{"type":…,"alg":…}`.
    public func write(to writer: inout JSONWriter) {
        writer.beginObject()
        writer.name("type")
        writer.string(type)
        writer.name("alg")
        writer.number(alg)
        writer.endObject()
    }
}
