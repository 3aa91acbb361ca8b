import Fido2Encoding

/// A clientDataJSON: the exact bytes (which signatures cover, so hash ``bytes`` as they are)
/// together with the ``CollectedClientData`` they hold.
///
/// Reading tolerates members it does not know, in any order, and keeps them in
/// ``CollectedClientData/extraMembers``; it never re-serializes, so ``bytes`` stay what the
/// client sent.
public struct ClientDataJSON: Sendable, Hashable {
    /// The raw bytes. Hash these (SHA-256 for `clientDataHash`); the array is shared, not
    /// copied, when passed on.
    public let bytes: [UInt8]
    /// What the bytes say.
    public let clientData: CollectedClientData

    /// Serializes `clientData` (see ``CollectedClientData/jsonBytes()``).
    public init(_ clientData: CollectedClientData) {
        self.bytes = clientData.jsonBytes()
        self.clientData = clientData
    }

    /// Reads clientDataJSON bytes.
    ///
    /// - Throws: ``WebAuthnError`` with the field `clientDataJSON.<member>`: `malformedJSON`
    ///   (with the byte offset) when the bytes are not JSON or not an object's worth;
    ///   `missingMember` when `type`, `challenge` or `origin` is absent; `wrongType` when a known
    ///   member has the wrong JSON type (`crossOrigin` not a boolean, …); `invalidBase64URL` when
    ///   `challenge` is not base64url.
    public init(bytes: [UInt8]) throws(WebAuthnError) {
        self.bytes = bytes
        self.clientData = try JSONFields.within("clientDataJSON") { () throws(WebAuthnError) in
            try Self.read(JSONFields.document(bytes))
        }
    }

    private static func read(_ fields: JSONFields) throws(WebAuthnError) -> CollectedClientData {
        let type = ClientDataType(rawValue: try fields.requiredString("type"))
        let challenge = try fields.requiredBase64URL("challenge")
        let origin = try fields.requiredString("origin")
        var crossOrigin = false
        var topOrigin: String?
        var tokenBinding: TokenBinding?
        var extraMembers = JSONObject()
        for member in fields.object.members {
            switch member.name {
            case "type", "challenge", "origin":
                continue
            case "crossOrigin":
                guard case .bool(let flag) = member.value else {
                    throw JSONFields.wrongType("a boolean", member.value).prefixingField(
                        member.name)
                }
                crossOrigin = flag
            case "topOrigin":
                topOrigin = try fields.requiredString(member.name)
            case "tokenBinding" where member.value.objectValue != nil:
                tokenBinding = try fields.requiredForm(member.name)
            default:
                extraMembers.members.append(member)
            }
        }
        return CollectedClientData(
            unchecked: type, challenge: challenge, origin: origin, crossOrigin: crossOrigin,
            topOrigin: topOrigin, tokenBinding: tokenBinding, extraMembers: extraMembers)
    }
}
