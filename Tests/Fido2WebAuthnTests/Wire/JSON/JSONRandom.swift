import Fido2Encoding

/// A small deterministic generator of bytes, strings and JSON values, so each property-test
/// seed names one input.
struct JSONRandom {
    var state: UInt64

    init(seed: UInt64) { state = seed }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    mutating func below(_ bound: Int) -> Int {
        Int(next() % UInt64(bound))
    }

    mutating func bytes(maximum: Int = 40) -> [UInt8] {
        (0..<below(maximum + 1)).map { _ in UInt8(truncatingIfNeeded: next()) }
    }

    /// Strings mixing ASCII, characters that need escaping, and non-ASCII scalars.
    mutating func string() -> String {
        var scalars = String.UnicodeScalarView()
        for _ in 0..<below(10) {
            let value: UInt32
            switch below(5) {
            case 0: value = UInt32(below(0x20))
            case 1: value = [0x22, 0x5C, 0x2F, 0x7F][below(4)]
            case 2: value = 0x80 + UInt32(below(0xD800 - 0x80))
            case 3: value = 0x10000 + UInt32(below(0x100000))
            default: value = 0x20 + UInt32(below(0x5F))
            }
            if let scalar = Unicode.Scalar(value) { scalars.append(scalar) }
        }
        return String(scalars)
    }

    mutating func value(depth: Int) -> JSONValue {
        switch below(depth >= 3 ? 4 : 6) {
        case 0: return .null
        case 1: return .bool(below(2) == 0)
        case 2: return .number(JSONNumber(Int64(bitPattern: next())))
        case 3: return .string(string())
        case 4: return .array((0..<below(4)).map { _ in value(depth: depth + 1) })
        default:
            var object = JSONObject()
            for index in 0..<below(4) {
                object.append(string() + "\(index)", value(depth: depth + 1))
            }
            return .object(object)
        }
    }

    mutating func optional<T>(_ make: (inout JSONRandom) -> T) -> T? {
        below(2) == 0 ? make(&self) : nil
    }
}
