import Fido2HTTPClient
import Foundation

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The default ``MetadataTransport``: Foundation's `URLSession` (FoundationNetworking on Linux,
/// which ships with the toolchain, so the product needs no HTTP package).
///
/// Each fetch runs in its own ephemeral session (no cookies, no cache, no stored credentials)
/// with the time-out for the whole exchange; redirects to https URLs are followed (the FIDO
/// Alliance's URL redirects), never down to http; the body is collected as it arrives and the
/// request is cancelled as soon as it exceeds the limit. Cancelling the calling task cancels
/// the request.
public struct URLSessionMetadataTransport: MetadataTransport {
    /// A transport.
    public init() {}

    /// Fetches `url` with `URLSession`.
    ///
    /// - Throws: ``MetadataServiceError`` as ``MetadataTransport/fetch(_:maximumBytes:timeout:)``
    ///   says.
    public func fetch(_ url: URL, maximumBytes: Int, timeout: Duration) async throws -> [UInt8] {
        var request = URLRequest(url: url)
        request.httpMethod = "GET"
        let limit = max(0, maximumBytes)
        let target = url.absoluteString
        switch await BoundedHTTPExchange.perform(
            request, seconds: BoundedHTTPExchange.seconds(timeout), maximumBytes: limit,
            redirects: .secure)
        {
        case .success(let answer) where answer.status == 200:
            return answer.body
        case .success(let answer):
            throw MetadataServiceError(
                .httpStatus, "\(target): HTTP status \(answer.status)", httpStatus: answer.status)
        case .failure(.tooLarge):
            throw MetadataServiceError(
                .responseTooLarge, "\(target): the answer is larger than \(limit) bytes")
        case .failure(.noAnswer):
            throw MetadataServiceError(.network, "\(target): no HTTP answer")
        case .failure(.failed(let error)):
            switch (error as? URLError)?.code {
            case .cancelled?: throw MetadataServiceError(.cancelled, "\(target): cancelled")
            case .timedOut?:
                throw MetadataServiceError(.network, "\(target): timed out after \(timeout)")
            default: break
            }
            throw MetadataServiceError(.network, "\(target): \(error.localizedDescription)")
        }
    }
}
