import Fido2Support
import Foundation

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The default ``MetadataTransport``: Foundation's `URLSession` (FoundationNetworking on Linux,
/// which ships with the toolchain, so the product needs no HTTP package).
///
/// Each fetch runs in its own ephemeral session (no cookies, no cache, no stored credentials)
/// with the time-out for the whole exchange; redirects are followed (the FIDO Alliance's URL
/// redirects); the body is collected as it arrives and the request is cancelled as soon as it
/// exceeds the limit. Cancelling the calling task cancels the request.
public struct URLSessionMetadataTransport: MetadataTransport {
    /// A transport.
    public init() {}

    /// Fetches `url` with `URLSession`.
    ///
    /// - Throws: ``MetadataServiceError`` as ``MetadataTransport/fetch(_:maximumBytes:timeout:)``
    ///   says.
    public func fetch(_ url: URL, maximumBytes: Int, timeout: Duration) async throws -> [UInt8] {
        let (whole, attoseconds) = timeout.components
        let seconds = max(0.001, Double(whole) + Double(attoseconds) / 1e18)
        var request = URLRequest(url: url, timeoutInterval: seconds)
        request.httpMethod = "GET"
        let configuration = URLSessionConfiguration.ephemeral
        configuration.timeoutIntervalForRequest = seconds
        configuration.timeoutIntervalForResource = seconds
        configuration.urlCache = nil
        configuration.httpCookieStorage = nil
        configuration.urlCredentialStorage = nil
        let collector = BodyCollector(url: url, limit: max(0, maximumBytes))
        let session = URLSession(
            configuration: configuration, delegate: collector, delegateQueue: nil)
        defer { session.finishTasksAndInvalidate() }
        let task = session.dataTask(with: request)
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { continuation in
                collector.start(continuation)
                if Task.isCancelled { task.cancel() } else { task.resume() }
            }
        } onCancel: {
            task.cancel()
        }
    }
}

/// Collects one data task's body and resumes the caller when it completes; the state is
/// behind a lock, so the class is safe to share (`NSObject` subclasses cannot have their
/// sendability checked).
private final class BodyCollector: NSObject, URLSessionDataDelegate, @unchecked Sendable {
    private struct State {
        var continuation: CheckedContinuation<[UInt8], any Error>?
        var status: Int?
        var body: [UInt8] = []
        var tooLarge = false
    }

    private let url: URL
    private let limit: Int
    private let state = LockedState(State())

    init(url: URL, limit: Int) {
        self.url = url
        self.limit = limit
    }

    func start(_ continuation: CheckedContinuation<[UInt8], any Error>) {
        state.withLock { $0.continuation = continuation }
    }

    func urlSession(
        _ session: URLSession, dataTask: URLSessionDataTask, didReceive response: URLResponse,
        completionHandler: @escaping (URLSession.ResponseDisposition) -> Void
    ) {
        let tooLarge = state.withLock { state -> Bool in
            state.status = (response as? HTTPURLResponse)?.statusCode
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
        _ session: URLSession, task: URLSessionTask, didCompleteWithError error: (any Error)?
    ) {
        let (continuation, result) = state.withLock {
            state -> (
                CheckedContinuation<[UInt8], any Error>?, Result<[UInt8], MetadataServiceError>
            )
            in
            let continuation = state.continuation
            state.continuation = nil
            return (continuation, outcome(state, error))
        }
        continuation?.resume(with: result.mapError { $0 as any Error })
    }

    private func outcome(
        _ state: State, _ error: (any Error)?
    ) -> Result<[UInt8], MetadataServiceError> {
        let target = url.absoluteString
        if state.tooLarge {
            return .failure(
                MetadataServiceError(
                    .responseTooLarge, "\(target): the answer is larger than \(limit) bytes"))
        }
        if let error {
            if let urlError = error as? URLError, urlError.code == .cancelled {
                return .failure(MetadataServiceError(.cancelled, "\(target): cancelled"))
            }
            return .failure(
                MetadataServiceError(.network, "\(target): \(error.localizedDescription)"))
        }
        guard let status = state.status else {
            return .failure(MetadataServiceError(.network, "\(target): no HTTP answer"))
        }
        guard status == 200 else {
            return .failure(
                MetadataServiceError(
                    .httpStatus, "\(target): HTTP status \(status)", httpStatus: status))
        }
        return .success(state.body)
    }
}
