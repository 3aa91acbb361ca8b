import Foundation

/// The body of `POST /registration/options` and `POST /authentication/options`:
/// `{"username": "alice"}`, or `{}` to sign in with a discoverable credential.
struct OptionsRequest: Decodable, Sendable {
    /// The username, when given.
    let username: String?

    /// Reads `body`; an empty body reads as `{}`.
    ///
    /// - Throws: ``ServerError`` `invalidRequest` when the body is not such an object.
    static func reading(_ body: String) throws(ServerError) -> OptionsRequest {
        guard !body.allSatisfy(\.isWhitespace) else { return OptionsRequest(username: nil) }
        do {
            return try JSONDecoder().decode(OptionsRequest.self, from: Data(body.utf8))
        } catch {
            throw .invalidRequest(
                #"the body is not {"username": "…"} or {}: \#(error.localizedDescription)"#)
        }
    }
}
