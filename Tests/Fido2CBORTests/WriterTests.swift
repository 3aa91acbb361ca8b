import Fido2CBOR
import Fido2Encoding
import Fido2TestSupport
import Testing

/// The writer always uses preferred serialization and, for ``CBORValue``, canonical key order.
struct WriterTests {
    @Test func integersUseTheShortestHead() {
        let cases: [(Int64, String)] = [
            (0, "00"), (23, "17"), (24, "1818"), (255, "18ff"), (256, "190100"),
            (65535, "19ffff"), (65536, "1a00010000"), (4_294_967_295, "1affffffff"),
            (4_294_967_296, "1b0000000100000000"), (-1, "20"), (-24, "37"), (-25, "3818"),
            (-256, "38ff"), (-257, "390100"), (Int64.min, "3b7fffffffffffffff"),
            (Int64.max, "1b7fffffffffffffff"),
        ]
        for (value, hex) in cases {
            var writer = CBORWriter()
            writer.writeInt(value)
            #expect(Hex.encode(writer.bytes) == hex, "\(value)")
            #expect(
                CBORWriter.headLength(for: value >= 0 ? UInt64(value) : UInt64(~value)) == hex.count
                    / 2)
        }
    }

    @Test func fullRangeIntegersAreWritable() {
        var writer = CBORWriter()
        writer.writeUnsigned(.max)
        writer.writeNegative(.max)
        #expect(Hex.encode(writer.bytes) == "1bffffffffffffffff3bffffffffffffffff")
    }

    @Test func floatsUseTheShortestWidthThatKeepsTheValue() {
        let cases: [(Double, String)] = [
            (0.0, "f90000"), (-0.0, "f98000"), (1.0, "f93c00"), (1.5, "f93e00"),
            (65504.0, "f97bff"), (100000.0, "fa47c35000"), (3.4028234663852886e+38, "fa7f7fffff"),
            (1.1, "fb3ff199999999999a"), (1.0e+300, "fb7e37e43c8800759c"),
            (5.960464477539063e-08, "f90001"), (6.103515625e-05, "f90400"), (-4.0, "f9c400"),
            (.infinity, "f97c00"), (-.infinity, "f9fc00"), (.nan, "f97e00"),
            (Double(bitPattern: 0x7ff8_0000_0000_0001), "f97e00"),
            (65505.0, "fa477fe100"), (0x1p-25, "fa33000000"), (0x1.8p-24, "fa33c00000"),
            (Double(Float.leastNonzeroMagnitude), "fa00000001"),
            (Double.leastNonzeroMagnitude, "fb0000000000000001"),
        ]
        for (value, hex) in cases {
            var writer = CBORWriter()
            writer.writeFloat(value)
            #expect(Hex.encode(writer.bytes) == hex, "\(value)")
        }
    }

    @Test func everyHalfPrecisionValueRoundTrips() throws {
        // All 65,536 half-precision bit patterns: decode, re-encode, compare (NaNs become canonical).
        for bits in 0...UInt16.max {
            let encoded: [UInt8] = [0xf9, UInt8(bits >> 8), UInt8(bits & 0xff)]
            let value = try CBORValue.decode(encoded, options: .strict)
            guard case .float(let number) = value else {
                Issue.record("not a float")
                return
            }
            let expected = number.isNaN ? [0xf9, 0x7e, 0x00] : encoded
            #expect(value.encoded() == expected, "\(bits)")
        }
    }

    @Test func stringsArraysMapsTagsAndSimpleValues() {
        var writer = CBORWriter()
        writer.writeByteString([1, 2, 3])
        writer.writeTextString("\u{fc}")
        writer.writeArrayHeader(count: 2)
        writer.writeBool(true)
        writer.writeNull()
        writer.writeMapHeader(count: 1)
        writer.writeTextString("a")
        writer.writeUndefined()
        writer.writeTag(1)
        writer.writeSimple(CBORSimpleValue(255)!)
        writer.writeByteString([UInt8](repeating: 7, count: 24)[...])
        #expect(
            Hex.encode(writer.bytes)
                == "43010203" + "62c3bc" + "82f5f6" + "a16161f7" + "c1f8ff" + "5818"
                + String(repeating: "07", count: 24))
    }

    @Test func simpleValuesTwentyToThirtyOneCannotBeMade() {
        for raw in UInt8(20)...31 { #expect(CBORSimpleValue(raw) == nil) }
        #expect(CBORSimpleValue(19) != nil)
        #expect(CBORSimpleValue(32) != nil)
    }

    @Test func valuesEncodeWithCanonicalKeyOrder() {
        let value: CBORValue = [
            "b": 1, -1: 2, "aa": 3, 10: 4, 1: 5, 100: 6, "a": 7, -100: 8,
        ]
        let expected =
            "a8" + "0105" + "0a04" + "186406" + "2002" + "386308" + "616107" + "616201"
            + "62616103"
        #expect(Hex.encode(value.encoded()) == expected)
    }

    @Test func nestedMapsAreSortedToo() throws {
        let value: CBORValue = ["z": [3: 0, 2: 0], "a": [[2: "x", 1: "y"]]]
        let encoded = value.encoded()
        _ = try CBORReader(encoded, options: .strict)
        #expect(
            Hex.encode(encoded) == "a2" + "6161" + "81a2" + "016179" + "026178" + "617a" + "a2"
                + "0200" + "0300")
    }

    @Test func preEncodedItemsAreSplicedVerbatim() throws {
        let key = ([1: 2, 3: -7] as CBORValue).encoded()
        var writer = CBORWriter(capacity: 16)
        writer.writeArrayHeader(count: 1)
        writer.writeEncodedItem(key)
        #expect(writer.bytes == [0x81] + key)
        _ = try CBORReader(writer.bytes)
    }

    @Test func reservingTheExactSizeMeansOneAllocation() {
        let payload = [UInt8](repeating: 0xab, count: 300)
        let size = CBORWriter.stringLength(count: payload.count)
        var writer = CBORWriter(capacity: size)
        let capacityBefore = writer.bytes.capacity
        writer.writeByteString(payload)
        #expect(writer.bytes.count == size)
        #expect(writer.bytes.capacity == capacityBefore)
    }

    @Test func appendingWriterKeepsWhatWasThere() {
        var writer = CBORWriter(appendingTo: [0xde, 0xad])
        writer.writeInt(1)
        #expect(writer.bytes == [0xde, 0xad, 0x01])
    }
}

