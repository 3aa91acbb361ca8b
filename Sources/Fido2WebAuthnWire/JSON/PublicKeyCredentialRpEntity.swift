@_spi(Fido2Internals) import Fido2Encoding

/// The relying party in creation options (WebAuthn `PublicKeyCredentialRpEntity`).
public struct PublicKeyCredentialRpEntity: WebAuthnJSONForm {
    /// A human-palatable name for the relying party.
    public var name: String
    /// The RP ID; when absent the client uses the origin's effective domain.
    public var id: String?

    /// A relying party entity.
    public init(name: String, id: String? = nil) {
        self.name = name
        self.id = id
    }

    /// Reads `{name, id?}`; unknown members are ignored.
    ///
    /// - Throws: ``WebAuthnError`` naming the missing or mistyped member.
    @_spi(Fido2Internals) public init(scanning scanner: inout JSONScanner) throws(WebAuthnError) {
        var name: String?
        var id: String?
        try scanner.members { (scanner, member) throws(WebAuthnError) in
            switch member {
            case "name": name = try scanner.string()
            case "id":
                id = try scanner.optional { (scanner) throws(WebAuthnError) in try scanner.string()
                }
            default: try scanner.skip()
            }
        }
        guard let name else { throw missingMember("name") }
        self.init(name: name, id: id)
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
