import Hummingbird
import NIOCore

/// `GET /.well-known/webauthn`: the Related Origin Requests document (WebAuthn Level 3
/// §5.11) listing the server's origins, made once at start-up from its relying party.
/// Browsers fetch it only over HTTPS on the RP ID; it is served on every scheme, so that it
/// can be checked over plain HTTP too.
struct WellKnownRoutes: Sendable {
    /// The document's bytes.
    let document: ByteBuffer

    /// Serves `document`.
    init(document: [UInt8]) {
        self.document = ByteBuffer(bytes: document)
    }

    /// Adds the route to `router`.
    func addRoutes(to router: Router<PasskeyRequestContext>) {
        router.get(".well-known/webauthn") { _, _ in
            Response(
                status: .ok,
                headers: [
                    .contentType: "application/json", .cacheControl: "max-age=300",
                    .xContentTypeOptions: "nosniff",
                ],
                body: ResponseBody(byteBuffer: document))
        }
    }
}
