@_spi(Fido2Internals) import Fido2Encoding

/// A reference to one credential, in `excludeCredentials` and `allowCredentials`
/// (WebAuthn `PublicKeyCredentialDescriptorJSON`).
public struct PublicKeyCredentialDescriptorJSON: WebAuthnJSONForm {
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

    /// Reads `{type, id, transports?}`; unknown members are ignored.
    ///
    /// - Throws: ``WebAuthnError`` naming the missing or mistyped member.
    @_spi(Fido2Internals) public init(scanning scanner: inout JSONScanner) throws(WebAuthnError) {
        var type: String?
        var id: [UInt8]?
        var transports: [AuthenticatorTransport]?
        try scanner.members { (scanner, member) throws(WebAuthnError) in
            switch member {
            case "type": type = try scanner.string()
            case "id": id = try scanner.base64URL()
            case "transports":
                transports = try scanner.optional { (scanner) throws(WebAuthnError) in
                    try scanner.enumerations()
                }
            default: try scanner.skip()
            }
        }
        guard let type else { throw missingMember("type") }
        guard let id else { throw missingMember("id") }
        self.init(type: type, id: id, transports: transports)
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
