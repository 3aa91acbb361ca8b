/// What one competitor cost, measured in one run.
public struct Measurement: Sendable {
    /// The competitor's name.
    public let name: String
    /// Median nanoseconds per operation over the rounds.
    public let nanoseconds: Double
    /// Fastest round's nanoseconds per operation.
    public let bestNanoseconds: Double
    /// Heap allocations (malloc-family calls) per operation.
    public let allocations: Double
}
