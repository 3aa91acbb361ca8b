import Foundation

/// A request to Belvo paired with the decoder for its answer: send ``request`` with any HTTP
/// client, then hand the status code and body to ``decode(status:body:)``.
///
/// ```swift
/// let endpoint = try BelvoAPI.getEnrollment(id: id, authorization: auth)
/// let (status, body) = try await myClient.send(endpoint.request)  // map failures with BelvoError.network
/// let enrollment = try endpoint.decode(status: status, body: body)
/// ```
public struct BelvoEndpoint<Response: Sendable>: Sendable {
    /// The request to send.
    public let request: BelvoRequest
    private let decodeBody: @Sendable ([UInt8]) throws -> Response

    init(
        _ request: BelvoRequest,
        decodeBody: @escaping @Sendable ([UInt8]) throws -> Response
    ) {
        self.request = request
        self.decodeBody = decodeBody
    }

    /// The answer to ``request``, or the error its status code means.
    ///
    /// Status codes map onto the SDK's error cases: any 2xx is decoded; 401 and 403 are
    /// ``BelvoError/Kind/authentication``; 400 and 422 are
    /// ``BelvoError/Kind/invalidParameters`` (with Belvo's own message when the body has one);
    /// 404 (``BelvoError/Code/notFound``), 5xx (``BelvoError/Code/serverError``) and anything
    /// else (``BelvoError/Code/unexpectedStatus``) are ``BelvoError/Kind/unknown``. Transport
    /// failures never reach here: wrap them with ``BelvoError/network(_:)``.
    ///
    /// - Throws: the status code's error as above, or ``BelvoError/Code/malformedResponse``
    ///   (``BelvoError/Code/malformedFidoOptions`` for FIDO options) when a 2xx body is not the
    ///   documented JSON.
    public func decode(status: Int, body: some Collection<UInt8>) throws -> Response {
        let bytes = Array(body)
        switch status {
        case 200..<300:
            do {
                return try decodeBody(bytes)
            } catch let error as BelvoError where error.httpStatus == nil {
                throw BelvoError(
                    error.code, error.reason, field: error.field, httpStatus: status,
                    responseBody: bytes)
            }
        case 401, 403:
            throw BelvoError(
                .authentication, "Belvo refused the credentials\(Self.detail(bytes))",
                httpStatus: status, responseBody: bytes)
        case 400, 422:
            throw BelvoError(
                .invalidParameters, "Belvo rejected the request\(Self.detail(bytes))",
                httpStatus: status, responseBody: bytes)
        case 404:
            throw BelvoError(
                .notFound, "\(request.method) \(request.path) found nothing\(Self.detail(bytes))",
                httpStatus: status, responseBody: bytes)
        case 500..<600:
            throw BelvoError(
                .serverError, "Belvo failed\(Self.detail(bytes))", httpStatus: status,
                responseBody: bytes)
        default:
            throw BelvoError(
                .unexpectedStatus, "unexpected HTTP status \(status)\(Self.detail(bytes))",
                httpStatus: status, responseBody: bytes)
        }
    }

    /// Belvo's explanation from an error body (`[{"code", "message", "field", …}]`,
    /// `{"detail": …}`, or field → messages), as ": …", or "" when there is none.
    private static func detail(_ body: [UInt8]) -> String {
        guard !body.isEmpty, let json = try? JSONSerialization.jsonObject(with: Data(body)) else {
            return ""
        }
        var parts = [String]()
        func collect(_ item: Any) {
            if let object = item as? [String: Any] {
                if let message = (object["message"] ?? object["detail"]) as? String {
                    var part = message
                    if let code = object["code"] as? String { part = "\(code): \(part)" }
                    if let field = object["field"] as? String { part += " (field \(field))" }
                    parts.append(part)
                } else {
                    for key in object.keys.sorted() {
                        let value = object[key].map { "\($0)" } ?? ""
                        parts.append("\(key): \(value)")
                    }
                }
            } else if let array = item as? [Any] {
                array.forEach(collect)
            } else if let text = item as? String {
                parts.append(text)
            }
        }
        collect(json)
        let text = parts.joined(separator: "; ")
        guard !text.isEmpty else { return "" }
        return ": " + (text.count > 300 ? String(text.prefix(300)) + "…" : text)
    }
}
