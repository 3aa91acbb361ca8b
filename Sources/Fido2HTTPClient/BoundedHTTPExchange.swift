import Fido2Support
import Foundation

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// One HTTP exchange over Foundation's `URLSession` (FoundationNetworking on Linux, which ships
/// with the toolchain) with a bounded answer: what the Belvo client and the metadata service
/// both send, each mapping the outcome to its own error type.
///
/// The exchange runs in its own ephemeral session (no cookies, no cache, no stored
/// credentials) with `seconds` for the whole exchange, redirects included (a deadline of its
/// own, as FoundationNetworking's time-outs restart with each byte); the body is collected as
/// it arrives and the request is cancelled as soon as it exceeds the limit (or announces a
/// larger length).
/// Redirects are followed as ``Redirects`` says: never, within the request's origin, or to https
/// URLs. Cancelling the calling task cancels the request.
package enum BoundedHTTPExchange {
    /// A complete answer.
    package struct Answer: Sendable {
        /// The HTTP status.
        package let status: Int
        /// The response headers.
        package let headers: [String: String]
        /// The body, at most the limit.
        package let body: [UInt8]
    }

    /// Which HTTP redirects an exchange follows; a redirect it does not follow is returned as
    /// its 3xx answer, with its `Location` header.
    package enum Redirects: Sendable {
        /// None.
        case none
        /// Within the request's origin only (scheme, host and port): for requests that carry
        /// credentials, since Foundation copies every header, `Authorization` among them, into
        /// the redirected request.
        case sameOrigin
        /// To any https URL, never down to http: for requests without credentials whose answer
        /// is verified on its own (a signed metadata BLOB).
        case secure
    }

    /// Why no complete answer arrived.
    package enum Failure: Error {
        /// The body (or its announced length) is over the limit; the status, when it arrived.
        case tooLarge(status: Int?)
        /// `URLSession` failed: a `URLError` (`.cancelled` when the task was cancelled,
        /// `.timedOut`, …) or another error.
        case failed(any Error)
        /// The exchange completed without an HTTP answer.
        case noAnswer
    }

    /// Where deadlines fire: a queue of its own, which Dispatch gives a thread when it has work,
    /// not the global queue, whose few threads a busy process (its task pool among them) can
    /// hold for as long as it stays busy.
    private static let deadlineQueue = DispatchQueue(label: "fido2kit.http-deadline")

    /// Sends `request` and collects at most `maximumBytes` of its answer.
    package static func perform(
        _ request: URLRequest, seconds: Double, maximumBytes: Int, redirects: Redirects
    ) async -> Result<Answer, Failure> {
        var request = request
        request.timeoutInterval = seconds
        let configuration = URLSessionConfiguration.ephemeral
        configuration.timeoutIntervalForRequest = seconds
        configuration.timeoutIntervalForResource = seconds
        configuration.urlCache = nil
        configuration.httpCookieStorage = nil
        configuration.urlCredentialStorage = nil
        let collector = AnswerCollector(limit: max(0, maximumBytes), redirects: redirects)
        let session = URLSession(
            configuration: configuration, delegate: collector, delegateQueue: nil)
        defer { session.finishTasksAndInvalidate() }
        let task = session.dataTask(with: request)
        // FoundationNetworking's own time-outs do not bound the whole exchange: its request
        // time-out restarts with every byte received (and every redirect hop) and is cut to
        // whole seconds, and its resource time-out is not applied. A trickling server would
        // hold the caller for as long as it likes; this deadline ends the exchange. It runs on
        // Dispatch, not in a task: a busy cooperative pool would delay a task's wake-up for as
        // long as it stays busy.
        // A timer source, not a work item: a cancelled source leaves the timer queue at once
        // (a cancelled work item stays queued until its time). Weak, so that nothing of this
        // exchange outlives it through the handler either.
        let deadline = DispatchSource.makeTimerSource(queue: deadlineQueue)
        deadline.setEventHandler { [weak collector, weak task] in
            collector?.expire()
            task?.cancel()
        }
        deadline.schedule(deadline: .now() + seconds)
        deadline.resume()
        defer { deadline.cancel() }
        return await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                collector.start(continuation)
                if Task.isCancelled { task.cancel() } else { task.resume() }
            }
        } onCancel: {
            task.cancel()
        }
    }

    /// Whether `redirects` lets a request for `original` follow a redirect to `target`.
    package static func follows(
        _ redirects: Redirects, from original: URL?, to target: URL?
    ) -> Bool {
        switch redirects {
        case .none: false
        case .sameOrigin: isSameOrigin(original, target)
        case .secure: target?.scheme?.lowercased() == "https"
        }
    }

    /// Whether `original` and `target` have one origin: scheme, host and port (the scheme's
    /// default port when none is given).
    package static func isSameOrigin(_ original: URL?, _ target: URL?) -> Bool {
        guard let original, let target,
            let scheme = original.scheme?.lowercased(), scheme == target.scheme?.lowercased(),
            let host = original.host?.lowercased(), host == target.host?.lowercased()
        else { return false }
        let defaultPort = scheme == "https" ? 443 : scheme == "http" ? 80 : nil
        return (original.port ?? defaultPort) == (target.port ?? defaultPort)
    }

    /// `duration` in seconds, at least a millisecond (`URLSession` takes 0 as "no limit").
    package static func seconds(_ duration: Duration) -> Double {
        let (seconds, attoseconds) = duration.components
        return max(0.001, Double(seconds) + Double(attoseconds) / 1e18)
    }
}

