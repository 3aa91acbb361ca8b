import Fido2CBOR
import Fido2Encoding
import Fido2TestSupport
import Foundation
import Testing

/// RFC 8949 Appendix A, from `../shared/vectors/rfc8949-appendix-a.json`: every item decodes to
/// the expected value or diagnostic notation, every `roundtrip` item re-encodes byte for byte,
/// and `0xf818` (simple(24), not well-formed under RFC 8949) is rejected.
struct AppendixATests {
    struct Vector: CustomStringConvertible {
        let hex: String
        let bytes: [UInt8]
        let roundtrip: Bool
        let decoded: Any?
        let diagnostic: String?
        var description: String { hex }
    }

    static func vectors() throws -> [Vector] {
        let list = try #require(
            try SharedVectors.json("rfc8949-appendix-a.json") as? [[String: Any]])
        return try list.map { entry in
            let hex = try #require(entry["hex"] as? String)
            return Vector(
                hex: hex, bytes: try #require(try? Hex.decode(hex)),
                roundtrip: entry["roundtrip"] as? Bool ?? false, decoded: entry["decoded"],
                diagnostic: entry["diagnostic"] as? String)
        }
    }

    @Test func suiteHasEveryItem() throws {
        let vectors = try Self.vectors()
        #expect(vectors.count == 82)
        #expect(
            vectors.filter { $0.decoded != nil }.count
                + vectors.filter { $0.diagnostic != nil }.count == 82)
    }

    @Test func everyItemDecodesToItsExpectedValue() throws {
        var checked = 0
        for vector in try Self.vectors() where vector.hex != "f818" {
            let value = try CBORValue.decode(vector.bytes, options: .lenient)
            if let expected = vector.decoded {
                #expect(Self.matches(value, expected), "\(vector.hex) decoded as \(value)")
                checked += 1
            }
            if let expected = vector.diagnostic {
                let notation = try CBORDiagnostic.notation(for: vector.bytes, options: .lenient)
                #expect(notation == expected, "\(vector.hex)")
                checked += 1
            }
        }
        #expect(checked == 81)
    }

    @Test func roundtripItemsReencodeByteForByte() throws {
        var checked = 0
        for vector in try Self.vectors() where vector.roundtrip && vector.hex != "f818" {
            let value = try CBORValue.decode(vector.bytes, options: .lenient)
            #expect(value.encoded() == vector.bytes, "\(vector.hex)")
            checked += 1
        }
        #expect(checked >= 60)
    }

    @Test func roundtripItemsAreStrictlyCanonical() throws {
        for vector in try Self.vectors() where vector.roundtrip && vector.hex != "f818" {
            _ = try CBORReader(vector.bytes, options: .strict)
        }
    }

    @Test func simpleValue24InTwoBytesIsRejected() throws {
        let vector = try #require(try Self.vectors().first { $0.hex == "f818" })
        for options in [CBORDecodingOptions.lenient, .strict] {
            #expect(throws: CBORError(.invalidSimpleValue, at: 0)) {
                try CBORValue.decode(vector.bytes, options: options)
            }
        }
    }

    /// Whether `value` is what the JSON `expected` describes. Big integers are compared through
    /// their decimal text, tags 2 and 3 (bignums) as the integers they stand for.
    static func matches(_ value: CBORValue, _ expected: Any) -> Bool {
        switch value {
        case .unsigned(let number):
            return numberText(expected) == String(number)
        case .negative(let number):
            return numberText(expected)
                == DecimalText.negative(
                    magnitudeMinusOne: [UInt8](
                        withUnsafeBytes(of: number.bigEndian) { Array($0) }))
        case .tagged(2, .byteString(let bytes)):
            return numberText(expected) == DecimalText.unsigned(ofBigEndian: bytes)
        case .tagged(3, .byteString(let bytes)):
            return numberText(expected) == DecimalText.negative(magnitudeMinusOne: bytes)
        case .float(let number):
            guard let expected = expected as? NSNumber, !isBool(expected) else { return false }
            // NSDecimalNumber's doubleValue can be off by an ulp; its text parses exactly.
            let parsed = Double(expected.description) ?? expected.doubleValue
            return parsed.bitPattern == number.bitPattern
        case .textString(let text):
            return (expected as? String) == text
        case .byteString:
            return false
        case .boolean(let flag):
            guard let expected = expected as? NSNumber, isBool(expected) else { return false }
            return expected.boolValue == flag
        case .null:
            return expected is NSNull
        case .array(let elements):
            guard let expected = expected as? [Any], expected.count == elements.count else {
                return false
            }
            return zip(elements, expected).allSatisfy { matches($0, $1) }
        case .map(let map):
            guard let expected = expected as? [String: Any], expected.count == map.count else {
                return false
            }
            return map.entries.allSatisfy { entry in
                guard case .textString(let key) = entry.key, let other = expected[key] else {
                    return false
                }
                return matches(entry.value, other)
            }
        default:
            return false
        }
    }

    private static func isBool(_ number: NSNumber) -> Bool {
        String(describing: type(of: number)).contains("Bool")
    }

    private static func numberText(_ expected: Any) -> String? {
        guard let number = expected as? NSNumber, !isBool(number) else { return nil }
        if number is NSDecimalNumber { return number.description }
        let type = String(cString: number.objCType)
        switch type {
        case "Q": return String(number.uint64Value)
        case "d", "f": return nil
        default: return String(number.int64Value)
        }
    }
}

/// Decimal text of big-endian unsigned integers, for bignum comparisons.
enum DecimalText {
    static func unsigned(ofBigEndian bytes: [UInt8]) -> String {
        var digits = bytes.drop { $0 == 0 }.map { UInt32($0) }
        if digits.isEmpty { return "0" }
        var output: [Character] = []
        while !digits.isEmpty {
            var remainder: UInt32 = 0
            var quotient: [UInt32] = []
            for digit in digits {
                let current = remainder << 8 | digit
                let next = current / 10
                remainder = current % 10
                if !quotient.isEmpty || next != 0 { quotient.append(next) }
            }
            output.append(Character(String(remainder)))
            digits = quotient
        }
        return String(output.reversed())
    }

    /// The text of `-1 - n` for the big-endian magnitude `n`.
    static func negative(magnitudeMinusOne bytes: [UInt8]) -> String {
        var incremented = [UInt8](repeating: 0, count: 1) + bytes
        var index = incremented.count - 1
        while true {
            let (sum, carry) = incremented[index].addingReportingOverflow(1)
            incremented[index] = sum
            if !carry { break }
            index -= 1
        }
        return "-" + unsigned(ofBigEndian: incremented)
    }
}
