import Foundation

/// Decodes Belvo's JSON with `JSONDecoder` and turns its errors into ``BelvoError``s that name
/// the member at fault.
enum JSONReading {
    /// `T` decoded from `bytes`; a failure is a `code` error naming the coding path.
    static func decode<T: Decodable>(
        _ type: T.Type, from bytes: some Collection<UInt8>, code: BelvoError.Code, what: String
    ) throws(BelvoError) -> T {
        do {
            return try JSONDecoder().decode(T.self, from: Data(bytes))
        } catch let error as DecodingError {
            let (path, detail) = describe(error)
            throw BelvoError(code, "malformed \(what): \(detail)", field: path)
        } catch {
            throw BelvoError(code, "malformed \(what): \(error)")
        }
    }

    /// A coding path in the JSON spelling used in messages: `pubKeyCredParams[1].alg`.
    private static func path(_ codingPath: [any CodingKey]) -> String? {
        var text = ""
        for key in codingPath {
            if let index = key.intValue {
                text += "[\(index)]"
            } else {
                text += text.isEmpty ? key.stringValue : ".\(key.stringValue)"
            }
        }
        return text.isEmpty ? nil : text
    }

    private static func describe(_ error: DecodingError) -> (String?, String) {
        switch error {
        case .keyNotFound(let key, let context):
            let path = path(context.codingPath + [key])
            return (path, "the required member \(path ?? key.stringValue) is missing")
        case .typeMismatch(let type, let context):
            return (path(context.codingPath), "expected \(name(of: type)) at \(at(context))")
        case .valueNotFound(let type, let context):
            return (
                path(context.codingPath), "expected \(name(of: type)), found null at \(at(context))"
            )
        case .dataCorrupted(let context):
            if context.codingPath.isEmpty { return (nil, "the body is not valid JSON") }
            return (path(context.codingPath), "\(context.debugDescription) at \(at(context))")
        @unknown default:
            return (nil, "\(error)")
        }
    }

    private static func at(_ context: DecodingError.Context) -> String {
        path(context.codingPath) ?? "the top level"
    }

    private static func name(of type: Any.Type) -> String {
        switch type {
        case is String.Type: "a string"
        case is Int.Type, is Int64.Type, is Double.Type: "a number"
        case is Bool.Type: "a boolean"
        case is [String: Any].Type: "an object"
        case is [Any].Type: "an array"
        default: "\(type)"
        }
    }
}
