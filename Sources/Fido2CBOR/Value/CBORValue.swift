/// A decoded CBOR data item, and a convenient way to build one whose encoding is always
/// deterministic (preferred serialization and CTAP2 canonical map-key order).
///
/// Floats compare by bit pattern (so `-0.0` differs from `0.0`) with every NaN equal to every
/// other, because the encoder writes the single canonical NaN.
public enum CBORValue: Sendable {
    /// An unsigned integer, major type 0.
    case unsigned(UInt64)
    /// A negative integer, major type 1: `.negative(n)` is the integer `-1 - n`.
    case negative(UInt64)
    /// A byte string, major type 2 (indefinite-length strings decode to their concatenation).
    case byteString([UInt8])
    /// A text string, major type 3.
    case textString(String)
    /// An array, major type 4.
    case array([CBORValue])
    /// A map, major type 5.
    case map(CBORMap)
    /// A tagged item, major type 6.
    indirect case tagged(UInt64, CBORValue)
    /// A simple value other than the four named ones.
    case simple(CBORSimpleValue)
    /// `false` or `true`.
    case boolean(Bool)
    /// `null`.
    case null
    /// `undefined`.
    case undefined
    /// A half-, single- or double-precision float, held as a `Double` (which all three fit).
    case float(Double)

    /// The integer `value`, as `.unsigned` or `.negative`.
    public init(_ value: Int) { self.init(Int64(value)) }

    /// The integer `value`, as `.unsigned` or `.negative`.
    public init(_ value: Int64) {
        self = value >= 0 ? .unsigned(UInt64(value)) : .negative(UInt64(-1 - value))
    }

    /// The major type this value encodes with.
    public var majorType: CBORMajorType {
        switch self {
        case .unsigned: return .unsigned
        case .negative: return .negative
        case .byteString: return .byteString
        case .textString: return .textString
        case .array: return .array
        case .map: return .map
        case .tagged: return .tag
        case .simple, .boolean, .null, .undefined, .float: return .simpleOrFloat
        }
    }

    /// The value as an `Int64`, when it is an integer in range.
    public var int64Value: Int64? {
        switch self {
        case .unsigned(let value): return value <= UInt64(Int64.max) ? Int64(value) : nil
        case .negative(let value): return value <= UInt64(Int64.max) ? -1 - Int64(value) : nil
        default: return nil
        }
    }

    /// The bytes of a byte string, else nil.
    public var bytesValue: [UInt8]? {
        if case .byteString(let bytes) = self { return bytes }
        return nil
    }

    /// The text of a text string, else nil.
    public var stringValue: String? {
        if case .textString(let text) = self { return text }
        return nil
    }

    /// The elements of an array, else nil.
    public var arrayValue: [CBORValue]? {
        if case .array(let elements) = self { return elements }
        return nil
    }

    /// The entries of a map, else nil.
    public var mapValue: CBORMap? {
        if case .map(let map) = self { return map }
        return nil
    }

    /// For a map, the value under `key`; nil for other values or a missing key.
    public subscript(key: CBORValue) -> CBORValue? { mapValue?[key] }
}

extension CBORValue: Hashable {
    /// Structural equality; floats compare by bit pattern with all NaNs equal.
    public static func == (lhs: CBORValue, rhs: CBORValue) -> Bool {
        switch (lhs, rhs) {
        case (.unsigned(let a), .unsigned(let b)): return a == b
        case (.negative(let a), .negative(let b)): return a == b
        case (.byteString(let a), .byteString(let b)): return a == b
        case (.textString(let a), .textString(let b)): return a == b
        case (.array(let a), .array(let b)): return a == b
        case (.map(let a), .map(let b)): return a == b
        case (.tagged(let tagA, let a), .tagged(let tagB, let b)): return tagA == tagB && a == b
        case (.simple(let a), .simple(let b)): return a == b
        case (.boolean(let a), .boolean(let b)): return a == b
        case (.null, .null), (.undefined, .undefined): return true
        case (.float(let a), .float(let b)): return Self.floatKey(a) == Self.floatKey(b)
        default: return false
        }
    }

    /// Hashes consistently with `==`.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(majorType)
        switch self {
        case .unsigned(let value), .negative(let value): hasher.combine(value)
        case .byteString(let bytes): hasher.combine(bytes)
        case .textString(let text): hasher.combine(text)
        case .array(let elements): hasher.combine(elements)
        case .map(let map): hasher.combine(map)
        case .tagged(let tag, let content):
            hasher.combine(tag)
            hasher.combine(content)
        case .simple(let value): hasher.combine(value)
        case .boolean(let value): hasher.combine(value)
        case .null: hasher.combine(0 as UInt8)
        case .undefined: hasher.combine(1 as UInt8)
        case .float(let value): hasher.combine(Self.floatKey(value))
        }
    }

    private static func floatKey(_ value: Double) -> UInt64 {
        value.isNaN ? Double.nan.bitPattern : value.bitPattern
    }
}

extension CBORValue: CustomStringConvertible {
    /// RFC 8949 §8 diagnostic notation of the value.
    public var description: String { CBORDiagnostic.notation(for: self) }
}
