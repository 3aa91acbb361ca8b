import Fido2CBOR
import Fido2Encoding
import Fido2TestSupport
import Testing

/// RFC 8949 §8 diagnostic notation beyond Appendix A's expected strings.
struct DiagnosticTests {
    @Test func notationCoversEveryKindOfItem() throws {
        let cases: [(String, String)] = [
            ("a201020304", "{1: 2, 3: 4}"),
            ("826161a161626163", "[\"a\", {\"b\": \"c\"}]"),
            ("5f42010243030405ff", "(_ h'0102', h'030405')"),
            ("7f657374726561646d696e67ff", "(_ \"strea\", \"ming\")"),
            ("9fff", "[_ ]"),
            ("bf61610161629f0203ffff", "{_ \"a\": 1, \"b\": [_ 2, 3]}"),
            ("c249010000000000000000", "2(h'010000000000000000')"),
            ("3bffffffffffffffff", "-18446744073709551616"),
            ("f7", "undefined"), ("f0", "simple(16)"), ("f8ff", "simple(255)"),
            ("fb7e37e43c8800759c", "1.0e+300"), ("f90001", "5.960464477539063e-08"),
            ("fa7fc00000", "NaN"), ("f9fc00", "-Infinity"), ("f98000", "-0.0"),
            ("650a09225c7f", "\"\\n\\t\\\"\\\\\\u007f\""),
            ("64f0908591", "\"\\ud800\\udd51\""),
        ]
        for (hex, expected) in cases {
            #expect(try CBORDiagnostic.notation(for: Hex.bytes(hex)) == expected, "\(hex)")
        }
    }

    @Test func valuesDescribeThemselvesDeterministically() {
        let value: CBORValue = ["b": [1, -2, 1.5], "a": .byteString([0xca, 0xfe]), 3: nil]
        #expect(value.description == "{3: null, \"a\": h'cafe', \"b\": [1, -2, 1.5]}")
    }

    @Test func sequencesPrintOneItemPerLine() throws {
        #expect(try CBORDiagnostic.notation(for: Hex.bytes("0102"), options: .lenient) == "1\n2")
        #expect(throws: CBORError(.trailingBytes, at: 1)) {
            try CBORDiagnostic.notation(for: Hex.bytes("0102"), options: .strict)
        }
    }
}
