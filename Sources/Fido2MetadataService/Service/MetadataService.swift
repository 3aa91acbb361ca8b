import Fido2Support
import Fido2WebAuthn
import Foundation

/// A FIDO Metadata Service (MDS3) BLOB that refreshes itself: fetched from a URL, verified
/// (`MetadataBLOB` of Fido2WebAuthn), kept on disk, refreshed at its `nextUpdate`.
///
/// - ``start()`` serves the cached BLOB when it still verifies, then fetches if it is due.
/// - ``refresh()`` fetches and verifies a BLOB and serves it only if its number (`no`) is
///   greater than that of the one held: an older BLOB is refused as a rollback, an equal one
///   leaves the held one in place. When the fetch fails or the BLOB fails verification, the
///   last good one stays in service, past its `nextUpdate` if need be (``isStale`` says so).
/// - ``refreshIfDue()`` refreshes when the held BLOB's `nextUpdate` has come (by the
///   configured clock), or when there is none and ``Configuration/retryInterval`` has passed
///   since the last attempt; ``run(pollInterval:)`` calls it in a loop.
///
/// Every outcome is a ``MetadataServiceEvent`` passed to ``Configuration/onEvent``.
///
/// Readers (``blob``, ``trustPolicy(refusedStatuses:minimumCertificationLevel:mode:)``) take the
/// current verified BLOB under a lock and never wait on the network or on a verification in
/// progress; refreshes are serialized among themselves.
public final class MetadataService: Sendable {
    /// The FIDO Alliance's MDS3 BLOB URL, `https://mds3.fidoalliance.org/` (a literal that
    /// always parses).
    public static let fidoAllianceURL = URL(string: "https://mds3.fidoalliance.org/")!

    /// How the service fetches, verifies and keeps BLOBs.
    public struct Configuration: Sendable {
        /// Where the BLOB is fetched from; default ``MetadataService/fidoAllianceURL``.
        public var url: URL
        /// The directory holding the last good BLOB (`blob.jwt`); created when missing.
        public var cacheDirectory: URL
        /// The verification options; `validationTime` is replaced by ``clock`` at each
        /// verification, and `maximumSize` also bounds the
        /// download and the cache file. Default: the shipped GlobalSign Root CA - R3 as the
        /// anchor, no CRLs, stale BLOBs refused.
        public var verification: MetadataBLOB.VerificationOptions
        /// The current time in seconds since the Unix epoch (injectable for tests).
        public var clock: @Sendable () -> Int64
        /// How long after a failed or unproductive refresh the next one is due when the held
        /// BLOB's `nextUpdate` has passed (or there is none). Default one hour.
        public var retryInterval: Int64
        /// The time-out of one fetch, the whole download. Default 60 seconds.
        public var timeout: Duration
        /// What fetches the BLOB. Default ``URLSessionMetadataTransport``.
        public var transport: any MetadataTransport
        /// Called with each event (on the refreshing task). Default: nothing.
        public var onEvent: @Sendable (MetadataServiceEvent) -> Void

        /// A configuration; see each property.
        public init(
            url: URL = MetadataService.fidoAllianceURL, cacheDirectory: URL,
            verification: MetadataBLOB.VerificationOptions = MetadataBLOB.VerificationOptions(),
            clock: @escaping @Sendable () -> Int64 = { Int64(Date().timeIntervalSince1970) },
            retryInterval: Int64 = 3600, timeout: Duration = .seconds(60),
            transport: any MetadataTransport = URLSessionMetadataTransport(),
            onEvent: @escaping @Sendable (MetadataServiceEvent) -> Void = { _ in }
        ) {
            self.url = url
            self.cacheDirectory = cacheDirectory
            self.verification = verification
            self.clock = clock
            self.retryInterval = retryInterval
            self.timeout = timeout
            self.transport = transport
            self.onEvent = onEvent
        }
    }

