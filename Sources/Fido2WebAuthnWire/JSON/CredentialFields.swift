@_spi(Fido2Internals) import Fido2Encoding

/// The `id`, `rawId` and `type` members both response forms share, collected while scanning.
struct CredentialFields {
    private var id: [UInt8]?
    private var rawId: [UInt8]?
    private var typeSeen = false

    /// Reads member `name` (`id`, `rawId` or `type`).
    mutating func read(
        _ name: JSONScanner.Name, from scanner: inout JSONScanner
    )
        throws(WebAuthnError)
    {
        switch name {
        case "id": id = try scanner.base64URL()
        case "rawId": rawId = try scanner.base64URL()
        default:
            let type = try scanner.string()
            guard type == "public-key" else {
                throw WebAuthnError(.invalidValue, "expected \"public-key\", found \"\(type)\"")
            }
            typeSeen = true
        }
    }

    /// `rawId`, after checking that every member came and that `id` is its base64url
    /// (padding tolerated, as base64url reading allows).
    func checkedRawId() throws(WebAuthnError) -> [UInt8] {
        guard let id else { throw missingMember("id") }
        guard let rawId else { throw missingMember("rawId") }
        guard typeSeen else { throw missingMember("type") }
        guard id == rawId else {
            throw WebAuthnError(
                .invalidValue, "does not encode the same credential ID as rawId", field: "id")
        }
        return rawId
    }

    /// Writes `"id":…,"rawId":…`.
    static func writeIds(_ rawId: [UInt8], to writer: inout JSONWriter) {
        writer.name("id")
        writer.base64URL(rawId)
        writer.name("rawId")
        writer.base64URL(rawId)
    }
}
