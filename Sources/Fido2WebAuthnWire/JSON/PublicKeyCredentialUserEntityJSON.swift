@_spi(Fido2Internals) import Fido2Encoding

/// The user account in creation options (WebAuthn `PublicKeyCredentialUserEntityJSON`).
public struct PublicKeyCredentialUserEntityJSON: WebAuthnJSONForm {
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

    /// Reads `{id, name, displayName}`; unknown members are ignored.
    ///
    /// - Throws: ``WebAuthnError`` naming the missing or mistyped member.
    @_spi(Fido2Internals) public init(scanning scanner: inout JSONScanner) throws(WebAuthnError) {
        var id: [UInt8]?
        var name: String?
        var displayName: String?
        try scanner.members { (scanner, member) throws(WebAuthnError) in
            switch member {
            case "id": id = try scanner.base64URL()
            case "name": name = try scanner.string()
            case "displayName": displayName = try scanner.string()
            default: try scanner.skip()
            }
        }
        guard let id else { throw missingMember("id") }
        guard let name else { throw missingMember("name") }
        guard let displayName else { throw missingMember("displayName") }
        self.init(id: id, name: name, displayName: displayName)
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
