import Fido2Encoding
import Testing

/// One malformed document and the error the reader must report for it.
struct MalformedJSON: CustomTestStringConvertible, Sendable {
    let bytes: [UInt8]
    let code: Fido2EncodingError.Code
    let offset: Int
    let note: String

    init(_ text: String, _ code: Fido2EncodingError.Code, at offset: Int, _ note: String = "") {
        self.bytes = Array(text.utf8)
        self.code = code
        self.offset = offset
        self.note = note
    }

    init(bytes: [UInt8], _ code: Fido2EncodingError.Code, at offset: Int, _ note: String) {
        self.bytes = bytes
        self.code = code
        self.offset = offset
        self.note = note
    }

    var testDescription: String {
        note.isEmpty ? String(decoding: bytes, as: UTF8.self) : note
    }
}

let malformedDocuments: [MalformedJSON] = [
    // Truncation.
    MalformedJSON("", .truncated, at: 0, "empty input"),
    MalformedJSON("   ", .truncated, at: 3, "only whitespace"),
    MalformedJSON("{", .truncated, at: 1),
    MalformedJSON("{\"a\"", .truncated, at: 4),
    MalformedJSON("{\"a\":", .truncated, at: 5),
    MalformedJSON("{\"a\":1", .truncated, at: 6),
    MalformedJSON("[1,", .truncated, at: 3),
    MalformedJSON("[1", .truncated, at: 2),
    MalformedJSON("\"abc", .truncated, at: 4),
    MalformedJSON("\"ab\\n", .truncated, at: 5, "string with escape, unterminated"),
    MalformedJSON("\"ab\\", .truncated, at: 4, "backslash at the end"),
    MalformedJSON("tru", .truncated, at: 3),
    MalformedJSON("-", .truncated, at: 1),
    MalformedJSON("1.", .truncated, at: 2),
    MalformedJSON("1e", .truncated, at: 2),
    MalformedJSON("1e+", .truncated, at: 3),
    MalformedJSON("\"\\u12", .truncated, at: 5),
    MalformedJSON("\"\\ud800", .truncated, at: 7, "high surrogate at the end"),
    MalformedJSON(bytes: [0x22, 0xE2, 0x82], .truncated, at: 3, "input ends inside UTF-8"),
    // Unexpected characters.
    MalformedJSON("[1 2]", .unexpectedCharacter, at: 3),
    MalformedJSON("{\"a\" 1}", .unexpectedCharacter, at: 5),
    MalformedJSON("{\"a\":1,}", .unexpectedCharacter, at: 7, "trailing comma in object"),
    MalformedJSON("[1,]", .unexpectedCharacter, at: 3, "trailing comma in array"),
    MalformedJSON("{a:1}", .unexpectedCharacter, at: 1, "unquoted name"),
    MalformedJSON("{\"a\":1 \"b\":2}", .unexpectedCharacter, at: 7, "missing comma"),
    MalformedJSON("'a'", .unexpectedCharacter, at: 0, "single quotes"),
    MalformedJSON("trux", .unexpectedCharacter, at: 3),
    MalformedJSON("nulL", .unexpectedCharacter, at: 3),
    MalformedJSON("NaN", .unexpectedCharacter, at: 0),
    MalformedJSON("+1", .unexpectedCharacter, at: 0),
    MalformedJSON(".5", .unexpectedCharacter, at: 0),
    MalformedJSON("// c\n1", .unexpectedCharacter, at: 0, "comment"),
    MalformedJSON("\u{FEFF}1", .unexpectedCharacter, at: 0, "byte-order mark"),
    MalformedJSON("[\u{A0}1]", .unexpectedCharacter, at: 1, "non-JSON whitespace"),
    MalformedJSON(bytes: [0xC3, 0xA9], .unexpectedCharacter, at: 0, "UTF-8 outside a string"),
    // Strings.
    MalformedJSON("\"\\x\"", .invalidEscape, at: 1),
    MalformedJSON("\"ab\\'\"", .invalidEscape, at: 3),
    MalformedJSON("\"\\u12G4\"", .invalidEscape, at: 1),
    MalformedJSON("\"\\U0041\"", .invalidEscape, at: 1),
    MalformedJSON("\"\\ud800\"", .loneSurrogate, at: 1, "lone high surrogate"),
    MalformedJSON("\"\\udc00\"", .loneSurrogate, at: 1, "lone low surrogate"),
    MalformedJSON("\"x\\ud800\\u0041\"", .loneSurrogate, at: 2, "high surrogate, then no low"),
    MalformedJSON("\"\\ud800\\ud800\"", .loneSurrogate, at: 1, "two high surrogates"),
    MalformedJSON("\"\u{01}\"", .controlCharacterInString, at: 1),
    MalformedJSON("\"a\nb\"", .controlCharacterInString, at: 2, "raw newline"),
    MalformedJSON("\"\\n\u{1F}\"", .controlCharacterInString, at: 3, "raw control after escape"),
    MalformedJSON(bytes: [0x22, 0xC3, 0x28, 0x22], .invalidUTF8, at: 1, "bad continuation"),
    MalformedJSON(bytes: [0x22, 0xC0, 0xAF, 0x22], .invalidUTF8, at: 1, "overlong 2 bytes"),
    MalformedJSON(bytes: [0x22, 0xE0, 0x80, 0xAF, 0x22], .invalidUTF8, at: 1, "overlong 3 bytes"),
    MalformedJSON(bytes: [0x22, 0xED, 0xA0, 0x80, 0x22], .invalidUTF8, at: 1, "encoded surrogate"),
    MalformedJSON(
        bytes: [0x22, 0xF4, 0x90, 0x80, 0x80, 0x22], .invalidUTF8, at: 1, "above U+10FFFF"),
    MalformedJSON(
        bytes: [0x22, 0xF5, 0x80, 0x80, 0x80, 0x22], .invalidUTF8, at: 1, "lead byte F5"),
    MalformedJSON(bytes: [0x22, 0x61, 0x80, 0x22], .invalidUTF8, at: 2, "stray continuation"),
    MalformedJSON(bytes: [0x22, 0x5C, 0x6E, 0xFF, 0x22], .invalidUTF8, at: 3, "0xFF after escape"),
    // Numbers.
    MalformedJSON("01", .leadingZero, at: 0),
    MalformedJSON("-01", .leadingZero, at: 1),
    MalformedJSON("[00]", .leadingZero, at: 1),
    MalformedJSON("-a", .invalidNumber, at: 1),
    MalformedJSON("1.e5", .invalidNumber, at: 2),
    MalformedJSON("1ex", .invalidNumber, at: 2),
    MalformedJSON("[-]", .invalidNumber, at: 2),
    // Trailing content.
    MalformedJSON("1 2", .trailingContent, at: 2),
    MalformedJSON("{} x", .trailingContent, at: 3),
    MalformedJSON("\"a\"\"b\"", .trailingContent, at: 3),
    MalformedJSON("1x", .trailingContent, at: 1),
    // Duplicates.
    MalformedJSON("{\"a\":1,\"a\":2}", .duplicateMemberName, at: 7),
    MalformedJSON("{\"a\":{\"b\":1,\"b\":1}}", .duplicateMemberName, at: 12, "nested duplicate"),
    MalformedJSON("{\"\\u0061\":1,\"a\":2}", .duplicateMemberName, at: 12, "escaped duplicate"),
]

