import Fido2CBOR
import Fido2Encoding
import Fido2TestSupport
import Testing

/// Each chunk of an indefinite-length text string is a text string of its own, so a code point
/// may not be split across chunks (RFC 8949 §3.2.3). Found by the `cbor-libcbor` differential
/// fuzz target: the joined bytes were validated, not each chunk, and libcbor rightly refused.
struct TextChunkTests {
    /// "stre" + U+14D5 + "ng", with U+14D5's three bytes split 1 + 2 across two chunks.
    static let split = Hex.bytes("7f6066646f2d7532666573747265e16493956e67ff")
    /// The same text with the code point whole in the second chunk.
    static let whole = Hex.bytes("7f6066646f2d7532666773747265e19395626e67ff")

    @Test func aCodePointSplitAcrossChunksIsNotText() {
        let error = #expect(throws: CBORError.self) {
            try CBORValue.decode(Self.split, options: .lenient)
        }
        #expect(error?.code == .invalidUTF8)
        #expect(error?.offset == 9)
    }

    @Test func readTextStringRefusesTheSplitButTheRawBytesAreStillReadable() throws {
        var reader = try CBORReader(Self.split, options: .lenient)
        let error = #expect(throws: CBORError.self) { try reader.readTextString() }
        #expect(error?.code == .invalidUTF8)
        var raw = try CBORReader(Self.split, options: .lenient)
        #expect(Array(try raw.readTextStringBytes()) == Array("do-u2fstre\u{14D5}ng".utf8))
    }

    @Test func chunksOnCodePointBoundariesJoin() throws {
        #expect(
            try CBORValue.decode(Self.whole, options: .lenient)
                == .textString("do-u2fstre\u{14D5}ng"))
    }

    @Test func theValidatorChecksEachChunkWhenAskedForUTF8() {
        let options = CBORDecodingOptions(checks: [.validUTF8])
        let error = #expect(throws: CBORError.self) { try CBORReader(Self.split, options: options) }
        #expect(error?.code == .invalidUTF8)
    }
}
