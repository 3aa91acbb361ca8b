import Fido2Crypto
import Fido2Support

/// A clock whose sleeps return at once after moving its time forward, so the demo polls on the
/// guide's schedule (every 2 s, up to 2 min) without waiting; the elapsed time it reports is
/// simulated, and the demo says so.
final class SimulatedClock: Clock, Sendable {
    struct Instant: InstantProtocol {
        var offset: Duration

        func advanced(by duration: Duration) -> Instant { Instant(offset: offset + duration) }
        func duration(to other: Instant) -> Duration { other.offset - offset }
        static func < (lhs: Instant, rhs: Instant) -> Bool { lhs.offset < rhs.offset }
    }

    private let current = LockedState(Instant(offset: .zero))

    var now: Instant { current.withLock { $0 } }
    var minimumResolution: Duration { .zero }

    func sleep(until deadline: Instant, tolerance: Duration?) async throws {
        try Task.checkCancellation()
        current.withLock { now in
            if now < deadline { now = deadline }
        }
    }
}