@Test(arguments: malformedDocuments)
func rejectsMalformedDocumentsWithCodeAndOffset(_ document: MalformedJSON) {
    do {
        let value = try JSONReader().read(document.bytes)
        Issue.record("accepted as \(value)")
    } catch let error as Fido2EncodingError {
        #expect(error.code == document.code, "\(error)")
        #expect(error.offset == document.offset, "\(error)")
    } catch {
        Issue.record("expected a Fido2EncodingError, got \(error)")
    }
}

@Test func rejectsDuplicateMemberNamesInLargeObjects() {
    var text = "{"
    for index in 0..<30 { text += "\"m\(index)\":\(index)," }
    text += "\"m7\":0}"
    #expect(readError(text)?.code == .duplicateMemberName)
}

@Test func keepsCanonicallyEquivalentButDifferentNamesApart() throws {
    // "é" precomposed and "e" + combining acute are different JSON names.
    let value = try JSONReader().read("{\"\u{E9}\":1,\"e\u{301}\":2}")
    #expect(value.objectValue?.count == 2)
    #expect(value["\u{E9}"]?.int64Value == 1)
    #expect(value["e\u{301}"]?.int64Value == 2)
}

@Test func admitsDuplicateMemberNamesWhenAllowedAndKeepsTheLast() throws {
    let reader = JSONReader(options: .init(allowsDuplicateMemberNames: true))
    let value = try reader.read("{\"a\":1,\"b\":0,\"a\":2}")
    #expect(value.objectValue?.count == 3)
    #expect(value["a"]?.int64Value == 2)
}

@Test func enforcesTheDepthLimit() throws {
    let deepest = String(repeating: "[", count: 64) + String(repeating: "]", count: 64)
    #expect(readError(deepest) == nil)
    let tooDeep = String(repeating: "[", count: 65) + String(repeating: "]", count: 65)
    let error = readError(tooDeep)
    #expect(error?.code == .depthExceeded)
    #expect(error?.offset == 64)
    let objects = String(repeating: "{\"a\":", count: 3) + "1}}}"
    let shallow = JSONReader(options: .init(maximumDepth: 2))
    #expect(throws: Fido2EncodingError.self) { try shallow.read(objects) }
}

