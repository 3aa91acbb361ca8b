import Fido2HTTPClient
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
        var urlRequest = URLRequest(url: request.url)
        urlRequest.httpMethod = request.method
        for (name, value) in request.headers {
            urlRequest.setValue(value, forHTTPHeaderField: name)
        }
        if let body = request.body { urlRequest.httpBody = Data(body) }
        let limit = max(0, request.maximumResponseBytes)
        let target = "\(request.method) \(request.url.absoluteString)"
        switch await BoundedHTTPExchange.perform(
            urlRequest, seconds: BoundedHTTPExchange.seconds(request.timeout),
            maximumBytes: limit, redirects: request.followsRedirects ? .sameOrigin : .none)
        {
        case .success(let answer):
            return BelvoHTTPResponse(
                status: answer.status, headers: answer.headers, body: answer.body)
        case .failure(.tooLarge(let status)):
            throw BelvoError(
                .responseTooLarge, "\(target): the answer is larger than \(limit) bytes",
                httpStatus: status)
        case .failure(.noAnswer):
            throw BelvoError(.network, "\(target): no HTTP answer")
        case .failure(.failed(let error)):
            throw Self.networkError(target, error, timeout: request.timeout)
        }
    }

    /// The ``BelvoError`` for a failed exchange: "timed out" or "could not connect" in the
    /// reason when that is what happened, `cancelled` for a cancelled task.
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
