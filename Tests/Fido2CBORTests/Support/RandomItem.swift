import Fido2CBOR

/// Builds a random ``CBORValue`` from a byte string of choices, so that the property-test
/// framework generates (and shrinks) plain byte arrays while the trees stay well-typed.
/// Running out of choices yields zeros, which build small items. Map keys are kept distinct.
struct RandomItem {
    private let choices: [UInt8]
    private var index = 0

    private init(_ choices: [UInt8]) { self.choices = choices }

    static func value(from choices: [UInt8]) -> CBORValue {
        var builder = RandomItem(choices)
        return builder.value(depth: 0)
    }

    private mutating func next() -> UInt8 {
        defer { index += 1 }
        return index < choices.count ? choices[index] : 0
    }

    private mutating func number() -> UInt64 {
        let widths = [1, 2, 4, 8]
        var result: UInt64 = 0
        for _ in 0..<widths[Int(next() % 4)] { result = result << 8 | UInt64(next()) }
        return result
    }

    private mutating func text() -> String {
        let alphabet: [Unicode.Scalar] = [
            "a", "Z", "0", " ", "\"", "\\", "\n", "\u{7f}", "\u{e9}", "\u{fc}", "\u{6c34}",
            "\u{10151}", "\u{1F600}", "\u{0}",
        ]
        var text = ""
        for _ in 0..<(next() % 12) {
            text.unicodeScalars.append(alphabet[Int(next()) % alphabet.count])
        }
        return text
    }

    private mutating func simple() -> CBORValue {
        switch next() % 8 {
        case 0: return .boolean(next() & 1 == 1)
        case 1: return .null
        case 2: return .undefined
        default:
            let raw = next()
            return .simple(CBORSimpleValue(raw) ?? CBORSimpleValue(raw & 0x0f)!)
        }
    }

    private mutating func float() -> CBORValue {
        let specials: [Double] = [
            0, -0.0, 1.5, 65504, 100000, .infinity, -.infinity, .nan, 5.960464477539063e-08,
            3.4028234663852886e+38, 1.1, 6.103515625e-05,
        ]
        let pick = next()
        return pick < 128
            ? .float(specials[Int(pick) % specials.count])
            : .float(Double(bitPattern: number()))
    }

    private mutating func value(depth: Int) -> CBORValue {
        switch next() % (depth < 4 ? 13 : 9) {
        case 0: return .unsigned(number())
        case 1: return .negative(number())
        case 2: return .byteString((0..<(next() % 24)).map { _ in next() })
        case 3: return .textString(text())
        case 4: return simple()
        case 5, 6: return float()
        case 7: return .unsigned(UInt64(next()))
        case 8: return .negative(UInt64(next() % 30))
        case 9, 10: return .array((0..<(next() % 5)).map { _ in value(depth: depth + 1) })
        case 11:
            var entries: [CBORMap.Entry] = []
            var keys = Set<CBORValue>()
            for _ in 0..<(next() % 5) {
                let key: CBORValue =
                    next() & 1 == 0
                    ? CBORValue(Int(Int8(bitPattern: next()))) : .textString(text())
                let entryValue = value(depth: depth + 1)
                if keys.insert(key).inserted {
                    entries.append(CBORMap.Entry(key: key, value: entryValue))
                }
            }
            return .map(CBORMap(entries))
        default:
            return .tagged(number() % 100_000, value(depth: depth + 1))
        }
    }
}