/// Collects one data task's answer and resumes the caller when it completes.
///
/// `URLSession` calls its delegate on its own queue; the state is behind a lock, so the class
/// is safe to share (`NSObject` subclasses cannot have their sendability checked).
private final class AnswerCollector: NSObject, URLSessionDataDelegate, @unchecked Sendable {
    typealias Outcome = Result<BoundedHTTPExchange.Answer, BoundedHTTPExchange.Failure>

    private struct State {
        var continuation: CheckedContinuation<Outcome, Never>?
        var response: HTTPURLResponse?
        var body: [UInt8] = []
        var tooLarge = false
        var expired = false
    }

    private let limit: Int
    private let redirects: BoundedHTTPExchange.Redirects
    private let state = LockedState(State())

    init(limit: Int, redirects: BoundedHTTPExchange.Redirects) {
        self.limit = limit
        self.redirects = redirects
    }

    func start(_ continuation: CheckedContinuation<Outcome, Never>) {
        state.withLock { $0.continuation = continuation }
    }

    /// Marks the exchange as past its deadline: the cancellation that follows reads as
    /// `URLError(.timedOut)`.
    func expire() {
        state.withLock { $0.expired = true }
    }

    func urlSession(
        _ session: URLSession, dataTask: URLSessionDataTask, didReceive response: URLResponse,
        completionHandler: @escaping (URLSession.ResponseDisposition) -> Void
    ) {
        let tooLarge = state.withLock { state -> Bool in
            state.response = response as? HTTPURLResponse
            if response.expectedContentLength > Int64(limit) { state.tooLarge = true }
            return state.tooLarge
        }
        completionHandler(tooLarge ? .cancel : .allow)
    }

    func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive data: Data) {
        let tooLarge = state.withLock { state -> Bool in
            if state.body.count + data.count > limit {
                state.tooLarge = true
            } else {
                state.body.append(contentsOf: data)
            }
            return state.tooLarge
        }
        if tooLarge { dataTask.cancel() }
    }

    func urlSession(
        _ session: URLSession, task: URLSessionTask,
        willPerformHTTPRedirection response: HTTPURLResponse, newRequest: URLRequest,
        completionHandler: @escaping (URLRequest?) -> Void
    ) {
        let follows = BoundedHTTPExchange.follows(
            redirects, from: task.originalRequest?.url, to: newRequest.url)
        completionHandler(follows ? newRequest : nil)
    }

    func urlSession(
        _ session: URLSession, task: URLSessionTask, didCompleteWithError error: (any Error)?
    ) {
        let (continuation, outcome) = state.withLock { state in
            let continuation = state.continuation
            state.continuation = nil
            return (continuation, Self.outcome(state, error))
        }
        continuation?.resume(returning: outcome)
    }

    private static func outcome(_ state: State, _ error: (any Error)?) -> Outcome {
        if state.tooLarge { return .failure(.tooLarge(status: state.response?.statusCode)) }
        if state.expired, error != nil { return .failure(.failed(URLError(.timedOut))) }
        if let error { return .failure(.failed(error)) }
        guard let response = state.response else { return .failure(.noAnswer) }
        var headers = [String: String]()
        for (name, value) in response.allHeaderFields {
            if let name = name as? String, let value = value as? String { headers[name] = value }
        }
        return .success(
            BoundedHTTPExchange.Answer(
                status: response.statusCode, headers: headers, body: state.body))
    }
}
