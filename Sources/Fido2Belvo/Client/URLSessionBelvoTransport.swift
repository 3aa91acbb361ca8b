import Fido2Crypto
import Fido2Support
import Foundation

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The default ``BelvoTransport``: Foundation's `URLSession` (FoundationNetworking on Linux,
/// which ships with the toolchain, so the library needs no HTTP package).
///
/// Each request runs in its own ephemeral session (no cookies, no cache, no stored
/// credentials) with the request's time-out for the whole exchange; the body is collected as it
/// arrives and the request is cancelled as soon as it exceeds
/// ``BelvoHTTPRequest/maximumResponseBytes``. Cancelling the calling task cancels the request.
public struct URLSessionBelvoTransport: BelvoTransport {
    /// A transport.
    public init() {}

    /// Sends `request` with `URLSession`.
    ///
    /// - Throws: ``BelvoError/Code/network`` when no HTTP answer arrived (with "timed out" or
    ///   "could not connect" in the reason when that is what happened),
    ///   ``BelvoError/Code/responseTooLarge`` for a body over the limit,
    ///   ``BelvoError/Code/cancelled`` when the task was cancelled.
    public func send(_ request: BelvoHTTPRequest) async throws -> BelvoHTTPResponse {
        let seconds = max(0.001, Self.seconds(request.timeout))
        var urlRequest = URLRequest(url: request.url, timeoutInterval: seconds)
        urlRequest.httpMethod = request.method
        for (name, value) in request.headers {
            urlRequest.setValue(value, forHTTPHeaderField: name)
        }
        if let body = request.body { urlRequest.httpBody = Data(body) }

        let configuration = URLSessionConfiguration.ephemeral
        configuration.timeoutIntervalForRequest = seconds
        configuration.timeoutIntervalForResource = seconds
        configuration.urlCache = nil
        configuration.httpCookieStorage = nil
        configuration.urlCredentialStorage = nil
        let collector = ResponseCollector(
            request: request, limit: max(0, request.maximumResponseBytes))
        let session = URLSession(
            configuration: configuration, delegate: collector, delegateQueue: nil)
        defer { session.finishTasksAndInvalidate() }
        let task = session.dataTask(with: urlRequest)
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { continuation in
                collector.start(continuation)
                if Task.isCancelled {
                    task.cancel()
                } else {
                    task.resume()
                }
            }
        } onCancel: {
            task.cancel()
        }
    }

    /// `duration` in seconds.
    static func seconds(_ duration: Duration) -> Double {
        let (seconds, attoseconds) = duration.components
        return Double(seconds) + Double(attoseconds) / 1e18
    }
}

/// Collects one data task's answer and resumes the caller when it completes.
///
/// `URLSession` calls its delegate on its own queue; the state is behind a mutex, so the class
/// is safe to share (`NSObject` subclasses cannot have their sendability checked).
private final class ResponseCollector: NSObject, URLSessionDataDelegate, @unchecked Sendable {
    private struct State {
        var continuation: CheckedContinuation<BelvoHTTPResponse, any Error>?
        var response: HTTPURLResponse?
        var body: [UInt8] = []
        var tooLarge = false
    }

    private let request: BelvoHTTPRequest
    private let limit: Int
    private let state = LockedState(State())

    init(request: BelvoHTTPRequest, limit: Int) {
        self.request = request
        self.limit = limit
    }

    func start(_ continuation: CheckedContinuation<BelvoHTTPResponse, any Error>) {
        state.withLock { $0.continuation = continuation }
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
        completionHandler(request.followsRedirects ? newRequest : nil)
    }

    func urlSession(
        _ session: URLSession, task: URLSessionTask, didCompleteWithError error: (any Error)?
    ) {
        let (continuation, result) = state.withLock {
            state -> (
                CheckedContinuation<BelvoHTTPResponse, any Error>?,
                Result<BelvoHTTPResponse, BelvoError>
            ) in
            let continuation = state.continuation
            state.continuation = nil
            return (continuation, outcome(state, error))
        }
        continuation?.resume(with: result.mapError { $0 as any Error })
    }

    private func outcome(
        _ state: State, _ error: (any Error)?
    ) -> Result<BelvoHTTPResponse, BelvoError> {
        let target = "\(request.method) \(request.url.absoluteString)"
        if state.tooLarge {
            return .failure(
                BelvoError(
                    .responseTooLarge,
                    "\(target): the answer is larger than \(limit) bytes",
                    httpStatus: state.response?.statusCode))
        }
        if let error {
            return .failure(Self.networkError(target, error, timeout: request.timeout))
        }
        guard let response = state.response else {
            return .failure(BelvoError(.network, "\(target): no HTTP answer"))
        }
        var headers = [String: String]()
        for (name, value) in response.allHeaderFields {
            if let name = name as? String, let value = value as? String { headers[name] = value }
        }
        return .success(
            BelvoHTTPResponse(status: response.statusCode, headers: headers, body: state.body))
    }

    private static func networkError(
        _ target: String, _ error: any Error, timeout: Duration
    ) -> BelvoError {
        guard let urlError = error as? URLError else {
            return BelvoError(.network, "\(target): \(error.localizedDescription)")
        }
        switch urlError.code {
        case .timedOut:
            return BelvoError(.network, "\(target): timed out after \(timeout)")
        case .cannotConnectToHost, .cannotFindHost, .networkConnectionLost,
            .notConnectedToInternet, .dnsLookupFailed:
            return BelvoError(
                .network,
                "\(target): could not connect (\(urlError.localizedDescription))")
        case .cancelled:
            return BelvoError(.cancelled, "\(target): cancelled")
        default:
            return BelvoError(.network, "\(target): \(urlError.localizedDescription)")
        }
    }
}