/// The fixed-size writer that encodes straight into a new array's storage.
struct BufferWriterTests {
    static func writeSample(_ writer: inout some CBOROutput) {
        writer.writeMapHeader(count: 2)
        writer.writeTextLiteral("fmt")
        writer.writeTextString("none")
        writer.writeTextLiteral("attStmt")
        writer.writeMapHeader(count: 0)
    }

    @Test func exactSizeGivesTheSameBytesAsTheGrowableWriter() {
        var growable = CBORWriter()
        Self.writeSample(&growable)
        let fixed = CBORBufferWriter.encode(byteCount: growable.bytes.count) {
            Self.writeSample(&$0)
        }
        #expect(fixed == growable.bytes)
        #expect(fixed.count == 1 + 4 + 5 + 8 + 1)
    }

    @Test func tooSmallASizeRunsTheBodyAgainWithTheSizeItNeeded() {
        var runs = 0
        let bytes = CBORBufferWriter.encode(byteCount: 3) { writer in
            runs += 1
            writer.writeByteString([UInt8](repeating: 9, count: 300))
        }
        #expect(runs == 2)
        #expect(bytes.count == 303)
        #expect(bytes.prefix(3) == [0x59, 0x01, 0x2c])
        #expect(bytes.dropFirst(3).allSatisfy { $0 == 9 })
    }

    /// No size (or a nonsensical one) measures first without making an array of capacity 0,
    /// whose initializer would write into the standard library's shared empty storage.
    @Test func noSizeMeasuresFirst() {
        var runs = 0
        let bytes = CBORBufferWriter.encode(byteCount: 0) { writer in
            runs += 1
            writer.writeInt(-7)
        }
        #expect(runs == 2)
        #expect(bytes == [0x26])
        #expect(CBORBufferWriter.encode(byteCount: -5) { $0.writeInt(1) } == [0x01])
        #expect(CBORBufferWriter.encode(byteCount: 0) { _ in }.isEmpty)
    }

    @Test func tooLargeASizeKeepsOnlyWhatWasWritten() {
        let bytes = CBORBufferWriter.encode(byteCount: 64) { $0.writeInt(-7) }
        #expect(bytes == [0x26])
    }

    @Test func everyHeadWidthAndFloatWidthIsWrittenInPlace() {
        let values: [CBORValue] = [
            0, 23, 24, 255, 256, 65535, 65536, 4_294_967_295, 4_294_967_296, .unsigned(.max),
            .negative(.max), 1.5, 100000.0, 1.1, .float(.nan), "ü", .byteString([1, 2]),
            .tagged(1_000_000, nil), [true, false, .undefined], .simple(CBORSimpleValue(99)!),
        ]
        for value in values {
            let expected = value.encoded()
            let fixed = CBORBufferWriter.encode(byteCount: expected.count) { $0.writeValue(value) }
            #expect(fixed == expected, "\(value)")
        }
    }

    @Test func sizesMatchWhatIsWritten() {
        for value: Int64 in [0, 23, 24, -25, 1000, -100_000, .max, .min] {
            var writer = CBORWriter()
            writer.writeInt(value)
            #expect(CBORSize.int(value) == writer.bytes.count, "\(value)")
        }
        #expect(CBORSize.string(count: 300) == 303)
    }
}
