@_spi(Fido2Internals) import Fido2Encoding

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
    public init(bytes: [UInt8]) throws {
        self.bytes = bytes
        self.clientData = try withinField("clientDataJSON") { () throws(WebAuthnError) in
            try JSONScanner.scan(bytes, mapError: JSONScanner.webAuthnError) {
                (scanner) throws(WebAuthnError) in try Self.read(&scanner)
            }
        }
    }

    private static func read(
        _ scanner: inout JSONScanner
    ) throws(WebAuthnError)
        -> CollectedClientData
    {
        var type: String?
        var challenge: [UInt8]?
        var origin: String?
        var crossOrigin = false
        var topOrigin: String?
        var tokenBinding: TokenBinding?
        var extraMembers = JSONObject()
        try scanner.members { (scanner, member) throws(WebAuthnError) in
            switch member {
            case "type": type = try scanner.string()
            case "challenge": challenge = try scanner.base64URL()
            case "origin": origin = try scanner.string()
            // Browsers never send null here, so unlike the JSON forms null is not "absent".
            case "crossOrigin": crossOrigin = try scanner.bool()
            case "topOrigin": topOrigin = try scanner.string()
            case "tokenBinding" where try scanner.kind() == .object:
                tokenBinding = try TokenBinding(scanning: &scanner)
            default: extraMembers.append(member.string, try scanner.value())
            }
        }
        guard let type else { throw missingMember("type") }
        guard let challenge else { throw missingMember("challenge") }
        guard let origin else { throw missingMember("origin") }
        return CollectedClientData(
            unchecked: ClientDataType(rawValue: type), challenge: challenge, origin: origin,
            crossOrigin: crossOrigin, topOrigin: topOrigin, tokenBinding: tokenBinding,
            extraMembers: extraMembers)
    }
}
