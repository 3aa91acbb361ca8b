import Fido2Crypto
import Fido2Support

/// A clock that never waits: `sleep(until:)` moves its time forward at once, so polling over
/// minutes runs in microseconds. ``advance(by:)`` simulates a fetch that takes time.
final class ManualClock: Clock, Sendable {
    struct Instant: InstantProtocol {
        var offset: Duration

        func advanced(by duration: Duration) -> Instant { Instant(offset: offset + duration) }
        func duration(to other: Instant) -> Duration { other.offset - offset }
        static func < (lhs: Instant, rhs: Instant) -> Bool { lhs.offset < rhs.offset }
    }

    private let state = LockedState((now: Instant(offset: .zero), sleeps: [Duration]()))

    /// The current time.
    var now: Instant { state.withLock { $0.now } }
    var minimumResolution: Duration { .zero }
    /// Time elapsed since the clock was made.
    var elapsed: Duration { now.offset }
    /// How long each sleep lasted, in order.
    var sleeps: [Duration] { state.withLock { $0.sleeps } }

    func sleep(until deadline: Instant, tolerance: Duration?) async throws {
        try Task.checkCancellation()
        state.withLock { state in
            let length = deadline > state.now ? state.now.duration(to: deadline) : .zero
            state.sleeps.append(length)
            if deadline > state.now { state.now = deadline }
        }
    }

    /// Moves time forward without a sleep.
    func advance(by duration: Duration) {
        state.withLock { $0.now = $0.now.advanced(by: duration) }
    }
}

/// A clock whose every sleep fails, as a cancelled task's does.
struct CancelledClock: Clock {
    typealias Instant = ManualClock.Instant
    var now: Instant { Instant(offset: .zero) }
    var minimumResolution: Duration { .zero }
    func sleep(until deadline: Instant, tolerance: Duration?) async throws {
        throw CancellationError()
    }
}
