/// `JSONValue` through `Codable`, so a value (an extension's input or output, a whole form) can
/// sit in a type that `JSONDecoder` reads and `JSONEncoder` writes.
///
/// Decoding tries, in order, null, a boolean, an integer, a floating-point number, a string,
/// an array and an object. What `Decoder` cannot say is lost on the way through it: the
/// literal text of a number (`1.0` comes back as `1`) and, with decoders that do not keep it,
/// the order of an object's members.
extension JSONValue: Codable {
    /// Reads any JSON value from `decoder`.
    ///
    /// - Throws: `DecodingError.dataCorrupted` for a value that is none of JSON's kinds (a
    ///   non-JSON decoder's own types).
    public init(from decoder: any Decoder) throws {
        if let container = try? decoder.singleValueContainer() {
            if container.decodeNil() {
                self = .null
                return
            }
            if let value = try? container.decode(Bool.self) {
                self = .bool(value)
                return
            }
            if let value = try? container.decode(Int64.self) {
                self = .number(JSONNumber(value))
                return
            }
            if let value = try? container.decode(UInt64.self) {
                self = .number(JSONNumber(value))
                return
            }
            if let value = try? container.decode(Double.self), let number = JSONNumber(value) {
                self = .number(number)
                return
            }
            if let value = try? container.decode(String.self) {
                self = .string(value)
                return
            }
        }
        if var container = try? decoder.unkeyedContainer() {
            var elements: [JSONValue] = []
            if let count = container.count { elements.reserveCapacity(count) }
            while !container.isAtEnd {
                elements.append(try container.decode(JSONValue.self))
            }
            self = .array(elements)
            return
        }
        if let container = try? decoder.container(keyedBy: JSONMemberKey.self) {
            var object = JSONObject()
            for key in container.allKeys {
                object.append(key.stringValue, try container.decode(JSONValue.self, forKey: key))
            }
            self = .object(object)
            return
        }
        throw DecodingError.dataCorrupted(
            DecodingError.Context(
                codingPath: decoder.codingPath, debugDescription: "not a JSON value"))
    }

    /// Writes the value to `encoder`: integers as `Int64` or `UInt64` when they fit, other
    /// numbers as `Double`, objects member by member (in the order the encoder chooses:
    /// `JSONEncoder` may sort or shuffle them; ``serialized()`` keeps them).
    public func encode(to encoder: any Encoder) throws {
        switch self {
        case .null:
            var container = encoder.singleValueContainer()
            try container.encodeNil()
        case .bool(let value):
            var container = encoder.singleValueContainer()
            try container.encode(value)
        case .number(let number):
            var container = encoder.singleValueContainer()
            if let value = number.int64Value {
                try container.encode(value)
            } else if number.isInteger, let value = UInt64(number.text) {
                try container.encode(value)
            } else if let value = number.doubleValue {
                try container.encode(value)
            } else {
                throw EncodingError.invalidValue(
                    number,
                    EncodingError.Context(
                        codingPath: encoder.codingPath,
                        debugDescription: "\(number.text) has no Double value"))
            }
        case .string(let value):
            var container = encoder.singleValueContainer()
            try container.encode(value)
        case .array(let elements):
            var container = encoder.unkeyedContainer()
            for element in elements { try container.encode(element) }
        case .object(let object):
            var container = encoder.container(keyedBy: JSONMemberKey.self)
            for member in object.members {
                try container.encode(member.value, forKey: JSONMemberKey(member.name))
            }
        }
    }
}

/// A coding key for any member name.
struct JSONMemberKey: CodingKey {
    let stringValue: String
    var intValue: Int? { nil }

    init(_ name: String) { stringValue = name }
    init?(stringValue: String) { self.stringValue = stringValue }
    init?(intValue: Int) { nil }
}
