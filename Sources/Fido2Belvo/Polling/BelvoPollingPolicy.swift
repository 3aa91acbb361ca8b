/// How often and for how long to poll a Belvo resource, and what a time-out means.
///
/// The guide polls `GET /enrollments/{id}/fido-registration-options/`, `GET /enrollments/{id}/`
/// and `GET /payment-intents/{id}/` every 2 s for up to 2 min and then tells the user to try
/// again (``guide``); the SDK polls the registration options every 1 s for up to 5 min and
/// returns nil (``sdk``).
///
/// Attempts happen at the start and then every ``interval`` (measured from the start, so a slow
/// fetch does not stretch the schedule; one that overruns a slot is followed at once by the next
/// attempt) while the elapsed time is at most ``deadline``: the guide's policy makes 61 attempts,
/// the last at exactly 2 min, and the SDK's 301. When the last attempt comes back empty the poll
/// gives up at once, without sleeping past the deadline.
public struct BelvoPollingPolicy: Sendable, Hashable {
    /// What a poll does when the deadline passes without an answer.
    public enum Timeout: Sendable, Hashable {
        /// Throw ``BelvoError/Code/pollingTimedOut`` (the guide: show "try again").
        case throwsError
        /// Return nil (the SDK's `fido-registration-options` polling).
        case returnsNil
    }

    /// The time between the starts of two attempts.
    public var interval: Duration
    /// How long after the first attempt the last one may start.
    public var deadline: Duration
    /// What happens when the deadline passes.
    public var onTimeout: Timeout

    /// The integration guide's policy: every 2 s for up to 2 min, then an error.
    public static let guide = BelvoPollingPolicy(
        interval: .seconds(2), deadline: .seconds(120), onTimeout: .throwsError)
    /// The SDK's policy: every 1 s for up to 5 min, then nil.
    public static let sdk = BelvoPollingPolicy(
        interval: .seconds(1), deadline: .seconds(300), onTimeout: .returnsNil)

    /// A policy. A non-positive `interval` is treated as 1 ms so a poll always advances.
    public init(interval: Duration, deadline: Duration, onTimeout: Timeout) {
        self.interval = interval
        self.deadline = deadline
        self.onTimeout = onTimeout
    }

    /// Calls `fetch` on the policy's schedule until it returns a value.
    ///
    /// `fetch` returns nil for "not yet" (e.g. the enrollment is still `PENDING`, or the options
    /// answered 404 because they are not ready); an error it throws ends the poll at once. The
    /// clock is injected: pass `ContinuousClock()` in production, a manual clock in tests.
    /// The poll runs on the caller's actor, so `fetch` may use that actor's state.
    ///
    /// - Returns: the first value `fetch` returns, or nil when the deadline passes and
    ///   ``onTimeout`` is ``Timeout/returnsNil``.
    /// - Throws: ``BelvoError/Code/pollingTimedOut`` when the deadline passes and ``onTimeout``
    ///   is ``Timeout/throwsError``; ``BelvoError/Code/cancelled`` when the task is cancelled
    ///   while sleeping; whatever `fetch` throws.
    nonisolated(nonsending) public func poll<Value, C: Clock>(
        clock: C, _ fetch: () async throws -> Value?
    ) async throws -> Value? where C.Duration == Duration {
        let step = interval > .zero ? interval : .milliseconds(1)
        let start = clock.now
        let end = start.advanced(by: deadline)
        var next = start
        var attempts = 0
        while true {
            if let value = try await fetch() { return value }
            attempts += 1
            next = next.advanced(by: step)
            // Behind schedule after a slow fetch: try again at once rather than in a burst.
            let now = clock.now
            if next < now { next = now }
            guard next <= end else { break }
            do {
                try await clock.sleep(until: next, tolerance: nil)
            } catch {
                throw BelvoError(.cancelled, "polling was cancelled after \(attempts) attempts")
            }
        }
        switch onTimeout {
        case .returnsNil:
            return nil
        case .throwsError:
            throw BelvoError(
                .pollingTimedOut,
                "no answer after \(attempts) attempts over \(deadline); try again")
        }
    }
}
