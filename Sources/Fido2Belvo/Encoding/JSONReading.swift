import Fido2Encoding
import Foundation

/// Decodes Belvo's JSON with `JSONDecoder` and turns its errors into ``BelvoError``s that name
/// the member at fault.
///
/// `JSONDecoder` keeps the first of two members with one name, where `JSON.parse` and most
/// servers keep the last: a body that repeats `challenge` would have the device sign a
/// challenge other readers of the body do not see. So the bytes first pass `Fido2Encoding`'s
/// strict reader (RFC 8259 exactly, repeated names refused) with no limits but the input's own.
enum JSONReading {
    /// The strict pass: every limit at its widest, so only grammar and repeated names decide.
    private static let strict = JSONReader(
        options: JSONReader.Options(
            maximumInputLength: .max, maximumDepth: 512, maximumItemCount: .max,
            maximumStringLength: .max))

    /// `T` decoded from `bytes`; a failure is a `code` error naming the coding path, or the
    /// path of a repeated member name.
    static func decode<T: Decodable>(
        _ type: T.Type, from bytes: some Collection<UInt8>, code: BelvoError.Code, what: String
    ) throws(BelvoError) -> T {
        try checkStrictly(bytes, code: code, what: what)
        do {
            return try JSONDecoder().decode(T.self, from: Data(bytes))
        } catch let error as DecodingError {
            let (path, detail) = describe(error)
            throw BelvoError(code, "malformed \(what): \(detail)", field: path)
        } catch {
            throw BelvoError(code, "malformed \(what): \(error)")
        }
    }

    /// Refuses `bytes` unless they are one RFC 8259 JSON value whose objects never repeat a
    /// member name.
    ///
    /// - Throws: ``BelvoError`` with `code`: for a repeated name, naming its path (`field`);
    ///   otherwise saying where the JSON is malformed.
    static func checkStrictly(
        _ bytes: some Collection<UInt8>, code: BelvoError.Code, what: String
    ) throws(BelvoError) {
        do {
            _ = try strict.read(bytes)
        } catch let error as Fido2EncodingError where error.code == .duplicateMemberName {
            var lenient = strict
            lenient.options.allowsDuplicateMemberNames = true
            let path = (try? lenient.read(bytes)).flatMap { firstRepeatedName(in: $0) }
            guard let path else { throw BelvoError(code, "malformed \(what): \(error)") }
            let offset = error.offset.map { " (offset \($0))" } ?? ""
            throw BelvoError(
                code, "malformed \(what): the member \(path) appears twice in one object\(offset)",
                field: path)
        } catch {
            throw BelvoError(code, "malformed \(what): the body is not valid JSON: \(error)")
        }
    }

    /// The path (`a.b[2].c`) of the first member, in document order, whose name its object
    /// already has.
    private static func firstRepeatedName(in value: JSONValue, at path: String = "") -> String? {
        switch value {
        case .object(let object):
            var seen = Set<[UInt8]>()
            for member in object.members {
                let memberPath = path.isEmpty ? member.name : path + "." + member.name
                guard seen.insert(Array(member.name.utf8)).inserted else { return memberPath }
                if let found = firstRepeatedName(in: member.value, at: memberPath) { return found }
            }
            return nil
        case .array(let elements):
            for (index, element) in elements.enumerated() {
                if let found = firstRepeatedName(in: element, at: path + "[\(index)]") {
                    return found
                }
            }
            return nil
        default:
            return nil
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
