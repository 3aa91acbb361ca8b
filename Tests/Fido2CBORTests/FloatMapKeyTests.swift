import Fido2CBOR
import Fido2Encoding
import Fido2TestSupport
import Testing

/// Float map keys under the strict profile. CTAP2 canonical form leaves float widths alone and
/// orders and compares keys by their bytes, while ``CBORValue`` keeps a float's value (not its
/// width or NaN payload) and encodes the shortest form. Found by the `cbor-strict` fuzz target,
/// whose re-encoding invariant assumed map order survives the round trip.
struct FloatMapKeyTests {
    /// The fuzz input: a map whose keys are -42240.0 (f9f928) and a NaN with a payload
    /// (f9fdf9), in byte order. Re-encoded, the canonical NaN (f97e00) sorts first.
    @Test func reencodingReordersANaNKeyButKeepsTheValue() throws {
        let input = Hex.bytes("83a2f9f928a2f9f92808f9f9f908f9fdf9280804")
        let value = try CBORValue.decode(input, options: .strict)
        let encoded = value.encoded()
        #expect(encoded != input)
        #expect(Hex.encode(encoded).hasPrefix("83a2f97e0028f9f928"))
        let again = try CBORValue.decode(encoded, options: .strict)
        #expect(again.encoded() == encoded)
    }

    /// 1.0 as half (f93c00) and as single (fa3f800000) are different bytes, so the strict
    /// reader takes them as two keys; as values they are one key twice, and the re-encoding is
    /// refused as a repeated key rather than read back as something else.
    @Test func keysEqualOnlyAsValuesBecomeARepeatedKey() throws {
        let input = Hex.bytes("a2f93c0001fa3f80000002")
        let value = try CBORValue.decode(input, options: .strict)
        let keys = value.mapValue?.entries.map(\.key) ?? []
        #expect(keys.count == 2 && keys[0] == keys[1])
        let error = #expect(throws: CBORError.self) {
            try CBORValue.decode(value.encoded(), options: .strict)
        }
        #expect(error?.code == .duplicateMapKey)
    }
}
