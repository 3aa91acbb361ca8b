@_spi(Fido2Internals) import Fido2Crypto
import Fido2Encoding
import Fido2TestSupport
import Testing

/// The DER writer: minimal encodings, SET OF order, the RFC 5280 time choice, and round trips
/// through the reader.
@Suite struct DERWriterTests {
    @Test func writesMinimalIntegers() {
        for (value, hex) in [
            (Int64(0), "020100"), (127, "02017f"), (128, "02020080"), (-128, "020180"),
            (-129, "0202ff7f"), (256, "02020100"), (Int64.max, "02087fffffffffffffff"),
            (Int64.min, "02088000000000000000"),
        ] {
            var writer = DERWriter()
            writer.appendInteger(value)
            #expect(Hex.encode(writer.bytes) == hex, "\(value)")
        }
        for (magnitude, hex) in [
            ("", "020100"), ("00", "020100"), ("0000ff", "020200ff"), ("7f", "02017f"),
            ("ed7f", "020300ed7f"),
        ] {
            var writer = DERWriter()
            writer.appendInteger(unsignedBigEndian: Hex.bytes(magnitude))
            #expect(Hex.encode(writer.bytes) == hex, "\(magnitude)")
        }
    }

    @Test func writesLengthsInTheFewestOctets() throws {
        for count in [0, 1, 127, 128, 255, 256, 65_535, 65_536] {
            var writer = DERWriter()
            writer.appendOctetString([UInt8](repeating: 0x5a, count: count))
            let element = try DERReader.singleElement(writer.bytes)
            #expect(element.contents.count == count)
            let header = writer.bytes.count - count
            #expect(header == (count < 128 ? 2 : count < 256 ? 3 : count < 65_536 ? 4 : 5))
        }
    }

    @Test func sortsSetOfElements() throws {
        var writer = DERWriter()
        try writer.appendSet { (set) throws(CryptoError) in
            set.appendInteger(300)
            set.appendInteger(2)
            set.appendOctetString([1])
            set.appendInteger(1)
        }
        #expect(Hex.encode(writer.bytes) == "310d0201010201020202012c040101")
    }

    @Test func choosesUTCTimeOrGeneralizedTime() throws {
        let cases: [(Int64, String)] = [
            (1_704_067_200, "170d3234303130313030303030305a"),
            (-631_152_001, "180f31393439313233313233353935395a"),  // 1949 → GeneralizedTime
            (2_524_608_000, "180f32303530303130313030303030305a"),  // 2050 → GeneralizedTime
            (33_260_976_000, "180f33303234303130313030303030305a"),
        ]
        for (seconds, hex) in cases {
            var writer = DERWriter()
            try writer.appendTime(seconds)
            #expect(Hex.encode(writer.bytes) == hex, "\(seconds)")
            var reader = try DERReader(writer.bytes)
            #expect(try reader.readTime() == seconds)
        }
        var writer = DERWriter()
        expectCryptoError(.derInvalidValue) { try writer.appendUTCTime(2_524_608_000) }
        expectCryptoError(.derInvalidValue) { try writer.appendGeneralizedTime(-62_167_219_201) }
        try writer.appendGeneralizedTime(-62_167_219_200)  // 0000-01-01
        #expect(Hex.encode(writer.bytes) == "180f30303030303130313030303030305a")
    }

    @Test func roundTripsEveryTypeThroughTheReader() throws {
        let oid = try #require(ASN1ObjectIdentifier(dotted: "1.2.840.10045.4.3.2"))
        var writer = DERWriter()
        try writer.appendSequence { (sequence) throws(CryptoError) in
            sequence.appendBoolean(true)
            sequence.appendInteger(-5)
            sequence.appendEnumerated(3)
            sequence.appendNull()
            sequence.appendOctetString([1, 2, 3])
            try sequence.appendBitString([0xa0], unusedBitCount: 5)
            sequence.appendObjectIdentifier(oid)
            try sequence.appendString("é€", as: .utf8String)
            try sequence.appendString("Hi 1", as: .printableString)
            try sequence.appendString("a@b", as: .ia5String)
            try sequence.appendString("𝄞é", as: .bmpString)
            try sequence.appendString("𝄞", as: .universalString)
            sequence.appendExplicit(2) { $0.appendInteger(7) }
            sequence.appendInteger(9, tag: .contextSpecific(1, constructed: false))
            try sequence.appendEncoded([0x05, 0x00])
        }
        var reader = try DERReader(writer.bytes)
        try reader.readSequence { (sequence) throws(CryptoError) in
            #expect(try sequence.readBoolean())
            #expect(try sequence.readInt64() == -5)
            #expect(try sequence.readEnumerated() == 3)
            try sequence.readNull()
            #expect(Array(try sequence.readOctetString()) == [1, 2, 3])
            let bits = try sequence.readBitString()
            #expect(bits.unusedBitCount == 5 && bits.isSet(0) && bits.isSet(2))
            #expect(try sequence.readObjectIdentifier() == oid)
            #expect(try sequence.readString() == "é€")
            #expect(try sequence.readString() == "Hi 1")
            #expect(try sequence.readString() == "a@b")
            #expect(try sequence.readString() == "𝄞é")
            #expect(try sequence.readString() == "𝄞")
            #expect(
                try sequence.readExplicit(2) { (inner) throws(CryptoError) in try inner.readInt64()
                } == 7)
            #expect(try sequence.readInt64(tag: .contextSpecific(1, constructed: false)) == 9)
            try sequence.readNull()
        }
        try reader.finish()
    }

    @Test func refusesWhatDERCannotHold() throws {
        var writer = DERWriter()
        expectCryptoError(.derInvalidValue) { try writer.appendString("a@b", as: .printableString) }
        expectCryptoError(.derInvalidValue) { try writer.appendString("é", as: .ia5String) }
        expectCryptoError(.derInvalidValue) { try writer.appendString("1a", as: .numericString) }
        expectCryptoError(.derUnexpectedTag) { try writer.appendString("x", as: .integer) }
        expectCryptoError(.derInvalidValue) {
            try writer.appendBitString([0x01], unusedBitCount: 1)
        }
        expectCryptoError(.derInvalidValue) {
            try writer.appendBitString([0x00], unusedBitCount: 8)
        }
        expectCryptoError(.derInvalidValue) { try writer.appendBitString([], unusedBitCount: 1) }
        expectCryptoError(.derTrailingBytes) { try writer.appendEncoded([0x05, 0x00, 0x05, 0x00]) }
        expectCryptoError(.derTruncated) { try writer.appendEncoded([0x04, 0x02, 0x00]) }
        // A failing body leaves the writer as it was.
        writer.appendNull()
        let before = writer.bytes
        expectCryptoError(.derInvalidValue) {
            try writer.appendSequence { (sequence) throws(CryptoError) in
                sequence.appendInteger(1)
                try sequence.appendString("@", as: .printableString)
            }
        }
        #expect(writer.bytes == before)
    }

    @Test func writesHighTagNumbers() throws {
        for number: UInt32 in [30, 31, 127, 128, 16_383, 16_384, UInt32.max] {
            var writer = DERWriter()
            writer.appendElement(
                DERTag(.private, number: number, constructed: false), contents: [1])
            let element = try DERReader.singleElement(writer.bytes)
            #expect(element.tag.number == number)
            #expect(element.tag.tagClass == .private)
        }
    }
}
