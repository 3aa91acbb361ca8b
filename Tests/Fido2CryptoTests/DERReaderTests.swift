@_spi(Fido2Internals) import Fido2Crypto
import Fido2Encoding
import Fido2TestSupport
import Testing

/// The strict DER reader: every class of malformed encoding is refused with its own code and
/// the offset of the fault; well-formed values decode.
@Suite struct DERReaderTests {
    /// Expects reading `hex` as one fully validated element to fail with `code` at `offset`.
    func expectRejected(
        _ hex: String, _ code: CryptoError.Code, at offset: Int? = nil,
        sourceLocation: SourceLocation = #_sourceLocation
    ) {
        do {
            try DERReader.validate(Hex.bytes(hex)[...])
            Issue.record("\(hex) was accepted", sourceLocation: sourceLocation)
        } catch {
            #expect(error.code == code, "\(hex): \(error)", sourceLocation: sourceLocation)
            if let offset {
                #expect(error.offset == offset, "\(hex): \(error)", sourceLocation: sourceLocation)
            }
        }
    }

    // MARK: Lengths and tags

    @Test func rejectsIndefiniteLengths() {
        // Offsets name the length octet at fault.
        expectRejected("30800201010000", .derIndefiniteLength, at: 1)
        expectRejected("3005308002010100", .derIndefiniteLength, at: 3)
    }

    @Test func rejectsNonMinimalLengths() {
        expectRejected("02810105", .derNonMinimalEncoding, at: 1)  // 1 in the long form
        expectRejected("0282007f" + String(repeating: "00", count: 127), .derNonMinimalEncoding)
        expectRejected("048200800000", .derNonMinimalEncoding)  // leading zero octet
    }

    @Test func acceptsMinimalLongLengths() throws {
        let bytes = Hex.bytes("048180") + [UInt8](repeating: 0xab, count: 128)
        let element = try DERReader.singleElement(bytes)
        #expect(element.contents.count == 128)
        #expect(element.contentsOffset == 3)
        #expect(Array(element.encoded) == bytes)
    }

    @Test func rejectsTruncatedInput() {
        expectRejected("", .derTruncated, at: 0)
        expectRejected("02", .derTruncated, at: 1)
        expectRejected("0282", .derTruncated)
        expectRejected("020201", .derTruncated, at: 0)
        expectRejected("3005020101", .derTruncated, at: 0)
        expectRejected("300302020100", .derTruncated, at: 2)  // inner element runs past outer
        expectRejected("1f", .derTruncated)
        expectRejected("1f81", .derTruncated)
    }

