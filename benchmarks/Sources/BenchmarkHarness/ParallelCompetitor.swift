import Dispatch

extension Competitor {
    /// A competitor that does `body` on `threads` threads at once: each timed call of `count`
    /// operations splits them evenly over the threads (Dispatch's `concurrentPerform`, whose
    /// workers persist between calls), so the nanoseconds per operation it reports are wall
    /// time over all threads. With one thread the operations run on the calling thread, so a
    /// one-thread and a two-thread competitor differ only in the threads. Allocations are not
    /// counted (the counter is per process, and the threads would count each other's).
    public static func parallel(
        _ name: String, threads: Int, _ body: @escaping @Sendable () -> UInt64
    ) -> Competitor {
        let threads = max(1, threads)
        return Competitor(
            name,
            batch: { (count: Int) -> UInt64 in
                let checksums = ChecksumSlots(count: threads)
                DispatchQueue.concurrentPerform(iterations: threads) { thread in
                    let share = count / threads + (thread < count % threads ? 1 : 0)
                    var checksum: UInt64 = 0
                    for _ in 0..<share { checksum &+= body() }
                    checksums.store(checksum, at: thread)
                }
                return checksums.sum
            })
    }
}

/// One checksum per thread, each written by its own thread only, summed after all have ended.
private final class ChecksumSlots: @unchecked Sendable {
    private let slots: UnsafeMutablePointer<UInt64>
    private let count: Int

    init(count: Int) {
        self.count = count
        slots = .allocate(capacity: count)
        slots.initialize(repeating: 0, count: count)
    }

    deinit { slots.deallocate() }

    func store(_ value: UInt64, at index: Int) { slots[index] = value }

    var sum: UInt64 { (0..<count).reduce(0) { $0 &+ slots[$1] } }
}
