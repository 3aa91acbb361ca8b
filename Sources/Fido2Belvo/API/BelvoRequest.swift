import Foundation

/// One HTTP request to Belvo, without a transport: send it with whatever client you use.
public struct BelvoRequest: Sendable, Hashable {
    /// The HTTP method.
    public struct Method: RawRepresentable, Sendable, Hashable, CustomStringConvertible {
        /// The method's name.
        public let rawValue: String
        /// A method from its name.
        public init(rawValue: String) { self.rawValue = rawValue }
        /// `GET`.
        public static let get = Method(rawValue: "GET")
        /// `POST`.
        public static let post = Method(rawValue: "POST")
        /// The method's name.
        public var description: String { rawValue }
    }

    /// The HTTP method.
    public let method: Method
    /// The absolute path from the API host, percent-encoded, e.g.
    /// `/payments/br/enrollments/3f2c…/confirm/`.
    public let path: String
    /// The query parameters, in order, not yet encoded.
    public let query: [(name: String, value: String)]
    /// The headers: `Authorization`, `Accept`, and `Content-Type` when there is a body.
    public let headers: [String: String]
    /// The JSON body, or nil for none.
    public let body: [UInt8]?

    /// The request target: ``path`` plus the query, every character outside RFC 3986's
    /// unreserved set percent-encoded (so `+` and `=` in an encrypted device id stay themselves).
    public var target: String {
        guard !query.isEmpty else { return path }
        let pairs = query.map { Self.percentEncoded($0.name) + "=" + Self.percentEncoded($0.value) }
        return path + "?" + pairs.joined(separator: "&")
    }

    /// The full URL on `baseURL` (``BelvoAPI/productionBaseURL``, or a test server), or nil
    /// when `baseURL` has no scheme.
    public func url(baseURL: URL) -> URL? {
        guard baseURL.scheme != nil else { return nil }
        var base = baseURL.absoluteString
        while base.hasSuffix("/") { base.removeLast() }
        return URL(string: base + target)
    }

    init(
        method: Method, path: String, query: [(name: String, value: String)] = [],
        authorization: BelvoAuthorization, body: [UInt8]? = nil, jsonContentType: Bool? = nil
    ) {
        self.method = method
        self.path = path
        self.query = query
        var headers = ["Authorization": authorization.headerValue, "Accept": "application/json"]
        if jsonContentType ?? (body != nil) { headers["Content-Type"] = "application/json" }
        self.headers = headers
        self.body = body
    }

    /// Tuples are not `Hashable`, so compare and hash the query pair by pair.
    public static func == (lhs: BelvoRequest, rhs: BelvoRequest) -> Bool {
        lhs.method == rhs.method && lhs.path == rhs.path && lhs.headers == rhs.headers
            && lhs.body == rhs.body && lhs.query.count == rhs.query.count
            && zip(lhs.query, rhs.query).allSatisfy { $0.name == $1.name && $0.value == $1.value }
    }

    /// Hashes every member, the query pair by pair.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(method)
        hasher.combine(path)
        for pair in query {
            hasher.combine(pair.name)
            hasher.combine(pair.value)
        }
        hasher.combine(headers)
        hasher.combine(body)
    }

    /// `text` with every byte outside RFC 3986's unreserved set percent-encoded.
    static func percentEncoded(_ text: String) -> String {
        let hex = Array("0123456789ABCDEF".utf8)
        var out = [UInt8]()
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"),
                UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "."),
                UInt8(ascii: "_"), UInt8(ascii: "~"):
                out.append(byte)
            default:
                out.append(UInt8(ascii: "%"))
                out.append(hex[Int(byte >> 4)])
                out.append(hex[Int(byte & 0x0f)])
            }
        }
        return String(decoding: out, as: UTF8.self)
    }
}
