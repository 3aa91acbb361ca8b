import Fido2Encoding

/// The `id`/`rawId` pair both response forms share.
enum CredentialFields {
    /// Reads `rawId` and checks that `id` is its base64url (padding tolerated, as base64url
    /// reading allows).
    static func checkedRawId(_ fields: JSONFields) throws(WebAuthnError) -> [UInt8] {
        let rawId = try fields.requiredBase64URL("rawId")
        let id = try fields.requiredBase64URL("id")
        guard id == rawId else {
            throw WebAuthnError(
                .invalidValue, "does not encode the same credential ID as rawId",
                field: "id")
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
