import Foundation

/// What carries a ``BelvoClient``'s requests: one HTTP exchange per call.
///
/// ``URLSessionBelvoTransport`` is the default; tests pass their own (a fake answering from
/// memory, or one that records what was sent).
public protocol BelvoTransport: Sendable {
    /// Sends `request` and returns the answer, whatever its status.
    ///
    /// - Throws: ``BelvoError/Code/network`` when no HTTP answer arrived (connection refused,
    ///   time-out, TLS failure), ``BelvoError/Code/responseTooLarge`` when the body exceeds
    ///   ``BelvoHTTPRequest/maximumResponseBytes``; any other error is wrapped by the client
    ///   as a network error.
    func send(_ request: BelvoHTTPRequest) async throws -> BelvoHTTPResponse
}

/// One HTTP request as a transport sends it: a full URL and everything needed to send it.
public struct BelvoHTTPRequest: Sendable, Hashable {
    /// The absolute URL.
    public var url: URL
    /// The method's name (`GET`, `POST`).
    public var method: String
    /// The headers to send.
    public var headers: [String: String]
    /// The body, or nil for none.
    public var body: [UInt8]?
    /// How long the exchange may take, connection included.
    public var timeout: Duration
    /// The largest body the transport accepts; a longer one fails the request.
    public var maximumResponseBytes: Int
    /// Whether HTTP redirects are followed (true for API calls), and then within the request's
    /// origin only (scheme, host and port), so that the `Authorization` header never leaves
    /// it; a redirect not followed (all of them when false) is returned as its 3xx answer, with
    /// its `Location` header.
    public var followsRedirects: Bool

    /// A request; see each property.
    public init(
        url: URL, method: String, headers: [String: String] = [:], body: [UInt8]? = nil,
        timeout: Duration = .seconds(30), maximumResponseBytes: Int = 1 << 20,
        followsRedirects: Bool = true
    ) {
        self.url = url
        self.method = method
        self.headers = headers
        self.body = body
        self.timeout = timeout
        self.maximumResponseBytes = maximumResponseBytes
        self.followsRedirects = followsRedirects
    }
}

/// One HTTP answer.
public struct BelvoHTTPResponse: Sendable, Hashable {
    /// The status code.
    public var status: Int
    /// The headers, names as received.
    public var headers: [String: String]
    /// The body (empty for none).
    public var body: [UInt8]

    /// An answer; see each property.
    public init(status: Int, headers: [String: String] = [:], body: [UInt8] = []) {
        self.status = status
        self.headers = headers
        self.body = body
    }

    /// The value of the header `name`, compared without regard to case, or nil.
    public func header(_ name: String) -> String? {
        let wanted = name.lowercased()
        return headers.first { $0.key.lowercased() == wanted }?.value
    }
}
