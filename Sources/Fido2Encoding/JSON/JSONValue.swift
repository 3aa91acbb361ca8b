/// A JSON value as RFC 8259 defines it, read by ``JSONReader`` and written by ``JSONWriter``.
///
/// Objects keep member order (``JSONObject``) and numbers keep their literal text
/// (``JSONNumber``), so reading and writing a document reproduces it exactly (up to
/// insignificant whitespace and string-escape spelling).
public enum JSONValue: Sendable, Hashable {
    /// `null`.
    case null
    /// `true` or `false`.
    case bool(Bool)
    /// A number, as its literal text.
    case number(JSONNumber)
    /// A string, unescaped.
    case string(String)
    /// An array.
    case array([JSONValue])
    /// An object, members in order.
    case object(JSONObject)

    /// Reads one JSON document with the default ``JSONReader/Options``.
    ///
    /// - Throws: ``Fido2EncodingError`` as ``JSONReader/read(_:)-(Bytes)`` does.
    public init<Bytes: Collection>(parsing bytes: Bytes) throws
    where Bytes.Element == UInt8 {
        self = try JSONReader().read(bytes)
    }

    /// Reads one JSON document from text with the default ``JSONReader/Options``.
    ///
    /// - Throws: ``Fido2EncodingError`` as ``JSONReader/read(_:)-(String)`` does.
    public init(parsing text: String) throws {
        self = try JSONReader().read(text)
    }

    /// The compact serialization (no whitespace, members in order, strings escaped as
    /// `JSON.stringify` escapes them, numbers as their literal text), allocated at its exact size.
    public func serialized() -> [UInt8] {
        var writer = JSONWriter(reservingCapacity: JSONWriter.serializedLength(of: self))
        writer.value(self)
        return writer.bytes
    }

    /// The string, when this is a string.
    public var stringValue: String? {
        if case .string(let value) = self { return value }
        return nil
    }

    /// The boolean, when this is `true` or `false`.
    public var boolValue: Bool? {
        if case .bool(let value) = self { return value }
        return nil
    }

    /// The number, when this is a number.
    public var numberValue: JSONNumber? {
        if case .number(let value) = self { return value }
        return nil
    }

    /// The number as an `Int64`, when this is an integer literal in range
    /// (see ``JSONNumber/int64Value``).
    public var int64Value: Int64? { numberValue?.int64Value }

    /// The number as a finite `Double`, when this is a number (see ``JSONNumber/doubleValue``).
    public var doubleValue: Double? { numberValue?.doubleValue }

    /// The elements, when this is an array.
    public var arrayValue: [JSONValue]? {
        if case .array(let value) = self { return value }
        return nil
    }

    /// The object, when this is an object.
    public var objectValue: JSONObject? {
        if case .object(let value) = self { return value }
        return nil
    }

    /// Whether this is `null`.
    public var isNull: Bool {
        if case .null = self { return true }
        return false
    }

    /// The value of the member named `name`, when this is an object that has one.
    public subscript(name: String) -> JSONValue? {
        objectValue?[name]
    }

    /// A short name for the kind of value (`object`, `array`, `string`, `number`, `boolean`,
    /// `null`), for error messages.
    public var kindName: String {
        switch self {
        case .null: return "null"
        case .bool: return "boolean"
        case .number: return "number"
        case .string: return "string"
        case .array: return "array"
        case .object: return "object"
        }
    }
}

extension JSONValue: CustomStringConvertible {
    /// The compact serialization as text.
    public var description: String {
        String(decoding: serialized(), as: UTF8.self)
    }
}

extension JSONValue: ExpressibleByStringLiteral {
    /// A string value.
    public init(stringLiteral value: String) {
        self = .string(value)
    }
}

extension JSONValue: ExpressibleByIntegerLiteral {
    /// An integer number value.
    public init(integerLiteral value: Int64) {
        self = .number(JSONNumber(value))
    }
}

extension JSONValue: ExpressibleByBooleanLiteral {
    /// `true` or `false`.
    public init(booleanLiteral value: Bool) {
        self = .bool(value)
    }
}

extension JSONValue: ExpressibleByArrayLiteral {
    /// An array value.
    public init(arrayLiteral elements: JSONValue...) {
        self = .array(elements)
    }
}

extension JSONValue: ExpressibleByDictionaryLiteral {
    /// An object value with the literal's members in the literal's order.
    public init(dictionaryLiteral elements: (String, JSONValue)...) {
        self = .object(JSONObject(elements.map { JSONMember($0.0, $0.1) }))
    }
}
