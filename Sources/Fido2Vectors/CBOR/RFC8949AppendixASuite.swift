import Fido2CBOR
import Fido2Encoding

/// RFC 8949 Appendix A (the cbor/test-vectors `appendix_a.json` format): a list of
/// `{cbor, hex, roundtrip, decoded?, diagnostic?}`. Each item must decode (leniently) to its
/// `decoded` value or `diagnostic` notation and, when `roundtrip` is set, re-encode byte for
/// byte and read under the strict (CTAP2 canonical) options too; the RFC 7049 item `f818` is
/// not well-formed under RFC 8949 and must be rejected as an invalid simple value by both the
/// lenient and the strict reader.
package struct RFC8949AppendixASuite: VectorSuite {
    package let name: String
    private let items: [JSONObject]

    /// Recognizes the format: a non-empty list of objects that all have `hex` and `roundtrip`.
    package init?(name: String, json: JSONValue) {
        guard let list = json.arrayValue, !list.isEmpty else { return nil }
        let items = list.compactMap(\.objectValue)
        guard items.count == list.count,
            items.allSatisfy({ $0["hex"]?.stringValue != nil && $0["roundtrip"]?.boolValue != nil })
        else { return nil }
        self.name = name
        self.items = items
    }

    package func run() -> [VectorCaseResult] {
        items.enumerated().map { index, item in
            let hex = item["hex"]?.stringValue ?? ""
            return .check("#\(index) \(hex)", Self.failure(of: item, hex: hex))
        }
    }

    private static func failure(of item: JSONObject, hex: String) -> String? {
        guard let bytes = try? Hex.decode(hex) else { return "bad hex" }
        if hex == "f818" {
            for options in [CBORDecodingOptions.lenient, .strict] {
                do {
                    _ = try CBORValue.decode(bytes, options: options)
                    return "simple(24) in two bytes was accepted"
                } catch let error as CBORError where error == CBORError(.invalidSimpleValue, at: 0)
                {
                    continue
                } catch {
                    return "simple(24) in two bytes was refused with \(error)"
                }
            }
            return nil
        }
        let value: CBORValue
        do {
            value = try CBORValue.decode(bytes, options: .lenient)
        } catch {
            return "rejected: \(error)"
        }
        if let diagnostic = item["diagnostic"]?.stringValue {
            guard let notation = try? CBORDiagnostic.notation(for: bytes) else {
                return "no diagnostic notation"
            }
            if notation != diagnostic { return "notation \(notation), expected \(diagnostic)" }
        } else if let decoded = item["decoded"] {
            guard let expected = expectedValue(decoded) else { return "unusable expected value" }
            if !Self.equivalent(value, expected) {
                return "decoded \(value), expected \(expected)"
            }
        } else {
            return "neither decoded nor diagnostic given"
        }
        if item["roundtrip"]?.boolValue == true {
            if value.encoded() != bytes {
                return "re-encoded as \(CBORDiagnostic.hex(value.encoded()))"
            }
            do {
                _ = try CBORReader(bytes, options: .strict)
            } catch {
                return "a round-trip item is refused by the strict reader: \(error)"
            }
        }
        return nil
    }

    /// The JSON value as a ``CBORValue``; integers beyond 64 bits become bignums (tags 2 and 3),
    /// as the RFC's examples encode them.
    private static func expectedValue(_ json: JSONValue) -> CBORValue? {
        switch json {
        case .null: return .null
        case .bool(let flag): return .boolean(flag)
        case .string(let text): return .textString(text)
        case .array(let list):
            let elements = list.compactMap(expectedValue)
            return elements.count == list.count ? .array(elements) : nil
        case .object(let object):
            var entries: [CBORMap.Entry] = []
            for member in object.members {
                guard let converted = expectedValue(member.value) else { return nil }
                entries.append(CBORMap.Entry(key: .textString(member.name), value: converted))
            }
            return .map(CBORMap(entries))
        case .number(let number):
            return number.isInteger ? integer(number.text) : number.doubleValue.map { .float($0) }
        }
    }

    /// Parses decimal integer text of any size.
    private static func integer(_ text: String) -> CBORValue? {
        let negative = text.hasPrefix("-")
        var magnitude: [UInt8] = [0]
        for char in text.utf8.dropFirst(negative ? 1 : 0) {
            guard char >= UInt8(ascii: "0"), char <= UInt8(ascii: "9") else { return nil }
            var carry = UInt16(char - UInt8(ascii: "0"))
            for index in magnitude.indices.reversed() {
                let product = UInt16(magnitude[index]) * 10 + carry
                magnitude[index] = UInt8(product & 0xff)
                carry = product >> 8
            }
            if carry > 0 { magnitude.insert(UInt8(carry), at: 0) }
        }
        if negative {
            // -1 - n: subtract one from the magnitude.
            var index = magnitude.count - 1
            while magnitude[index] == 0 {
                magnitude[index] = 0xff
                index -= 1
            }
            magnitude[index] -= 1
        }
        let significant = Array(magnitude.drop { $0 == 0 })
        if significant.count <= 8 {
            let number = significant.reduce(UInt64(0)) { $0 << 8 | UInt64($1) }
            return negative ? .negative(number) : .unsigned(number)
        }
        return .tagged(negative ? 3 : 2, .byteString(significant))
    }

    /// Equality that ignores map entry order (JSON objects carry no meaning in theirs).
    private static func equivalent(_ lhs: CBORValue, _ rhs: CBORValue) -> Bool {
        switch (lhs, rhs) {
        case (.map(let left), .map(let right)):
            guard left.count == right.count else { return false }
            return left.entries.allSatisfy { entry in
                right[entry.key].map { equivalent(entry.value, $0) } ?? false
            }
        case (.array(let left), .array(let right)):
            return left.count == right.count && zip(left, right).allSatisfy(equivalent)
        default:
            return lhs == rhs
        }
    }
}
