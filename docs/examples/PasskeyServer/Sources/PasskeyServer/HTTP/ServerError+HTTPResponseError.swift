import Foundation
import Hummingbird

extension ServerError: HTTPResponseError {
    /// 400 for a refusal (401, 404, 413, 415 or 429 for those), 500 for a failure of the server.
    var status: HTTPResponse.Status {
        switch kind {
        case .refused: .badRequest
        case .unauthorized: .unauthorized
        case .notFound: .notFound
        case .contentTooLarge: .contentTooLarge
        case .unsupportedMediaType: .unsupportedMediaType
        case .tooManyRequests: .tooManyRequests
        case .failed: .internalServerError
        }
    }

    /// `{"error": message, "code": code, "step": "§7.2 step 11"}`, with an empty step when the
    /// failure is at no step of the procedures, and `"unknownCredential": {"rpId", …}` for a
    /// sign-in with a credential ID the server does not know.
    ///
    /// A failure of the server (500) is logged whole and answered with its code only: its
    /// message may carry a database's SQL or a file's path, which are the operator's to read,
    /// not the client's.
    func response(from request: Request, context: some RequestContext) throws -> Response {
        var message = message
        if kind == .failed {
            context.logger.error(
                "\(request.method) \(request.uri.path) failed: \(description)")
            message = "the server failed (its log says why)"
        }
        var response = try JSONResponse.encoding(
            Body(
                error: message, code: code, step: step?.description ?? "",
                unknownCredential: unknownCredential), status: status)
        if kind == .tooManyRequests {
            response.headers[.retryAfter] = "60"
        }
        return response
    }

    /// The JSON body of an error answer.
    private struct Body: Encodable {
        let error: String
        let code: String
        let step: String
        let unknownCredential: SignalPayloads.UnknownCredential?
    }
}
