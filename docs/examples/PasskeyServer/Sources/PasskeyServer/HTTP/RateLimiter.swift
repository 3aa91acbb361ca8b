import NIOConcurrencyHelpers

/// A per-client rate limit: a token bucket per IP address, of `perMinute` tokens refilled
/// evenly over a minute. In memory, per process; behind a proxy every client has the proxy's
/// address, and the limit should count by the proxy's `X-Forwarded-For` instead.
final class RateLimiter: Sendable {
    /// How many clients are tracked at most; beyond that, new clients are refused until
    /// buckets refill (and are forgotten), so a flood of addresses cannot grow the table.
    static let maximumClients = 10_000

    private struct Bucket {
        var tokens: Double
        var updated: ContinuousClock.Instant
    }

    private let perMinute: Double
    private let buckets = NIOLockedValueBox([String: Bucket]())

    /// A limit of `perMinute` requests a minute per client, all of them at once at most.
    init(perMinute: Int) {
        self.perMinute = Double(perMinute)
    }

    /// Whether `client` may make a request now; takes a token when it may.
    func allow(_ client: String) -> Bool {
        let now = ContinuousClock.now
        let perMinute = perMinute
        return buckets.withLockedValue { buckets in
            if buckets[client] == nil, buckets.count >= Self.maximumClients {
                // Forget the clients whose buckets are full again: they are as new ones.
                buckets = buckets.filter { Self.refilled($0.value, at: now, perMinute) < perMinute }
                guard buckets.count < Self.maximumClients else { return false }
            }
            var bucket = buckets[client] ?? Bucket(tokens: perMinute, updated: now)
            bucket.tokens = Self.refilled(bucket, at: now, perMinute)
            bucket.updated = now
            guard bucket.tokens >= 1 else {
                buckets[client] = bucket
                return false
            }
            bucket.tokens -= 1
            buckets[client] = bucket
            return true
        }
    }

    /// The tokens `bucket` has at `now`.
    private static func refilled(
        _ bucket: Bucket, at now: ContinuousClock.Instant, _ perMinute: Double
    ) -> Double {
        let elapsed = bucket.updated.duration(to: now)
        let seconds =
            Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) * 1e-18
        return min(perMinute, bucket.tokens + seconds * perMinute / 60)
    }
}
