import CAllocationCounter

/// Measures scenarios: each competitor's batch size is calibrated to about `batchNanoseconds`,
/// then the competitors run in interleaved rounds (rotating who goes first) so that drift in
/// clock speed or load affects all of them alike; the median and the fastest round are reported.
/// Each timed batch follows one untimed operation of the same competitor (see `time`).
public struct Harness: Sendable {
    /// Rounds per scenario.
    public var rounds: Int
    /// The wall time one batch should take. 10 ms by default: a WebAuthn peer at about 1 ms an
    /// operation then runs ten per batch rather than one or two, so its fastest round is not
    /// one lucky operation, and its per-batch pipe round-trip is spread thin.
    public var batchNanoseconds: Double

    /// Creates a harness.
    public init(rounds: Int = 41, batchNanoseconds: Double = 10_000_000) {
        self.rounds = rounds
        self.batchNanoseconds = batchNanoseconds
    }

    /// Measures every competitor of `scenario`.
    public func measure(_ scenario: Scenario) -> [Measurement] {
        let competitors = scenario.competitors
        let batches = competitors.map(calibrate)
        var samples = [[Double]](repeating: [], count: competitors.count)
        for round in 0..<rounds {
            for step in 0..<competitors.count {
                let index = (round + step) % competitors.count
                samples[index].append(time(competitors[index], iterations: batches[index]))
            }
        }
        return competitors.indices.map { index in
            let sorted = samples[index].sorted()
            return Measurement(
                name: competitors[index].name, nanoseconds: sorted[sorted.count / 2],
                bestNanoseconds: sorted[0],
                allocations: allocations(competitors[index]))
        }
    }

    private func calibrate(_ competitor: Competitor) -> Int {
        var iterations = 1
        while iterations < 1 << 26 {
            let perOperation = time(competitor, iterations: iterations)
            if perOperation * Double(iterations) >= batchNanoseconds / 4 {
                return max(1, Int(batchNanoseconds / perOperation))
            }
            iterations *= 4
        }
        return iterations
    }

    /// Nanoseconds per operation over a batch of `iterations`, after one untimed operation.
    ///
    /// The untimed operation puts the competitor's code and data back into the caches the
    /// previous batch (another competitor's, or a peer process's) filled, and wakes a peer's
    /// worker. Without it, a row of a few operations per batch paid that cost in its time, and
    /// unevenly: rounds rotate in a fixed order, so each competitor always follows the same
    /// other one. In the x5c peer scenario fido2kit (always after python-fido2) measured 394 µs
    /// against 350 µs in a loop of its own, and the Python peers, at one or two operations a
    /// batch, up to twice their steady cost.
    private func time(_ competitor: Competitor, iterations: Int) -> Double {
        let clock = ContinuousClock()
        var checksum = competitor.body()
        let start = clock.now
        if let batch = competitor.batch {
            checksum &+= batch(iterations)
        } else {
            for _ in 0..<iterations { checksum &+= competitor.body() }
        }
        let elapsed = start.duration(to: clock.now)
        Sink.keep(checksum)
        let (seconds, attoseconds) = elapsed.components
        return (Double(seconds) * 1e9 + Double(attoseconds) / 1e9) / Double(iterations)
    }

    /// Allocations per operation, averaged over 200 operations after a warm-up; not a number
    /// for a competitor working in another process.
    private func allocations(_ competitor: Competitor) -> Double {
        guard competitor.batch == nil else { return .nan }
        var checksum: UInt64 = 0
        for _ in 0..<20 { checksum &+= competitor.body() }
        allocation_counter_start()
        for _ in 0..<200 { checksum &+= competitor.body() }
        let count = allocation_counter_stop()
        Sink.keep(checksum)
        return Double(count) / 200
    }
}

/// Keeps results alive so the optimizer cannot drop the work that made them.
public enum Sink {
    nonisolated(unsafe) private static var value: UInt64 = 0

    /// Consumes `checksum`.
    @inline(never)
    public static func keep(_ checksum: UInt64) { value &+= checksum }
}