    @Test func rejectsTrailingBytes() throws {
        expectRejected("02010100", .derTrailingBytes, at: 3)
        var reader = try DERReader(Hex.bytes("3006020101020102"))
        let error = try #require(throws: CryptoError.self) {
            try reader.readSequence { (sequence) throws(CryptoError) in
                try sequence.readInt64()  // leaves the second INTEGER unread
            }
        }
        #expect(error.code == .derTrailingBytes)
        #expect(error.offset == 5)
        expectCryptoError(.derTrailingBytes) {
            var explicit = try DERReader(Hex.bytes("a006020101020102"))
            _ = try explicit.readExplicit(0) { (inner) throws(CryptoError) in
                try inner.readInt64()
            }
        }
    }

    @Test func rejectsTheReservedLengthOctet() {
        expectRejected("02ff01", .derInvalidValue, at: 1)
    }

    @Test func rejectsOversizedLengths() {
        expectRejected("04890100000000000000000000", .derLimitExceeded, at: 1)
        expectRejected("0488ffffffffffffffff", .derLimitExceeded, at: 1)
        expectRejected("04880000000100000000", .derNonMinimalEncoding, at: 1)
        expectRejected("04847fffffff", .derTruncated, at: 0)
    }

    @Test func readsHighTagNumbers() throws {
        let element = try DERReader.singleElement(Hex.bytes("9f1f0105"))
        #expect(element.tag == DERTag(.contextSpecific, number: 31, constructed: false))
        let large = try DERReader.singleElement(Hex.bytes("7f8f7f00"))
        #expect(large.tag == DERTag(.application, number: 0x7ff, constructed: true))
        expectRejected("1f1e00", .derNonMinimalEncoding, at: 0)  // 30 fits the short form
        expectRejected("1f800100", .derNonMinimalEncoding, at: 0)  // leading 0x80
        expectRejected("1f9080808000" + "00", .derLimitExceeded, at: 0)  // above UInt32.max
    }

    @Test func limitsDepthAndSize() throws {
        let depth = 40
        var nested: [UInt8] = [0x05, 0x00]
        for _ in 0..<depth { nested = [0x30, UInt8(nested.count)] + nested }
        expectCryptoError(.derLimitExceeded) {
            try DERReader.validate(nested[...], limits: DERReader.Limits(maximumDepth: 32))
        }
        try DERReader.validate(nested[...], limits: DERReader.Limits(maximumDepth: 40))
        expectCryptoError(.derLimitExceeded) {
            try DERReader(
                [UInt8](repeating: 0, count: 65), limits: DERReader.Limits(maximumSize: 64))
        }
    }

    @Test func checksTagsOnTypedReads() throws {
        expectCryptoError(.derUnexpectedTag) {
            var reader = try DERReader(Hex.bytes("040101"))
            _ = try reader.readInteger()
        }
        // DER forbids the constructed form of OCTET STRING.
        expectCryptoError(.derUnexpectedTag) {
            var reader = try DERReader(Hex.bytes("2403040101"))
            _ = try reader.readOctetString()
        }
        expectCryptoError(.derUnexpectedTag) {
            var reader = try DERReader(Hex.bytes("0403010203"))
            _ = try reader.nestedReader(reader.readElement())
        }
        var reader = try DERReader(Hex.bytes("020105"))
        #expect(try reader.peekTag() == .integer)
        #expect(try reader.readOptionalElement(.boolean) == nil)
        #expect(try reader.readInt64() == 5)
        #expect(try reader.peekTag() == nil)
        #expect(reader.isAtEnd)
    }

    // MARK: Values

    @Test func decodesIntegers() throws {
        for (hex, value) in [
            ("020100", Int64(0)), ("02017f", 127), ("02020080", 128), ("020180", -128),
            ("0202ff7f", -129), ("02087fffffffffffffff", Int64.max),
            ("02088000000000000000", Int64.min),
        ] {
            var reader = try DERReader(Hex.bytes(hex))
            #expect(try reader.readInt64() == value, "\(hex)")
        }
        var big = try DERReader(Hex.bytes("0209008000000000000000"))
        #expect(Array(try big.readInteger()) == Hex.bytes("008000000000000000"))
        expectCryptoError(.derLimitExceeded) {
            var reader = try DERReader(Hex.bytes("0209008000000000000000"))
            _ = try reader.readInt64()
        }
        expectCryptoError(.derInvalidValue) {
            var empty = try DERReader(Hex.bytes("0200"))
            _ = try empty.readInteger()
        }
        var reader = try DERReader(Hex.bytes("02020001"))
        let error = try #require(throws: CryptoError.self) { try reader.readInteger() }
        #expect(error.code == .derNonMinimalEncoding)
        #expect(error.offset == 2)
        expectCryptoError(.derNonMinimalEncoding) {
            var negative = try DERReader(Hex.bytes("0202ff80"))
            _ = try negative.readInteger()
        }
        var enumerated = try DERReader(Hex.bytes("0a0102"))
        #expect(try enumerated.readEnumerated() == 2)
    }

    @Test func decodesBooleansAndNull() throws {
        var reader = try DERReader(Hex.bytes("0101ff0101000500"))
        #expect(try reader.readBoolean())
        #expect(try !reader.readBoolean())
        try reader.readNull()
        for bad in ["010101", "01020000", "0100"] {
            expectCryptoError(.derInvalidValue) {
                var bool = try DERReader(Hex.bytes(bad))
                _ = try bool.readBoolean()
            }
        }
        expectCryptoError(.derInvalidValue) {
            var null = try DERReader(Hex.bytes("050100"))
            try null.readNull()
        }
    }

    @Test func decodesBitStrings() throws {
        var reader = try DERReader(Hex.bytes("03020106"))
        let bits = try reader.readBitString()
        #expect(bits.unusedBitCount == 1)
        #expect(bits.bitCount == 7)
        #expect(bits.isSet(5) && bits.isSet(6) && !bits.isSet(0) && !bits.isSet(7))
        var empty = try DERReader(Hex.bytes("030100"))
        #expect(try empty.readBitString().bitCount == 0)
        for bad in ["0300", "03020801", "03020101", "030107"] {
            expectCryptoError(.derInvalidValue) {
                var bitString = try DERReader(Hex.bytes(bad))
                _ = try bitString.readBitString()
            }
        }
    }

    @Test func decodesObjectIdentifiers() throws {
        var reader = try DERReader(Hex.bytes("06092a864886f70d01010b"))
        #expect(try reader.readObjectIdentifier() == .sha256WithRSAEncryption)
        var fido = try DERReader(Hex.bytes("060b2b0601040182e51c010104"))
        #expect(try fido.readObjectIdentifier().dotted == "1.3.6.1.4.1.45724.1.1.4")
        var joint = try DERReader(Hex.bytes("0603883703"))  // 2.999.3
        #expect(try joint.readObjectIdentifier().components == [2, 999, 3])
        var maximum = try DERReader(Hex.bytes("060b2a81ffffffffffffffff7f"))
        #expect(try maximum.readObjectIdentifier().components == [1, 2, UInt64.max])
    }

    @Test func rejectsMalformedObjectIdentifiers() throws {
        var reader = try DERReader(Hex.bytes("06052b80808001"))
        let overlong = try #require(throws: CryptoError.self) { try reader.readObjectIdentifier() }
        #expect(overlong.code == .derNonMinimalEncoding)
        #expect(overlong.offset == 3)
        for (hex, code) in [
            ("0600", CryptoError.Code.derInvalidValue),  // empty
            ("06022b86", .derInvalidValue),  // last sub-identifier cut off
            ("060b2b82ffffffffffffffff7f", .derLimitExceeded),  // above 64 bits
            ("060c2b81ffffffffffffffffff7f", .derLimitExceeded),
            ("0602802b", .derNonMinimalEncoding),  // leading 0x80 in the first
        ] {
            expectCryptoError(code) {
                var oid = try DERReader(Hex.bytes(hex))
                _ = try oid.readObjectIdentifier()
            }
        }
    }

    @Test func decodesStrings() throws {
        var reader = try DERReader(
            Hex.bytes(
                "0c03e282ac" + "13024141" + "1603612e62" + "1e0400e900e9" + "1c04000000e9"
                    + "14016e" + "1202313b"))
        #expect(try reader.readString() == "€")
        #expect(try reader.readString() == "AA")
        #expect(try reader.readString() == "a.b")
        #expect(try reader.readString() == "éé")
        #expect(try reader.readString() == "é")
        #expect(try reader.readString() == "n")
        expectCryptoError(.derInvalidValue) { _ = try reader.readString() }  // NumericString ';'
        for bad in ["0c01ff", "130140", "160180", "1e0100", "1e02d800", "1c0400110000", "1a0107"] {
            expectCryptoError(.derInvalidValue) {
                var string = try DERReader(Hex.bytes(bad))
                _ = try string.readString()
            }
        }
        expectCryptoError(.derUnexpectedTag) {
            var notString = try DERReader(Hex.bytes("020101"))
            _ = try notString.readString()
        }
        var implicit = try DERReader(Hex.bytes("8203612e62"))
        #expect(
            try implicit.readString(tag: .contextSpecific(2, constructed: false), as: .ia5String)
                == "a.b")
    }

    @Test func decodesTimes() throws {
        for (hex, seconds) in [
            ("170d3234303130313030303030305a", Int64(1_704_067_200)),  // 240101000000Z
            ("170d3439313233313233353935395a", 2_524_607_999),  // 2049-12-31T23:59:59Z
            ("170d3530303130313030303030305a", -631_152_000),  // 1950-01-01
            ("180f33303234303130313030303030305a", 33_260_976_000),  // 3024-01-01
            ("180f31393730303130313030303030305a", 0),
            ("180f32303234303232393132333435365a", 1_709_210_096),  // leap day
        ] {
            var reader = try DERReader(Hex.bytes(hex))
            #expect(try reader.readTime() == seconds, "\(hex)")
        }
        for bad in [
            "170b323430313031303030305a",  // no seconds
            "1711323430313031303030303030" + "2b30313030",  // +0100 offset
            "170d3234303233303030303030305a",  // February 30
            "170d3233303232393030303030305a",  // 2023 is no leap year
            "170d3234313330313030303030305a",  // month 13
            "170d3234303130313234303030305a",  // hour 24
            "170d3234303130313030303036305a",  // second 60
            "180d3234303130313030303030305a",  // UTCTime digits as GeneralizedTime
            "1811" + "32303234303130313030303030302e355a",  // fraction
            "170d32343031303130303030303041",  // no Z
        ] {
            expectCryptoError(.derInvalidValue) {
                var time = try DERReader(Hex.bytes(bad))
                _ = try time.readTime()
            }
        }
        expectCryptoError(.derUnexpectedTag) {
            var notTime = try DERReader(Hex.bytes("0c0131"))
            _ = try notTime.readTime()
        }
    }

    @Test func reportsOffsetsFromTheStartOfTheOutermostInput() throws {
        // SEQUENCE { INTEGER 1, SEQUENCE { BOOLEAN 02 } }: the bad BOOLEAN's contents are at 7.
        var reader = try DERReader(Hex.bytes("3008020101300301" + "0102"))
        let error = try #require(throws: CryptoError.self) {
            try reader.readSequence { (outer) throws(CryptoError) in
                _ = try outer.readInt64()
                try outer.readSequence { (inner) throws(CryptoError) in
                    _ = try inner.readBoolean()
                }
            }
        }
        #expect(error.code == .derInvalidValue)
        #expect(error.offset == 9)
    }

    @Test func neverTrapsOnMutatedCertificates() throws {
        let der = try X509TestVectors.w3cRoot()
        var rejected = 0
        for index in der.indices {
            for value: UInt8 in [0x00, 0x80, 0xff] {
                var mutated = der
                mutated[index] = value
                do {
                    try DERReader.validate(mutated[...])
                } catch {
                    rejected += 1
                }
            }
        }
        #expect(rejected > 0)
        try DERReader.validate(der[...])
    }
}
