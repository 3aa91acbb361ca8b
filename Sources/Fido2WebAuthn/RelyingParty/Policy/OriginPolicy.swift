@_spi(Fido2Internals) import Fido2WebAuthnWire

/// The origins a relying party accepts in clientDataJSON (WebAuthn Level 3 §7.1 steps 9–11,
/// §7.2 steps 12–14, §13.4.9).
///
/// Origins are compared exactly, byte for byte, with no normalization: list them as clients
/// serialize them, `https://example.org` or `https://login.example.org:8443` for web pages and
/// `android:apk-key-hash:<base64url SHA-256 of the signing certificate>` for Android apps.
public struct OriginPolicy: Sendable, Hashable {
    /// Whether, and from which top-level pages, the relying party may be embedded in a
    /// cross-origin iframe.
    public enum CrossOrigin: Sendable, Hashable {
        /// Ceremonies run only in top-level pages or same-origin frames: `crossOrigin: true`
        /// or a `topOrigin` member fails the ceremony with
        /// `WebAuthnError.Code.crossOriginNotAllowed`.
        case forbidden
        /// Ceremonies may run in a cross-origin iframe. A `topOrigin`, when the client sends
        /// one, must be one of `topOrigins`; clients that do not send it (`crossOrigin: true`
        /// alone, as Safari does) are accepted.
        case allowed(topOrigins: [String])
    }

    /// The origins accepted in `clientData.origin`.
    public var allowedOrigins: [String]
    /// The cross-origin policy.
    public var crossOrigin: CrossOrigin

    /// Accepts `allowedOrigins`, in top-level pages only unless `crossOrigin` says otherwise.
    public init(allowedOrigins: [String], crossOrigin: CrossOrigin = .forbidden) {
        self.allowedOrigins = allowedOrigins
        self.crossOrigin = crossOrigin
    }

    /// The allowed origin equal to `origin`, or nil.
    func match(_ origin: String) -> String? {
        allowedOrigins.first { $0.utf8.elementsEqual(origin.utf8) }
    }

    /// Whether `topOrigin` is a page the relying party may be framed in.
    func allowsTopOrigin(_ topOrigin: String) -> Bool {
        guard case .allowed(let topOrigins) = crossOrigin else { return false }
        return topOrigins.contains { $0.utf8.elementsEqual(topOrigin.utf8) }
    }

    /// Whether a cross-origin iframe is acceptable at all.
    var allowsCrossOrigin: Bool {
        if case .allowed = crossOrigin { return true }
        return false
    }
}
