import Foundation
import Hummingbird

extension ServerError: HTTPResponseError {
    /// 400 for a refusal, 500 for a failure of the server.
    var status: HTTPResponse.Status {
        switch kind {
        case .refused: .badRequest
        case .failed: .internalServerError
        }
    }

    /// `{"error": message, "code": code, "step": "§7.2 step 11"}`, with an empty step when the
    /// failure is at no step of the procedures.
    func response(from request: Request, context: some RequestContext) throws -> Response {
        try JSONResponse.encoding(
            Body(error: message, code: code, step: step?.description ?? ""), status: status)
    }

    /// The JSON body of an error answer.
    private struct Body: Encodable {
        let error: String
        let code: String
        let step: String
    }
}
