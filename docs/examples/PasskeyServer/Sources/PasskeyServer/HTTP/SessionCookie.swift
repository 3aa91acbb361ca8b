import Fido2Encoding
import Fido2WebAuthn
import Hummingbird

/// The session cookie: the ID of a server-issued session (``SessionRow``), under which the
/// server keeps the states of the ceremonies in progress and who is signed in. It carries
/// nothing else.
///
/// The cookie is `HttpOnly` (the page's script never sees it), `SameSite=Strict` (no other
/// site's page sends it) and `Secure` when the origin is `https`, scoped to the whole site and
/// to the browser session. Over `https` its name carries the `__Host-` prefix: a browser keeps
/// such a cookie only from this host itself, so a sibling subdomain cannot plant its own
/// session cookie here (signing a visitor in to the attacker's account).
enum SessionCookie {
    /// The cookie's name: `__Host-passkey_session` when `secure`, else `passkey_session` (the
    /// prefix needs `Secure`, which a browser sets only over `https`).
    static func name(secure: Bool) -> String {
        secure ? "__Host-passkey_session" : "passkey_session"
    }

    /// The session ID the request's cookie carries, when it has the form of one; whether a
    /// session has that ID is the store's question (``SessionRow/current(_:in:)``).
    static func sessionID(of request: Request, secure: Bool) -> String? {
        guard let value = request.cookies[name(secure: secure)]?.value,
            value.utf8.count == Base64URL.encodedCount(ofByteCount: SessionRow.idLength),
            (try? Base64URL.decode(value))?.count == SessionRow.idLength
        else { return nil }
        return value
    }

    /// The cookie that gives the browser `sessionID`.
    static func cookie(for sessionID: String, secure: Bool) -> Cookie {
        Cookie(
            name: name(secure: secure), value: sessionID, path: "/", secure: secure, httpOnly: true,
            sameSite: .strict)
    }

    /// The cookie that makes the browser forget its session.
    static func expired(secure: Bool) -> Cookie {
        Cookie(
            name: name(secure: secure), value: "", maxAge: 0, path: "/", secure: secure,
            httpOnly: true, sameSite: .strict)
    }
}
