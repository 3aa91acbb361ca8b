import Foundation

/// The body of `POST /registration/options` and `POST /authentication/options`:
/// `{"username": "alice"}`, or `{}` (to add a passkey to the signed-in account, or to sign
/// in with a discoverable credential).
struct OptionsRequest: Decodable, Sendable {
    /// The username, when given.
    let username: String?

    /// Reads `body`; an empty body reads as `{}`.
    ///
    /// - Throws: ``ServerError`` `invalidRequest` when the body is not such an object (with
    ///   the server's own message: Foundation's says nothing a client can act on).
    static func reading(_ body: String) throws(ServerError) -> OptionsRequest {
        guard !body.allSatisfy(\.isWhitespace) else { return OptionsRequest(username: nil) }
        do {
            return try JSONDecoder().decode(OptionsRequest.self, from: Data(body.utf8))
        } catch {
            throw .invalidRequest(#"the body is not {"username": "…"} or {}"#)
        }
    }
}

/// The body of `POST /account/passkeys/{credentialId}/name`: `{"name": "Work laptop"}`.
struct RenameRequest: Decodable, Sendable {
    /// The new name.
    let name: String

    /// Reads `body`.
    ///
    /// - Throws: ``ServerError`` `invalidRequest` when the body is not such an object.
    static func reading(_ body: String) throws(ServerError) -> RenameRequest {
        do {
            return try JSONDecoder().decode(RenameRequest.self, from: Data(body.utf8))
        } catch {
            throw .invalidRequest(#"the body is not {"name": "…"}"#)
        }
    }
}
