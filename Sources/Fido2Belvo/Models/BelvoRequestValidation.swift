import Fido2Encoding
import Foundation

/// Checks shared by the request types.
package enum BelvoRequestValidation {
    /// `value`, or a ``BelvoError/Code/missingField`` error naming `field` when it is empty or
    /// only whitespace.
    package static func required(_ value: String, _ field: String) throws(BelvoError) -> String {
        guard !value.allSatisfy(\.isWhitespace) else {
            throw BelvoError(
                .missingField, "\(field) is required and must not be empty", field: field)
        }
        return value
    }

    /// `url`, or a ``BelvoError/Code/insecureCallbackURL`` error unless it is an absolute
    /// `https` URL with a host (the app link the bank redirects to).
    static func httpsURL(_ url: String, _ field: String) throws(BelvoError) -> String {
        guard let components = URLComponents(string: url),
            components.scheme?.lowercased() == "https",
            let host = components.host, !host.isEmpty
        else {
            throw BelvoError(
                .insecureCallbackURL,
                "\(field) must be an absolute https URL (an app link), got \"\(url)\"",
                field: field)
        }
        return url
    }

    /// `text`, or a ``BelvoError/Code/invalidBase64URL`` error naming `field` unless it is
    /// non-empty, unpadded, canonical base64url. `Base64URL` tolerates exact padding (for what
    /// relying parties send); what we send is WebAuthn JSON, which is unpadded, so `=` is refused.
    package static func base64URL(_ text: String, _ field: String) throws(BelvoError) -> [UInt8] {
        guard !text.utf8.contains(UInt8(ascii: "=")), let bytes = try? Base64URL.decode(text),
            !bytes.isEmpty
        else {
            throw BelvoError(
                .invalidBase64URL, "\(field) must be non-empty unpadded base64url", field: field)
        }
        return bytes
    }
}
