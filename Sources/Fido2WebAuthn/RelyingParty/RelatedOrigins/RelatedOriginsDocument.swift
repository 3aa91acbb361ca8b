import Fido2Encoding
@_spi(Fido2Internals) import Fido2WebAuthnWire

extension RelyingParty {
    /// The `/.well-known/webauthn` document of Related Origin Requests (WebAuthn Level 3 §5.11):
    /// `{"origins":[…]}`, the web origins allowed to run ceremonies under the relying party's one
    /// RP ID although they are not on its domain.
    ///
    /// Made by ``RelyingParty/relatedOriginsDocument()`` from the relying party's configured
    /// origins, so the document and verification never disagree: a browser that fetched it lets
    /// `https://example.co.uk` create and use credentials for RP ID `example.com`, and
    /// ``RelyingParty/verifyRegistration(_:expecting:)`` and
    /// ``RelyingParty/verifyAuthentication(_:expecting:)`` accept exactly the same origins, with
    /// the RP ID's hash and nothing else.
    ///
    /// Serve ``jsonBytes()`` at `https://<RP ID>/.well-known/webauthn` with content type
    /// `application/json`; browsers fetch it only over HTTPS on the RP ID itself.
    public struct RelatedOriginsDocument: Sendable, Hashable {
        /// The most registrable-domain labels a document may span: browsers must support at
        /// least 5 (§5.11.1) and Firefox stops there, so a document beyond it works in some
        /// browsers only.
        public static let labelLimit = 5

        /// The origins the document lists: the relying party's `http` and `https` origins, in
        /// configuration order, each once.
        public let origins: [String]
        /// The distinct registrable-domain labels of ``origins`` (`example` for
        /// `https://login.example.co.uk`), in the order first met; at most ``labelLimit``.
        public let labels: [String]
        /// The configured origins left out because they are not web origins (an Android app's
        /// `android:apk-key-hash:…`, say): browsers never present them, and the document is for
        /// browsers.
        public let omittedOrigins: [String]

        /// A document listing `origins`, checked as ``RelyingParty/relatedOriginsDocument()``
        /// checks the relying party's.
        ///
        /// - Throws: `WebAuthnError` with field `origins[i]`: `invalidValue` for an `http` or
        ///   `https` origin that is not `scheme://host[:port]`, `relatedOriginsLimitExceeded` for
        ///   the first origin whose label is a sixth distinct one (``labelLimit``).
        public init(origins configured: [String]) throws {
            var origins: [String] = []
            var labels: [String] = []
            var omitted: [String] = []
            for (index, origin) in configured.enumerated() {
                guard let host = try Self.host(of: origin, field: "origins[\(index)]") else {
                    omitted.append(origin)
                    continue
                }
                guard !origins.contains(origin) else { continue }
                let label = RegistrableDomainLabel.label(ofHost: host)
                if !labels.contains(label) {
                    guard labels.count < Self.labelLimit else {
                        throw WebAuthnError(
                            .relatedOriginsLimitExceeded,
                            "origin \(quotedInput(origin)) adds a sixth registrable-domain label (\(quotedInput(label)) after \(labels.joined(separator: ", "))); browsers need support only \(Self.labelLimit)",
                            field: "origins[\(index)]")
                    }
                    labels.append(label)
                }
                origins.append(origin)
            }
            self.origins = origins
            self.labels = labels
            self.omittedOrigins = omitted
        }

        /// The document's JSON, `{"origins":["https://…",…]}`.
        public func jsonBytes() -> [UInt8] {
            var writer = JSONWriter(
                reservingCapacity: 16 + origins.reduce(0) { $0 + $1.utf8.count + 3 })
            writer.beginObject()
            writer.name("origins")
            writer.beginArray()
            for origin in origins { writer.string(origin) }
            writer.endArray()
            writer.endObject()
            return writer.bytes
        }

        /// The host of an `http` or `https` origin (lower case, without a trailing dot); nil for
        /// an origin of another scheme.
        ///
        /// - Throws: `WebAuthnError.Code.invalidValue` naming `field` for an `http(s)` origin
        ///   with a path, query, fragment, user information, an empty host or a port that is not
        ///   a number.
        static func host(of origin: String, field: String) throws(WebAuthnError) -> String? {
            let rest: Substring
            if origin.hasPrefix("https://") {
                rest = origin.dropFirst(8)
            } else if origin.hasPrefix("http://") {
                rest = origin.dropFirst(7)
            } else {
                return nil
            }
            func invalid(_ why: String) -> WebAuthnError {
                WebAuthnError(
                    .invalidValue, "\(quotedInput(origin)) is not an origin: \(why)", field: field)
            }
            guard !rest.contains(where: { "/?#@\\ ".contains($0) }) else {
                throw invalid("an origin is scheme://host[:port], with no path, query or user")
            }
            var host = rest
            if rest.hasPrefix("[") {
                guard let close = rest.firstIndex(of: "]") else { throw invalid("unclosed [") }
                host = rest[...close]
                let after = rest[rest.index(after: close)...]
                guard after.isEmpty || Self.isPort(after) else { throw invalid("a bad port") }
            } else if let colon = rest.firstIndex(of: ":") {
                host = rest[..<colon]
                guard Self.isPort(rest[colon...]) else { throw invalid("a bad port") }
            }
            if host.hasSuffix(".") { host = host.dropLast() }
            guard !host.isEmpty, !host.hasPrefix("."), !host.contains("..") else {
                throw invalid("an empty host or label")
            }
            return host.lowercased()
        }

        /// `:` followed by 1 to 5 digits.
        private static func isPort(_ text: Substring) -> Bool {
            let digits = text.dropFirst()
            return text.first == ":" && (1...5).contains(digits.count)
                && digits.allSatisfy { $0.isASCII && $0.isNumber }
        }
    }
}
