/// A CBOR simple value other than false, true, null and undefined (RFC 8949 §3.3).
///
/// Values 20...23 are false, true, null and undefined, which ``CBORValue`` has cases of its own
/// for, and 24...31 are reserved or not well-formed, so only 0...19 and 32...255 can be made.
public struct CBORSimpleValue: Sendable, Hashable, CustomStringConvertible {
    /// The simple value's number.
    public let rawValue: UInt8

    /// Creates the simple value `rawValue`, or nil for 20...31.
    public init?(_ rawValue: UInt8) {
        guard rawValue < 20 || rawValue >= 32 else { return nil }
        self.rawValue = rawValue
    }

    /// Diagnostic notation, e.g. `simple(16)`.
    public var description: String { "simple(\(rawValue))" }
}
