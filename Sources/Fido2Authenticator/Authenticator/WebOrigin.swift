import Fido2WebAuthnWire

/// A web origin as the software authenticator accepts it: `https://host[:port]`, or
/// `http://localhost[:port]` (and `http://*.localhost`) for local development, which browsers
/// also treat as secure contexts.
///
/// The host is an ASCII domain name (internationalized names in their punycode form),
/// lower-cased; IP-address hosts are read but cannot carry an RP ID (see
/// ``RelyingPartyIDPolicy``). ``serialized`` is the origin as a browser writes it into
/// clientDataJSON: `https://EXAMPLE.org:443` reads as `https://example.org`.
public struct WebOrigin: Sendable, Hashable, CustomStringConvertible {
    /// `https` or `http`.
    public let scheme: String
    /// The host, lower-cased.
    public let host: String
    /// The port when the origin names one other than the scheme's default (443 for `https`, 80
    /// for `http`); nil otherwise.
    public let port: UInt16?
    /// The origin as a browser serializes it (the HTML standard's ASCII serialization of an
    /// origin): scheme and host in lower case, the port only when it is not the scheme's
    /// default. This is what goes into clientDataJSON.
    public let serialized: String

    /// Reads an origin.
    ///
    /// - Throws: ``AuthenticatorError`` `invalidOrigin` for another scheme, `http` on a host other
    ///   than localhost, a path, query, fragment or user info, an empty or malformed host, or a
    ///   port outside 1…65535.
    public init(_ text: String) throws {
        func invalid(_ reason: String) -> AuthenticatorError {
            AuthenticatorError(.invalidOrigin, "\"\(text)\": \(reason)", field: "origin")
        }
        let utf8 = Array(text.utf8)
        var separator = 0
        while separator + 2 < utf8.count,
            !(utf8[separator] == 0x3a && utf8[separator + 1] == 0x2f && utf8[separator + 2] == 0x2f)
        {
            separator += 1
        }
        guard separator + 2 < utf8.count else {
            throw invalid("an origin is scheme://host[:port]")
        }
        let scheme = DomainName.lowercased(utf8[..<separator])
        var authority = utf8[(separator + 3)...]
        guard !authority.isEmpty else { throw invalid("the host is missing") }
        guard
            !authority.contains(where: {
                $0 == UInt8(ascii: "/") || $0 == UInt8(ascii: "?") || $0 == UInt8(ascii: "#")
                    || $0 == UInt8(ascii: "@")
            })
        else { throw invalid("an origin has no path, query, fragment or user info") }
        var port: UInt16?
        let portStart: Int?
        if authority.first == UInt8(ascii: "[") {
            guard let close = authority.firstIndex(of: UInt8(ascii: "]")) else {
                throw invalid("an IPv6 literal is not closed")
            }
            portStart = close + 1 < authority.endIndex ? close + 1 : nil
        } else {
            portStart = authority.lastIndex(of: UInt8(ascii: ":"))
        }
        if let portStart {
            let digits = authority[(portStart + 1)...]
            guard authority[portStart] == UInt8(ascii: ":"), !digits.isEmpty, digits.count <= 5,
                digits.allSatisfy({ $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") })
            else { throw invalid("the port is not a number in 1...65535") }
            let value = digits.reduce(0) { $0 * 10 + Int($1 - UInt8(ascii: "0")) }
            guard (1...65535).contains(value) else {
                throw invalid("the port is not a number in 1...65535")
            }
            port = UInt16(value)
            authority = authority[..<portStart]
        }
        let host = DomainName.lowercased(authority)
        guard DomainName.isIPAddress(host) || DomainName.isValid(host) else {
            throw invalid(
                "\"\(String(decoding: host, as: UTF8.self))\" is not an ASCII domain name or an IP address"
            )
        }
        if scheme.elementsEqual("http".utf8) {
            guard host.elementsEqual("localhost".utf8) || host.ends(with: ".localhost".utf8) else {
                throw invalid("http is only a secure context on localhost")
            }
        } else if !scheme.elementsEqual("https".utf8) {
            throw invalid("the scheme must be https")
        }
        self.scheme = String(decoding: scheme, as: UTF8.self)
        self.host = String(decoding: host, as: UTF8.self)
        let defaultPort: UInt16 = self.scheme == "https" ? 443 : 80
        self.port = port == defaultPort ? nil : port
        self.serialized =
            self.scheme + "://" + self.host + (self.port.map { ":\($0)" } ?? "")
    }

    /// The serialized origin.
    public var description: String { serialized }
}

/// Syntax checks on domain names, on their ASCII bytes.
enum DomainName {
    /// `bytes` with ASCII capitals made small.
    static func lowercased(_ bytes: some Collection<UInt8>) -> [UInt8] {
        bytes.map { $0 >= UInt8(ascii: "A") && $0 <= UInt8(ascii: "Z") ? $0 | 0x20 : $0 }
    }

    /// Whether `name` is an ASCII domain: labels of 1…63 lower-case letters, digits and hyphens
    /// (not at either end), 253 bytes at most, and a last label that is not all digits.
    static func isValid(_ name: [UInt8]) -> Bool {
        guard !name.isEmpty, name.count <= 253 else { return false }
        var labelStart = 0
        var allDigits = true
        for index in 0...name.count {
            guard index < name.count, name[index] != UInt8(ascii: ".") else {
                let length = index - labelStart
                guard length >= 1, length <= 63, name[labelStart] != UInt8(ascii: "-"),
                    name[index - 1] != UInt8(ascii: "-")
                else { return false }
                if index == name.count { return !allDigits }
                labelStart = index + 1
                allDigits = true
                continue
            }
            let byte = name[index]
            let digit = byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9")
            guard
                digit || (byte >= UInt8(ascii: "a") && byte <= UInt8(ascii: "z"))
                    || byte == UInt8(ascii: "-")
            else { return false }
            allDigits = allDigits && digit
        }
        return false
    }

    /// Whether `host` is an IPv4 dotted quad or a bracketed IPv6 literal.
    static func isIPAddress(_ host: [UInt8]) -> Bool {
        if host.first == UInt8(ascii: "["), host.last == UInt8(ascii: "]") { return true }
        var parts = 0
        var value = 0
        var digits = 0
        for byte in host + [UInt8(ascii: ".")] {
            if byte == UInt8(ascii: ".") {
                guard digits >= 1, digits <= 3, value <= 255 else { return false }
                parts += 1
                value = 0
                digits = 0
            } else if byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9") {
                value = value * 10 + Int(byte - UInt8(ascii: "0"))
                digits += 1
            } else {
                return false
            }
        }
        return parts == 4
    }
}
