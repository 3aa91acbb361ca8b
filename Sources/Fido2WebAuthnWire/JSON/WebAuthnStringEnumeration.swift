/// A WebAuthn DOMString enumeration (transports, attachments, requirements, hints, …).
///
/// WebAuthn tells clients to ignore values they do not know and relying parties to store
/// unknown transports, so these are open sets: a struct around the string, with the known
/// values as static members, and any other string kept as it is. Through `Codable` a value is
/// its string.
public protocol WebAuthnStringEnumeration: RawRepresentable, Sendable, Hashable, Codable,
    ExpressibleByStringLiteral, CustomStringConvertible
where RawValue == String {
    /// The value spelled `rawValue`, known or not.
    init(rawValue: String)
}

extension WebAuthnStringEnumeration {
    /// The value spelled by the literal.
    public init(stringLiteral value: String) {
        self.init(rawValue: value)
    }

    /// The spelling.
    public var description: String { rawValue }
}