@Test func capsTheDepthLimitSoTheStackCannotOverflow() {
    let reader = JSONReader(options: .init(maximumDepth: .max))
    let text = String(repeating: "[", count: 100_000)
    do {
        _ = try reader.read(text)
        Issue.record("accepted 100,000 open brackets")
    } catch let error as Fido2EncodingError {
        #expect(error.code == .depthExceeded)
        #expect(error.offset == 512)
    } catch {
        Issue.record("expected a Fido2EncodingError, got \(error)")
    }
}

@Test func enforcesTheInputSizeLimit() {
    let reader = JSONReader(options: .init(maximumInputLength: 3))
    #expect((try? reader.read("[1]")) != nil)
    do {
        _ = try reader.read("[1] ")
        Issue.record("accepted an oversize input")
    } catch let error as Fido2EncodingError {
        #expect(error.code == .inputTooLarge)
    } catch {
        Issue.record("expected a Fido2EncodingError, got \(error)")
    }
}

@Test func enforcesTheItemLimit() {
    let reader = JSONReader(options: .init(maximumItemCount: 3))
    #expect((try? reader.read("[1,2]")) != nil)
    do {
        _ = try reader.read("[1,2,3]")
        Issue.record("accepted too many items")
    } catch let error as Fido2EncodingError {
        #expect(error.code == .tooManyItems)
        #expect(error.offset == 5)
    } catch {
        Issue.record("expected a Fido2EncodingError, got \(error)")
    }
}

@Test func enforcesTheStringLengthLimitAfterUnescaping() {
    let reader = JSONReader(options: .init(maximumStringLength: 3))
    #expect((try? reader.read("\"abc\"")) != nil)
    #expect((try? reader.read("\"ab\\n\"")) != nil)
    #expect((try? reader.read("{\"abc\":1}")) != nil)
    for text in ["\"abcd\"", "\"ab\\nc\"", "{\"abcd\":1}", "\"\\u00e9\\u00e9\""] {
        do {
            _ = try reader.read(text)
            Issue.record("accepted a long string: \(text)")
        } catch let error as Fido2EncodingError {
            #expect(error.code == .stringTooLong, "\(text)")
        } catch {
            Issue.record("expected a Fido2EncodingError, got \(error)")
        }
    }
}

@Test func describesErrorsWithCodeOffsetAndReason() {
    let error = readError("[1 2]")
    #expect(error?.description.hasPrefix("unexpectedCharacter at offset 3: '2'") == true)
}

private func readError(_ text: String) -> Fido2EncodingError? {
    do {
        _ = try JSONReader().read(text)
        return nil
    } catch {
        return error as? Fido2EncodingError
    }
}

@Test func findsSpecialBytesAtEveryPositionOfTheWordScan() throws {
    // The string scanner checks eight bytes at a time; put each kind of byte that needs
    // attention at every offset of a long string.
    for position in 0..<24 {
        var plain = [UInt8](repeating: UInt8(ascii: "a"), count: 24)
        plain[position] = 0x1F
        let control = [0x22] + plain + [0x22]
        do {
            _ = try JSONReader().read(control)
            Issue.record("accepted a raw control character at \(position)")
        } catch let error as Fido2EncodingError {
            #expect(error.code == .controlCharacterInString)
            #expect(error.offset == position + 1)
        } catch {
            Issue.record("expected a Fido2EncodingError, got \(error)")
        }
        var escaped = [UInt8](repeating: UInt8(ascii: "b"), count: 24)
        escaped.replaceSubrange(position..<position + 1, with: Array(#"\""#.utf8))
        let withEscape = try JSONReader().read([0x22] + escaped + [0x22])
        #expect(withEscape.stringValue?.utf8.count == 24)
        #expect(withEscape.stringValue?.utf8.dropFirst(position).first == UInt8(ascii: "\""))
        var accented = [UInt8](repeating: UInt8(ascii: "c"), count: 24)
        accented.replaceSubrange(position..<position + 1, with: Array("é".utf8))
        #expect(
            try JSONReader().read([0x22] + accented + [0x22]).stringValue?.contains("é") == true)
        let short = Array(String(repeating: "d", count: position).utf8)
        #expect(
            try JSONReader().read([0x22] + short + [0x22, 0x20]).stringValue?.utf8.count == position
        )
        var invalid = [UInt8](repeating: UInt8(ascii: "e"), count: 24)
        invalid[position] = 0xFF
        do {
            _ = try JSONReader().read([0x22] + invalid + [0x22])
            Issue.record("accepted byte 0xFF at \(position)")
        } catch let error as Fido2EncodingError {
            #expect(error.code == .invalidUTF8)
            #expect(error.offset == position + 1)
        } catch {
            Issue.record("expected a Fido2EncodingError, got \(error)")
        }
    }
}
