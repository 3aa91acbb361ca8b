import Fido2WebAuthn
import Hummingbird

/// The session cookie: a random ID under which the server keeps the states of the ceremonies
/// in progress (``CeremonyRow``). It carries nothing else, and never the state itself.
///
/// The cookie is `HttpOnly` (the page's script never sees it) and `SameSite=Strict` (no other
/// site's page sends it), scoped to the whole site and to the browser session.
enum SessionCookie {
    /// The cookie's name.
    static let name = "passkey_session"
    /// How many random bytes an ID has: 32, written as 43 base64url characters.
    static let idLength = 32

    /// The session ID the request's cookie carries, when it has the form of one.
    static func sessionID(of request: Request) -> String? {
        guard let value = request.cookies[name]?.value,
            value.utf8.count == Base64URL.encodedCount(ofByteCount: idLength),
            (try? Base64URL.decode(value))?.count == idLength
        else { return nil }
        return value
    }

    /// A new session ID from the system's cryptographic random source.
    static func newSessionID() -> String {
        Base64URL.encode(RandomBytes.make(count: idLength))
    }

    /// The cookie that gives the browser `sessionID`.
    static func cookie(for sessionID: String) -> Cookie {
        Cookie(name: name, value: sessionID, path: "/", httpOnly: true, sameSite: .strict)
    }
}
