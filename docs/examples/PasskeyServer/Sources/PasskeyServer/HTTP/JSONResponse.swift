import Foundation
import Hummingbird

/// JSON answers: the library's JSON text as it wrote it, or an `Encodable` value.
enum JSONResponse {
    /// An answer whose body is `text`, already JSON.
    static func text(_ text: String, status: HTTPResponse.Status = .ok) -> Response {
        Response(
            status: status,
            headers: [.contentType: "application/json", .cacheControl: "no-store"],
            body: ResponseBody(byteBuffer: ByteBuffer(string: text)))
    }

    /// An answer whose body is `value` as JSON.
    ///
    /// - Throws: `EncodingError` when `value` cannot be encoded.
    static func encoding(
        _ value: some Encodable, status: HTTPResponse.Status = .ok
    ) throws
        -> Response
    {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return text(String(decoding: try encoder.encode(value), as: UTF8.self), status: status)
    }
}
