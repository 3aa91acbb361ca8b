import Fido2Encoding
import PropertyBased
import Testing

/// RFC 4648 §10 vectors: (input, base64url without padding).
private let rfc4648URLVectors: [(String, String)] = [
    ("", ""), ("f", "Zg"), ("fo", "Zm8"), ("foo", "Zm9v"), ("foob", "Zm9vYg"),
    ("fooba", "Zm9vYmE"), ("foobar", "Zm9vYmFy"),
]

@Test func encodesRFC4648VectorsWithoutPadding() {
    for (input, expected) in rfc4648URLVectors {
        #expect(Base64URL.encode(Array(input.utf8)) == expected)
        #expect(Base64URL.encodedCount(ofByteCount: input.utf8.count) == expected.utf8.count)
    }
}

@Test func decodesRFC4648Vectors() throws {
    for (expected, text) in rfc4648URLVectors {
        #expect(try Base64URL.decode(text) == Array(expected.utf8))
    }
}

@Test func usesTheURLSafeAlphabet() throws {
    #expect(Base64URL.encode([0xFB, 0xFF]) == "-_8")
    #expect(Base64URL.encode([0xFB, 0xEF, 0xBE]) == "----")
    #expect(Base64URL.encode([0xFF, 0xFE, 0xFD, 0xFC]) == "__79_A")
    #expect(try Base64URL.decode("FPucA9l-") == [0x14, 0xFB, 0x9C, 0x03, 0xD9, 0x7E])
}

@Test func appendsEncodingToAnExistingBuffer() {
    var output = Array("x=".utf8)
    Base64URL.encode([0x66, 0x6F], appendingTo: &output)
    #expect(output == Array("x=Zm8".utf8))
}

@Test func toleratesExactPaddingOnly() throws {
    #expect(try Base64URL.decode("Zg==") == [0x66])
    #expect(try Base64URL.decode("Zm8=") == [0x66, 0x6F])
    for bad in ["Zg=", "Zg===", "Zm9v=", "Zm9v==", "=", "Zm8==", "Zg==Zg=="] {
        #expect(decodeError(bad)?.code == .invalidPadding, "\(bad)")
    }
}

@Test func reportsPaddingInsideTheDataAtItsOffset() {
    #expect(decodeError("Zg==Zg==")?.offset == 2)
    #expect(decodeError("Zm9v====")?.offset == 4)
}

@Test func rejectsCharactersOutsideTheAlphabetWithTheirOffset() {
    let cases: [(String, Int)] = [
        ("Zm!v", 2), ("Zm9v+A", 4), ("Zm9v/A", 4), ("Zm 9", 2), ("Zé", 1),
    ]
    for (text, offset) in cases {
        let error = decodeError(text)
        #expect(error?.code == .invalidCharacter, "\(text)")
        #expect(error?.offset == offset, "\(text)")
    }
}

@Test func rejectsAnImpossibleLength() {
    for text in ["Z", "Zm9vY", "Zm9vYmFyZ"] {
        #expect(decodeError(text)?.code == .invalidLength, "\(text)")
    }
}

@Test func rejectsNonZeroTrailingBits() {
    // "Zh" would decode to 0x66 but leaves the low bits of 'h' set; "Zm9" likewise for "fo".
    for (text, offset) in [("Zh", 1), ("Zm9", 2), ("Zm9vYh", 5)] {
        let error = decodeError(text)
        #expect(error?.code == .nonZeroTrailingBits, "\(text)")
        #expect(error?.offset == offset, "\(text)")
    }
}

@Test func decodesFromANonContiguousCollection() throws {
    let text = Array("Zm9vYmFy".utf8).lazy.map { $0 }
    #expect(try Base64URL.decode(utf8: text) == Array("foobar".utf8))
}

@Test func roundTripsRandomBytes() async {
    await propertyCheck(count: 300, input: Gen<UInt8>.value(in: 0...255).array(of: 0...80)) {
        bytes in
        let text = Base64URL.encode(bytes)
        #expect(!text.contains("="))
        #expect(text.utf8.count == Base64URL.encodedCount(ofByteCount: bytes.count))
        #expect((try? Base64URL.decode(text)) == bytes)
    }
}

@Test func acceptsExactlyOneTextPerByteString() async {
    // Flipping any trailing bit of the last character must be rejected, never decode to the
    // same bytes: each byte string has one accepted text.
    await propertyCheck(count: 200, input: Gen<UInt8>.value(in: 0...255).array(of: 1...40)) {
        bytes in
        guard bytes.count % 3 != 0 else { return }
        var text = Array(Base64URL.encode(bytes).utf8)
        let last = text.count - 1
        let alphabet = Array(
            "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_".utf8)
        guard let value = alphabet.firstIndex(of: text[last]) else {
            Issue.record("encoder wrote a byte outside the alphabet")
            return
        }
        text[last] = alphabet[value | 1]
        #expect(throws: Fido2EncodingError.self) { try Base64URL.decode(utf8: text) }
    }
}

private func decodeError(_ text: String) -> Fido2EncodingError? {
    do {
        _ = try Base64URL.decode(text)
        return nil
    } catch {
        return error as? Fido2EncodingError
    }
}

@Test func appendsLongInputsInChunksIdenticalToOneShotEncoding() {
    for count in [0, 1, 2, 767, 768, 769, 770, 1535, 1536, 1537, 3001] {
        let bytes = (0..<count).map { UInt8(truncatingIfNeeded: $0 &* 151 &+ 7) }
        var appended = Array("p".utf8)
        Base64URL.encode(bytes, appendingTo: &appended)
        #expect(appended == Array("p".utf8) + Array(Base64URL.encode(bytes).utf8), "\(count)")
        var padded: [UInt8] = []
        Base64.encode(bytes[...], appendingTo: &padded)
        #expect(padded == Array(Base64.encode(bytes).utf8), "\(count)")
        #expect((try? Base64URL.decode(utf8: appended.dropFirst())) == bytes, "\(count)")
    }
}
