/// A web origin as the software authenticator accepts it: `https://host[:port]`, or
/// `http://localhost[:port]` (and `http://*.localhost`) for local development, which browsers
/// also treat as secure contexts.
///
/// The host is an ASCII domain name (internationalized names in their punycode form),
/// lower-cased; IP-address hosts are read but cannot carry an RP ID (see
/// ``RelyingPartyIDPolicy``).
public struct WebOrigin: Sendable, Hashable, CustomStringConvertible {
    /// `https` or `http`.
    public let scheme: String
    /// The host, lower-cased.
    public let host: String
    /// The port when the origin names one.
    public let port: UInt16?
    /// The origin as given (what goes into clientDataJSON).
    public let serialized: String

    /// Reads an origin.
    ///
    /// - Throws: ``WebAuthnError`` `invalidOrigin` for another scheme, `http` on a host other
    ///   than localhost, a path, query, fragment or user info, an empty or malformed host, or a
    ///   port outside 1…65535.
    public init(_ text: String) throws(WebAuthnError) {
        func invalid(_ reason: String) -> WebAuthnError {
            WebAuthnError(.invalidOrigin, "\"\(text)\": \(reason)", field: "origin")
        }
        let utf8 = Array(text.utf8)
        let marker = Array("://".utf8)
        guard
            let separator = utf8.indices.first(where: {
                utf8[$0...].starts(with: marker)
            })
        else { throw invalid("an origin is scheme://host[:port]") }
        let scheme = String(decoding: utf8[..<separator], as: UTF8.self).lowercased()
        var authority = Array(utf8[(separator + 3)...])
        guard !authority.isEmpty else { throw invalid("the host is missing") }
        guard
            !authority.contains(where: {
                [UInt8(ascii: "/"), UInt8(ascii: "?"), UInt8(ascii: "#"), UInt8(ascii: "@")]
                    .contains($0)
            })
        else { throw invalid("an origin has no path, query, fragment or user info") }
        var port: UInt16?
        if authority.first != UInt8(ascii: "["),
            let colon = authority.lastIndex(of: UInt8(ascii: ":"))
        {
            let digits = authority[(colon + 1)...]
            guard !digits.isEmpty, digits.count <= 5,
                digits.allSatisfy({ (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) }),
                let value = Int(String(decoding: digits, as: UTF8.self)),
                (1...65535).contains(value)
            else { throw invalid("the port is not a number in 1...65535") }
            port = UInt16(value)
            authority.removeSubrange(colon...)
        } else if authority.first == UInt8(ascii: "["),
            let close = authority.firstIndex(of: UInt8(ascii: "]")), close + 1 < authority.count
        {
            let rest = authority[(close + 1)...]
            guard rest.first == UInt8(ascii: ":"), rest.count > 1,
                let value = Int(String(decoding: rest.dropFirst(), as: UTF8.self)),
                (1...65535).contains(value)
            else { throw invalid("the port is not a number in 1...65535") }
            port = UInt16(value)
            authority.removeSubrange((close + 1)...)
        }
        let host = String(decoding: authority, as: UTF8.self).lowercased()
        guard DomainName.isIPAddress(host) || DomainName.isValid(host) else {
            throw invalid("\"\(host)\" is not an ASCII domain name or an IP address")
        }
        switch scheme {
        case "https": break
        case "http" where host == "localhost" || host.hasSuffix(".localhost"): break
        case "http": throw invalid("http is only a secure context on localhost")
        default: throw invalid("the scheme must be https")
        }
        self.scheme = scheme
        self.host = host
        self.port = port
        self.serialized = text
    }

    /// The origin as given.
    public var description: String { serialized }
}

/// Syntax checks on domain names.
enum DomainName {
    /// Whether `name` is an ASCII domain: labels of 1…63 letters, digits and hyphens (not at
    /// either end), 253 characters at most, and a last label that is not all digits.
    static func isValid(_ name: String) -> Bool {
        let bytes = Array(name.utf8)
        guard !bytes.isEmpty, bytes.count <= 253 else { return false }
        let labels = bytes.split(separator: UInt8(ascii: "."), omittingEmptySubsequences: false)
        for label in labels {
            guard (1...63).contains(label.count), label.first != UInt8(ascii: "-"),
                label.last != UInt8(ascii: "-"),
                label.allSatisfy({
                    (UInt8(ascii: "a")...UInt8(ascii: "z")).contains($0)
                        || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0)
                        || $0 == UInt8(ascii: "-")
                })
            else { return false }
        }
        guard let last = labels.last,
            !last.allSatisfy({ (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) })
        else { return false }
        return true
    }

    /// Whether `host` is an IPv4 dotted quad or a bracketed IPv6 literal.
    static func isIPAddress(_ host: String) -> Bool {
        if host.hasPrefix("[") && host.hasSuffix("]") { return true }
        let parts = host.split(separator: ".", omittingEmptySubsequences: false)
        return parts.count == 4
            && parts.allSatisfy { part in
                !part.isEmpty && part.count <= 3 && part.allSatisfy(\.isASCII)
                    && part.allSatisfy(\.isNumber) && (Int(part) ?? 256) <= 255
            }
    }
}
