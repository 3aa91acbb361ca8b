import Fido2Encoding
import PropertyBased
import Testing

/// RFC 4648 §10 vectors: (input, padded base64).
private let rfc4648Vectors: [(String, String)] = [
    ("", ""), ("f", "Zg=="), ("fo", "Zm8="), ("foo", "Zm9v"), ("foob", "Zm9vYg=="),
    ("fooba", "Zm9vYmE="), ("foobar", "Zm9vYmFy"),
]

@Test func encodesRFC4648VectorsWithPadding() {
    for (input, expected) in rfc4648Vectors {
        #expect(Base64.encode(Array(input.utf8)) == expected)
        #expect(Base64.encodedCount(ofByteCount: input.utf8.count) == expected.utf8.count)
    }
}

@Test func decodesRFC4648VectorsWithPadding() throws {
    for (expected, text) in rfc4648Vectors {
        #expect(try Base64.decode(text) == Array(expected.utf8))
    }
}

@Test func usesTheStandardAlphabet() throws {
    #expect(Base64.encode([0xFB, 0xFF]) == "+/8=")
    #expect(Base64.encode([0xFF, 0xFE, 0xFD, 0xFC]) == "//79/A==")
    #expect(try Base64.decode("FPucA9l+") == [0x14, 0xFB, 0x9C, 0x03, 0xD9, 0x7E])
    #expect(base64Error("FPucA9l-")?.code == .invalidCharacter)
}

@Test func requiresPadding() {
    let error = base64Error("Zg")
    #expect(error?.code == .invalidLength)
    #expect(error?.offset == 2)
    #expect(base64Error("Zm8")?.code == .invalidLength)
    #expect(base64Error("Zg=")?.code == .invalidPadding)
    #expect(base64Error("Zm9v=")?.code == .invalidPadding)
}

@Test func rejectsNonZeroTrailingBitsBeforePadding() {
    let error = base64Error("Zh==")
    #expect(error?.code == .nonZeroTrailingBits)
    #expect(error?.offset == 1)
}

@Test func rejectsWhitespaceUnlessAsked() throws {
    #expect(base64Error("Zm9v\nYmFy")?.offset == 4)
    #expect(try Base64.decode("Zm9v\r\nYmFy\n", ignoringWhitespace: true) == Array("foobar".utf8))
    #expect(try Base64.decode(" Zm 9v Yg = = ", ignoringWhitespace: true) == Array("foob".utf8))
}

@Test func reportsOffsetsInTheOriginalTextWhenSkippingWhitespace() {
    do {
        _ = try Base64.decode("Zm9v\nYm!y", ignoringWhitespace: true)
        Issue.record("accepted an invalid character")
    } catch let error as Fido2EncodingError {
        #expect(error.code == .invalidCharacter)
        #expect(error.offset == 7)
    } catch {
        Issue.record("expected a Fido2EncodingError, got \(error)")
    }
}

@Test func wrapsLinesForPEM() {
    let bytes = [UInt8](repeating: 0xAB, count: 100)
    let wrapped = Base64.encode(bytes, lineLength: 64)
    let lines = wrapped.split(separator: "\n", omittingEmptySubsequences: false)
    #expect(lines.count == 4)  // 136 characters: 64 + 64 + 8, then the final empty piece
    #expect(lines[0].count == 64 && lines[1].count == 64 && lines[2].count == 8)
    #expect(lines[3].isEmpty)
    #expect(Base64.encode(Array("foo".utf8), lineLength: 0) == "Zm9v\n")
    #expect(Base64.encode([UInt8](), lineLength: 64) == "")
    #expect(Base64.encode(Array("foo".utf8), lineLength: .max) == "Zm9v\n")
}

@Test func roundTripsRandomBytesThroughStandardBase64() async {
    await propertyCheck(count: 300, input: Gen<UInt8>.value(in: 0...255).array(of: 0...80)) {
        bytes in
        let text = Base64.encode(bytes)
        #expect(text.utf8.count % 4 == 0)
        #expect((try? Base64.decode(text)) == bytes)
        let wrapped = Base64.encode(bytes, lineLength: 16)
        #expect((try? Base64.decode(wrapped, ignoringWhitespace: true)) == bytes)
    }
}

private func base64Error(_ text: String) -> Fido2EncodingError? {
    do {
        _ = try Base64.decode(text)
        return nil
    } catch {
        return error as? Fido2EncodingError
    }
}
