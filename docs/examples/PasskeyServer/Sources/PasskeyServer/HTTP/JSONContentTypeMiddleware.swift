import Hummingbird

/// Refuses a POST whose `Content-Type` is not `application/json` with 415, before any route
/// reads it. A browser sends a cross-site `text/plain` or form POST without asking the server
/// first; an `application/json` one only after a CORS preflight this server never grants.
struct JSONContentTypeMiddleware: RouterMiddleware {
    typealias Context = PasskeyRequestContext

    func handle(
        _ request: Request, context: Context,
        next: (Request, Context) async throws -> Response
    ) async throws -> Response {
        if request.method == .post, !Self.isJSON(request.headers[.contentType]) {
            throw ServerError.unsupportedMediaType
        }
        return try await next(request, context)
    }

    /// Whether `contentType` is `application/json`, with parameters (`; charset=utf-8`) or not.
    static func isJSON(_ contentType: String?) -> Bool {
        guard let contentType else { return false }
        let mediaType = contentType.split(separator: ";", maxSplits: 1).first ?? ""
        return mediaType.trimmingWhitespaceASCII().lowercased() == "application/json"
    }
}

extension Substring {
    /// The text without ASCII spaces and tabs at either end.
    fileprivate func trimmingWhitespaceASCII() -> Substring {
        let blank: (Character) -> Bool = { $0 == " " || $0 == "\t" }
        guard let first = firstIndex(where: { !blank($0) }),
            let last = lastIndex(where: { !blank($0) })
        else { return "" }
        return self[first...last]
    }
}
