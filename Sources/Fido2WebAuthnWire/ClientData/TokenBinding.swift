@_spi(Fido2Internals) import Fido2Encoding

/// The Token Binding state a Level 1 or 2 client reported in clientDataJSON (`tokenBinding`).
/// Level 3 no longer uses Token Binding and keeps the member name reserved; relying parties
/// may still meet it in responses from older clients.
public struct TokenBinding: Sendable, Hashable {
    /// `present`, `supported`, or a value from a draft (`not-supported`), kept as read.
    public var status: String
    /// The Token Binding ID (base64url in JSON), present when `status` is `present`.
    public var id: [UInt8]?

    /// A Token Binding state.
    public init(status: String, id: [UInt8]? = nil) {
        self.status = status
        self.id = id
    }

    /// Reads `{status, id?}`.
    init(scanning scanner: inout JSONScanner) throws(WebAuthnError) {
        var status: String?
        var id: [UInt8]?
        try scanner.members { (scanner, member) throws(WebAuthnError) in
            switch member {
            case "status": status = try scanner.string()
            case "id":
                id = try scanner.optional { (scanner) throws(WebAuthnError) in
                    try scanner.base64URL()
                }
            default: try scanner.skip()
            }
        }
        guard let status else { throw missingMember("status") }
        self.init(status: status, id: id)
    }

    /// Writes `{"status":…,"id":…}`.
    func write(to writer: inout JSONWriter) {
        writer.beginObject()
        writer.name("status")
        writer.string(status)
        if let id {
            writer.name("id")
            writer.base64URL(id)
        }
        writer.endObject()
    }

    /// The number of bytes ``write(to:)`` produces.
    var serializedLength: Int {
        var length =
            #"{"status":}"#.utf8.count + JSONWriter.escapedLength(of: status, escaping: .javaScript)
        if let id {
            length += #","id":"""#.utf8.count + Base64URL.encodedCount(ofByteCount: id.count)
        }
        return length
    }
}
