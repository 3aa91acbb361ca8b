/// One implementation of a piece of work: fido2kit's, or a peer's.
public struct Competitor: Sendable {
    /// A short name, such as `fido2kit` or `libcbor (items)`.
    public let name: String
    /// Does the work once and returns a value derived from the result, so it cannot be
    /// optimized away.
    public let body: @Sendable () -> UInt64
    /// Does the work a given number of times in one call, for a peer in another process
    /// (``PeerProcess``) or work spread over threads (``parallel(_:threads:_:)``): the harness
    /// then times one call per batch, so the batch pays one pipe round-trip or thread hand-off,
    /// and counts no allocations.
    public let batch: (@Sendable (Int) -> UInt64)?

    /// Creates a competitor.
    public init(_ name: String, _ body: @escaping @Sendable () -> UInt64) {
        self.name = name
        self.body = body
        self.batch = nil
    }

    /// Creates a competitor whose work is done `count` times per call of `batch`.
    public init(_ name: String, batch: @escaping @Sendable (Int) -> UInt64) {
        self.name = name
        self.body = { batch(1) }
        self.batch = batch
    }
}
