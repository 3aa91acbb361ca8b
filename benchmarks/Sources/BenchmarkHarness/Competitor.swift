/// One implementation of a piece of work: fido2kit's, or a peer's.
public struct Competitor: Sendable {
    /// A short name, such as `fido2kit` or `libcbor (items)`.
    public let name: String
    /// Does the work once and returns a value derived from the result, so it cannot be
    /// optimized away.
    public let body: @Sendable () -> UInt64

    /// Creates a competitor.
    public init(_ name: String, _ body: @escaping @Sendable () -> UInt64) {
        self.name = name
        self.body = body
    }
}
