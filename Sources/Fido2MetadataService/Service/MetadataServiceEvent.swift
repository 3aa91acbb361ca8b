import Fido2WebAuthn

/// What a ``MetadataService`` did, for the caller to log: each load, refresh and refusal is
/// one event, passed to ``MetadataService/Configuration/onEvent`` and returned by
/// ``MetadataService/refresh()``.
public enum MetadataServiceEvent: Sendable, CustomStringConvertible {
    /// The cached BLOB verified and is served (`isStale`: its `nextUpdate` has passed).
    case loadedFromCache(number: Int64, nextUpdate: String, isStale: Bool)
    /// There is no cached BLOB yet.
    case cacheEmpty
    /// The cached BLOB did not read or verify and is not served.
    case cacheRejected(String)
    /// A fetched BLOB verified, was newer than the one held (`previous`, nil for none) and is
    /// now served.
    case updated(number: Int64, previous: Int64?)
    /// The fetched BLOB has the number of the one held: the held one is kept (not a rollback).
    case unchanged(number: Int64)
    /// The fetched BLOB is older than the one held (a rollback): refused, the held one kept.
    case rollbackRefused(fetched: Int64, held: Int64)
    /// The fetch failed; `serving` is the number of the BLOB still served, nil for none.
    case fetchFailed(MetadataServiceError, serving: Int64?)
    /// The fetched BLOB failed verification (signature, chain, payload, staleness); `serving`
    /// is the number of the BLOB still served.
    case verificationFailed(WebAuthnError, serving: Int64?)
    /// The new BLOB is served but could not be written to the cache directory.
    case cacheWriteFailed(MetadataServiceError)

    /// Whether the event is a failure or a refusal (worth a warning in a log).
    public var isFailure: Bool {
        switch self {
        case .loadedFromCache, .cacheEmpty, .updated, .unchanged: false
        case .cacheRejected, .rollbackRefused, .fetchFailed, .verificationFailed,
            .cacheWriteFailed:
            true
        }
    }

    /// One log line.
    public var description: String {
        switch self {
        case .loadedFromCache(let number, let nextUpdate, let isStale):
            "loaded BLOB no \(number) from the cache (next update \(nextUpdate)\(isStale ? ", stale" : ""))"
        case .cacheEmpty: "no cached BLOB"
        case .cacheRejected(let reason): "the cached BLOB is not used: \(reason)"
        case .updated(let number, let previous):
            "now serving BLOB no \(number)" + (previous.map { " (was no \($0))" } ?? "")
        case .unchanged(let number): "the fetched BLOB is no \(number), the one held: kept"
        case .rollbackRefused(let fetched, let held):
            "refused the fetched BLOB no \(fetched): older than the one held (no \(held))"
        case .fetchFailed(let error, let serving):
            "fetch failed (\(error)); " + Self.serving(serving)
        case .verificationFailed(let error, let serving):
            "the fetched BLOB failed verification (\(error)); " + Self.serving(serving)
        case .cacheWriteFailed(let error): "the new BLOB is not cached: \(error)"
        }
    }

    private static func serving(_ number: Int64?) -> String {
        number.map { "still serving no \($0)" } ?? "no BLOB to serve"
    }
}
