import Fido2Encoding
import Testing

/// The package's one hexadecimal codec (`Hex`): lower-case output, either case in, whitespace
/// only where the caller allows it, and errors that say where the text went wrong.
@Suite struct HexTests {
    @Test func encodesLowerCase() {
        #expect(Hex.encode([0x00, 0x0f, 0xa5, 0xff]) == "000fa5ff")
        #expect(Hex.encode([UInt8]()) == "")
        #expect(Hex.encode(byte: 0xab) == "ab")
    }

    @Test func decodesEitherCase() throws {
        #expect(try Hex.decode("000fA5Ff") == [0x00, 0x0f, 0xa5, 0xff])
        #expect(try Hex.decode("") == [])
        let all = (0...255).map(UInt8.init)
        #expect(try Hex.decode(Hex.encode(all)) == all)
    }

    @Test func skipsWhitespaceOnlyWhenAsked() throws {
        #expect(
            try Hex.decode("a2 01\n02\t03\r04", ignoringWhitespace: true) == [0xa2, 1, 2, 3, 4])
        let error = try #require(throws: Fido2EncodingError.self) { try Hex.decode("a2 01") }
        #expect(error.code == .invalidCharacter)
        #expect(error.offset == 2)
    }

    @Test func namesTheFirstBadCharacterAndAnOddCount() throws {
        let bad = try #require(throws: Fido2EncodingError.self) {
            try Hex.decode("0a zz", ignoringWhitespace: true)
        }
        #expect(bad.code == .invalidCharacter)
        #expect(bad.offset == 3)
        #expect(bad.reason == "invalid hex character")
        let odd = try #require(throws: Fido2EncodingError.self) { try Hex.decode("abc") }
        #expect(odd.code == .invalidLength)
        #expect(odd.reason == "odd number of hex digits")
    }
}
