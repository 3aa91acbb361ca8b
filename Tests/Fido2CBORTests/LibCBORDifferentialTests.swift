import Fido2CBOR
import Fido2Encoding
import Fido2TestSupport
import PropertyBased
import Testing

/// Differential tests against libcbor: random well-formed items encoded by us decode the same in
/// libcbor, libcbor's encodings decode the same in ours, and anything libcbor rejects we reject.
struct LibCBORDifferentialTests {
    static let choices = Gen<UInt8>.value(in: 0...255).array(of: 0...160)

    @Test func theGeneratorMostlyMakesItemsLibcborCanRead() {
        // Guards against the exclusions above silently removing most cases.
        var generator = SystemRandomNumberGenerator()
        let values = (0..<1000).map { _ in
            RandomItem.value(
                from: (0..<120).map { _ in UInt8.random(in: 0...255, using: &generator) })
        }
        #expect(values.filter(LibCBOR.canRepresent).count > 600)
    }

    @Test func ourEncodingsDecodeIdenticallyInLibcbor() async {
        await propertyCheck(count: 2000, input: Self.choices) { choices in
            let value = RandomItem.value(from: choices)
            guard LibCBOR.canRepresent(value) else { return }
            let encoded = value.encoded()
            let ours = try? CBORValue.decode(encoded, options: .strict)
            #expect(ours != nil, "our own encoding of \(value) is not strictly canonical")
            #expect(LibCBOR.decode(encoded) == ours, "\(value)")
        }
    }

    @Test func libcborEncodingsDecodeIdenticallyInOurs() async {
        await propertyCheck(
            count: 2000, input: Self.choices, Gen<UInt8>.value(in: 0...255).array(of: 0...40)
        ) {
            choices, widths in
            let value = RandomItem.value(from: choices)
            guard LibCBOR.canRepresent(value) else { return }
            guard let encoded = LibCBOR.encode(value, widths: widths) else {
                Issue.record("libcbor could not encode \(value)")
                return
            }
            #expect((try? CBORValue.decode(encoded, options: .lenient)) == value, "\(value)")
            #expect(LibCBOR.decode(encoded) == value, "libcbor does not read back \(value)")
        }
    }

    @Test func canonicalEncodingsAgreeByteForByteWhenLibcborUsesShortestHeads() async {
        // Doubles whose shortest form is narrower are written as doubles by libcbor, so compare
        // only items without floats.
        await propertyCheck(count: 1000, input: Self.choices) { choices in
            let value = RandomItem.value(from: choices).encoded()
            guard let canonical = try? CBORValue.decode(value), !Self.containsFloat(canonical),
                LibCBOR.canRepresent(canonical)
            else { return }
            #expect(LibCBOR.encode(canonical) == value, "\(canonical)")
        }
    }

    @Test func whateverLibcborRejectsWeRejectAndWhatBothAcceptDecodesTheSame() async {
        // Random mutations of valid encodings: flipped, dropped and inserted bytes.
        await propertyCheck(
            count: 3000, input: Self.choices, Gen<UInt8>.value(in: 0...255).array(of: 1...6)
        ) { choices, edits in
            var bytes = RandomItem.value(from: choices).encoded()
            for (index, edit) in edits.enumerated() where !bytes.isEmpty {
                let position = (Int(edit) &* 31 &+ index &* 7) % bytes.count
                switch edit % 3 {
                case 0: bytes[position] ^= 1 << (edit % 8)
                case 1: bytes.remove(at: position)
                default: bytes.insert(edit, at: position)
                }
            }
            // Only inputs we accept need libcbor's verdict: "libcbor rejects, so must we" is
            // the same as "we accept, so must libcbor". (Asking libcbor about every input is
            // also slow: a mutated 40-byte head declaring 2^60 items kept it busy for 16 s.)
            guard let ours = try? CBORValue.decode(bytes, options: .lenient),
                LibCBOR.canRepresent(ours)
            else { return }
            let theirs = LibCBOR.decode(bytes)
            #expect(
                theirs == ours, "\(Hex.encode(bytes)): libcbor reads \(String(describing: theirs))")
        }
    }

    static func containsFloat(_ value: CBORValue) -> Bool {
        switch value {
        case .float: return true
        case .array(let elements): return elements.contains(where: containsFloat)
        case .map(let map):
            return map.entries.contains { containsFloat($0.key) || containsFloat($0.value) }
        case .tagged(_, let content): return containsFloat(content)
        default: return false
        }
    }
}