    private struct State {
        var blob: MetadataBLOB?
        var lastAttempt: Int64?
        /// The number of the BLOB the cache file holds, as far as this service knows (nil when
        /// none, or when the last write failed).
        var cachedNumber: Int64?
    }

    /// The configuration.
    public let configuration: Configuration
    private let cache: MetadataCache
    private let state = LockedState(State())
    private let refreshing = RefreshGate()

    /// A service with `configuration`; nothing is read or fetched until ``start()`` or
    /// ``refresh()``.
    public init(configuration: Configuration) {
        self.configuration = configuration
        self.cache = MetadataCache(directory: configuration.cacheDirectory)
    }

    /// The BLOB served now (the last good one), or nil before any verified.
    public var blob: MetadataBLOB? { state.withLock { $0.blob } }

    /// Whether the served BLOB's `nextUpdate` has passed by the clock (false without one).
    public var isStale: Bool {
        guard let blob else { return false }
        return configuration.clock() > blob.nextUpdateTime
    }

    /// A trust policy over the BLOB served now, or nil before any verified: set it as
    /// `AttestationTrustPolicy.metadata` for each registration.
    public func trustPolicy(
        refusedStatuses: Set<AuthenticatorStatus> = AuthenticatorStatus.refusedByDefault,
        minimumCertificationLevel: CertificationLevel? = nil,
        mode: MetadataTrustPolicy.Mode = .strict
    ) -> MetadataTrustPolicy? {
        blob.map {
            MetadataTrustPolicy(
                blob: $0, refusedStatuses: refusedStatuses,
                minimumCertificationLevel: minimumCertificationLevel, mode: mode)
        }
    }

    /// When the next refresh is due, in seconds since the epoch: the held BLOB's `nextUpdate`
    /// while it is ahead, else ``Configuration/retryInterval`` after the last attempt (now,
    /// when there was none).
    public var nextRefreshTime: Int64 {
        let (blob, lastAttempt) = state.withLock { ($0.blob, $0.lastAttempt) }
        let now = configuration.clock()
        if let blob, blob.nextUpdateTime > now { return blob.nextUpdateTime }
        guard let lastAttempt else { return now }
        return max(lastAttempt + configuration.retryInterval, blob?.nextUpdateTime ?? 0)
    }

    /// Loads the cached BLOB (verified at the clock's time, accepted when stale: the last
    /// good BLOB is better than none until a fresh one arrives), then refreshes if due.
    ///
    /// - Returns: the events, in order.
    @discardableResult
    public func start() async -> [MetadataServiceEvent] {
        var events = [loadCache()]
        if let event = await refreshIfDue() { events.append(contentsOf: event) }
        return events
    }

    /// Refreshes when ``nextRefreshTime`` has come; nil when not due.
    ///
    /// - Returns: the refresh's events, or nil.
    public func refreshIfDue() async -> [MetadataServiceEvent]? {
        guard configuration.clock() >= nextRefreshTime else { return nil }
        return await refresh()
    }

    /// Fetches, verifies and (when newer) serves and caches a BLOB now, whatever is due.
    ///
    /// - Returns: the events, in order: one of ``MetadataServiceEvent/updated(number:previous:)``,
    ///   ``MetadataServiceEvent/unchanged(number:)``,
    ///   ``MetadataServiceEvent/rollbackRefused(fetched:held:)``,
    ///   ``MetadataServiceEvent/fetchFailed(_:serving:)``,
    ///   ``MetadataServiceEvent/verificationFailed(_:serving:)``, then
    ///   ``MetadataServiceEvent/cacheWriteFailed(_:)`` when the cache was not written (the next
    ///   refresh writes it, even when it fetches the same BLOB).
    @discardableResult
    public func refresh() async -> [MetadataServiceEvent] {
        await refreshing.run { await self.refreshNow() }
    }

