import Fido2Encoding

/// A small deterministic generator (SplitMix64) of integers, bytes, strings and JSON values, so
/// each property-test seed or mutation loop names one input. The one copy the test targets share.
package struct SplitMix {
    /// The generator's state.
    package var state: UInt64

    /// A generator starting from `seed`.
    package init(seed: UInt64) { state = seed }

    /// The next 64 random bits.
    package mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// A number in `0..<bound`.
    package mutating func below(_ bound: Int) -> Int {
        Int(next() % UInt64(bound))
    }

    /// Up to `maximum` random bytes.
    package mutating func bytes(maximum: Int = 40) -> [UInt8] {
        (0..<below(maximum + 1)).map { _ in UInt8(truncatingIfNeeded: next()) }
    }

    /// `make`'s value or nil, evenly.
    package mutating func optional<T>(_ make: (inout SplitMix) -> T) -> T? {
        below(2) == 0 ? make(&self) : nil
    }

    /// A string mixing control characters, characters JSON escapes, printable ASCII, the BMP
    /// below and above the surrogates, and astral scalars.
    package mutating func jsonString() -> String {
        var scalars = String.UnicodeScalarView()
        for _ in 0..<below(12) {
            let value: UInt32
            switch below(6) {
            case 0: value = UInt32(below(0x20))  // control characters
            case 1: value = [0x22, 0x5C, 0x2F, 0x7F][below(4)]
            case 2: value = 0x80 + UInt32(below(0xD800 - 0x80))  // BMP below surrogates
            case 3: value = 0xE000 + UInt32(below(0x2000))
            case 4: value = 0x10000 + UInt32(below(0x100000))  // astral
            default: value = 0x20 + UInt32(below(0x5F))  // printable ASCII
            }
            if let scalar = Unicode.Scalar(value) { scalars.append(scalar) }
        }
        return String(scalars)
    }

    /// A JSON value nested `depth` levels in: scalars (integers and doubles among numbers),
    /// arrays and objects whose member names are unique.
    package mutating func jsonValue(depth: Int) -> JSONValue {
        switch below(depth >= 4 ? 5 : 7) {
        case 0: return .null
        case 1: return .bool(below(2) == 0)
        case 2:
            if below(2) == 0 { return .number(JSONNumber(Int64(bitPattern: next()))) }
            return .number(JSONNumber(Double(bitPattern: next())) ?? 0)
        case 3, 4: return .string(jsonString())
        case 5: return .array((0..<below(5)).map { _ in jsonValue(depth: depth + 1) })
        default:
            var object = JSONObject()
            for index in 0..<below(5) {
                object.append(jsonString() + "#\(index)", jsonValue(depth: depth + 1))
            }
            return .object(object)
        }
    }
}