    /// Calls ``refreshIfDue()`` every `pollInterval` until the task is cancelled.
    public func run(pollInterval: Duration = .seconds(600)) async {
        while !Task.isCancelled {
            _ = await refreshIfDue()
            try? await Task.sleep(for: pollInterval)
        }
    }

    // MARK: Steps

    private func loadCache() -> MetadataServiceEvent {
        let event: MetadataServiceEvent
        do {
            if let bytes = try cache.read(maximumBytes: configuration.verification.maximumSize) {
                var options = configuration.verification
                options.validationTime = configuration.clock()
                options.allowsStale = true
                let blob = try MetadataBLOB(compact: bytes, options: options)
                let held = state.withLock { state -> MetadataBLOB in
                    state.cachedNumber = blob.number
                    if let current = state.blob, current.number >= blob.number { return current }
                    state.blob = blob
                    return blob
                }
                event = .loadedFromCache(
                    number: held.number, nextUpdate: held.nextUpdate, isStale: held.isStale)
            } else {
                event = .cacheEmpty
            }
        } catch {
            event = .cacheRejected("\(error)")
        }
        configuration.onEvent(event)
        return event
    }

    private func refreshNow() async -> [MetadataServiceEvent] {
        var events: [MetadataServiceEvent] = []
        defer { for event in events { configuration.onEvent(event) } }
        let now = configuration.clock()
        let held = state.withLock { state -> Int64? in
            state.lastAttempt = now
            return state.blob?.number
        }
        let bytes: [UInt8]
        do {
            bytes = try await configuration.transport.fetch(
                configuration.url, maximumBytes: configuration.verification.maximumSize,
                timeout: configuration.timeout)
        } catch let error as MetadataServiceError {
            events.append(.fetchFailed(error, serving: held))
            return events
        } catch {
            events.append(
                .fetchFailed(MetadataServiceError(.network, "\(error)"), serving: held))
            return events
        }
        var options = configuration.verification
        options.validationTime = now
        let fetched: MetadataBLOB
        do {
            fetched = try MetadataBLOB(compact: bytes, options: options)
        } catch let error as WebAuthnError {
            events.append(.verificationFailed(error, serving: held))
            return events
        } catch {
            events.append(
                .verificationFailed(
                    WebAuthnError(.metadataInvalid, "\(error)"), serving: held))
            return events
        }
        let outcome = state.withLock { state -> MetadataServiceEvent in
            guard let current = state.blob else {
                state.blob = fetched
                return .updated(number: fetched.number, previous: nil)
            }
            if fetched.number == current.number { return .unchanged(number: current.number) }
            guard (try? fetched.checkRefresh(replacing: current)) != nil else {
                return .rollbackRefused(fetched: fetched.number, held: current.number)
            }
            state.blob = fetched
            return .updated(number: fetched.number, previous: current.number)
        }
        events.append(outcome)
        // A served BLOB the cache does not hold yet: a new one, or the same one again after its
        // write failed (else a restart would load the older file, or none).
        let writes: Bool
        switch outcome {
        case .updated: writes = true
        case .unchanged: writes = state.withLock { $0.cachedNumber != fetched.number }
        default: writes = false
        }
        if writes {
            do {
                try cache.write(bytes)
                state.withLock { $0.cachedNumber = fetched.number }
            } catch {
                state.withLock { $0.cachedNumber = nil }
                events.append(.cacheWriteFailed(error))
            }
        }
        return events
    }
}

/// Runs one refresh at a time: a caller arriving during a refresh waits for it to finish and
/// then runs its own (a later fetch may find a newer BLOB).
private actor RefreshGate {
    private var busy = false
    private var waiting: [CheckedContinuation<Void, Never>] = []

    func run<T: Sendable>(_ body: @Sendable () async -> T) async -> T {
        if busy {
            await withCheckedContinuation { waiting.append($0) }
        }
        busy = true
        defer {
            if waiting.isEmpty { busy = false } else { waiting.removeFirst().resume() }
        }
        return await body()
    }
}
