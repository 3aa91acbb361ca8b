@_spi(Fido2Internals) import Fido2Encoding
import Fido2TestSupport
import PropertyBased
import Testing

/// Reads any document through the scanner's API into a tree, so the scanner can be compared
/// with the reader.
func walk(_ scanner: inout JSONScanner) throws(Fido2EncodingError) -> JSONValue {
    switch try scanner.peek() {
    case .object:
        try scanner.beginObject()
        var object = JSONObject()
        while let name = try scanner.nextMember() {
            object.append(name.string, try walk(&scanner))
        }
        return .object(object)
    case .array:
        try scanner.beginArray()
        var elements: [JSONValue] = []
        while try scanner.nextElement() {
            elements.append(try walk(&scanner))
        }
        return .array(elements)
    case .string: return .string(try scanner.readString())
    case .number: return .number(try scanner.readNumber())
    case .boolean: return .bool(try scanner.readBool())
    case .null:
        try scanner.readNull()
        return .null
    }
}

private func scanWalking(
    _ bytes: [UInt8], options: JSONReader.Options = .init()
) throws(Fido2EncodingError)
    -> JSONValue
{
    try JSONScanner.scan(bytes, options: options, mapError: { $0 }) {
        (scanner) throws(Fido2EncodingError) in
        try walk(&scanner)
    }
}

private func scanSkipping(_ bytes: [UInt8]) throws(Fido2EncodingError) {
    try JSONScanner.scan(bytes, mapError: { $0 }) {
        (_: inout JSONScanner) throws(Fido2EncodingError) in
    }
}

@Test(arguments: malformedDocuments)
func scannerRejectsWhatTheReaderRejectsAtTheSameOffset(_ document: MalformedJSON) {
    for (label, attempt) in [
        ("walking", { () throws(Fido2EncodingError) in _ = try scanWalking(document.bytes) }),
        ("skipping", { () throws(Fido2EncodingError) in try scanSkipping(document.bytes) }),
    ] as [(String, () throws(Fido2EncodingError) -> Void)] {
        do {
            try attempt()
            Issue.record("\(label): accepted")
        } catch {
            #expect(error.code == document.code, "\(label): \(error)")
            #expect(error.offset == document.offset, "\(label): \(error)")
        }
    }
}

@Test func scannerReadsWhatTheReaderReads() async {
    await propertyCheck(count: 300, input: Gen<UInt64>.value(in: 0...UInt64.max)) { seed in
        var random = SplitMix(seed: seed)
        let bytes = random.jsonValue(depth: 0).serialized()
        #expect((try? scanWalking(bytes)) == (try? JSONReader().read(bytes)))
        #expect((try? scanSkipping(bytes)) != nil)
    }
}

@Test func matchesMemberNamesAgainstLiteralsInPlace() throws {
    let bytes = Array(
        #"{"challenge":"AQID","time\u006fut":5,"rpId":"x","other":[1,{"y":null}]}"#.utf8)
    var seen: [String] = []
    let challenge = try JSONScanner.scan(bytes, mapError: { $0 }) {
        (scanner) throws(Fido2EncodingError) -> [UInt8] in
        var challenge: [UInt8] = []
        try scanner.beginObject()
        while let name = try scanner.nextMember() {
            seen.append(name.description)
            switch name {
            case "challenge": challenge = try scanner.readBase64URL()
            case "timeout": #expect(try scanner.readNumber().int64Value == 5)
            case "rpId": #expect(try scanner.readStringUTF8 { Array($0) } == [UInt8(ascii: "x")])
            default: try scanner.skipValue()
            }
        }
        return challenge
    }
    #expect(challenge == [1, 2, 3])
    #expect(seen == ["challenge", "timeout", "rpId", "other"])
}

@Test func reportsBase64URLErrorsAtTheirOffsetInTheDocument() {
    let bytes = Array(#"{"id":"AQ!D"}"#.utf8)
    do {
        _ = try JSONScanner.scan(bytes, mapError: { $0 }) { (scanner) throws(Fido2EncodingError) in
            try scanner.beginObject()
            _ = try scanner.nextMember()
            return try scanner.readBase64URL()
        }
        Issue.record("accepted invalid base64url")
    } catch {
        #expect(error.code == .invalidCharacter)
        #expect(error.offset == 9)
    }
}

@Test func checksWhatTheBodyLeavesUnread() {
    // The body stops after one member; the rest must still be well-formed and duplicate-free.
    for (text, code) in [
        (#"{"a":1,"b":[1,2}"#, Fido2EncodingError.Code.unexpectedCharacter),
        (#"{"a":1,"a":2}"#, .duplicateMemberName),
        (#"{"a":1} x"#, .trailingContent),
    ] {
        do {
            try JSONScanner.scan(Array(text.utf8), mapError: { $0 }) {
                (scanner) throws(Fido2EncodingError) in
                try scanner.beginObject()
                _ = try scanner.nextMember()
                try scanner.skipValue()
            }
            Issue.record("accepted \(text)")
        } catch {
            #expect(error.code == code, "\(text)")
        }
    }
}

/// Where a failure came from, for the test below.
private enum Origin: Error, Equatable {
    case malformed, scanner, content
}

private func scanFailingOnContent(_ text: String) -> Origin? {
    do {
        try JSONScanner.scan(Array(text.utf8), mapError: { _ in Origin.malformed }) {
            (scanner) throws(Origin) in
            do {
                try scanner.beginObject()
                _ = try scanner.nextMember()
            } catch {
                throw .scanner
            }
            throw .content
        }
        return nil
    } catch {
        return error
    }
}

@Test func prefersReportingMalformedJSONOverTheBodysContentError() {
    #expect(scanFailingOnContent(#"{"a":1}"#) == .content)
    #expect(scanFailingOnContent(#"{"a":[1,}"#) == .malformed)
    #expect(scanFailingOnContent(#"{"a" 1}"#) == .scanner)
}

@Test func rejectsDuplicateNamesInLargeObjectsAndEscapedSpellings() {
    var text = "{"
    for index in 0..<40 { text += "\"m\(index)\":\(index)," }
    text += "\"m3\\u0039\":0}"
    do {
        _ = try scanWalking(Array(text.utf8))
        Issue.record("accepted a duplicate")
    } catch {
        #expect(error.code == .duplicateMemberName)
    }
    let allowed = try? scanWalking(
        Array(#"{"a":1,"\u0061":2}"#.utf8), options: .init(allowsDuplicateMemberNames: true))
    #expect(allowed?.objectValue?.count == 2)
}

/// Small objects take a fast path for names without escapes; a repeat must be found whichever
/// spelling comes first, and names only clash within one object.
@Test func findsRepeatedNamesInSmallObjectsWhateverTheSpelling() {
    for text in [
        #"{"\u0061":1,"a":2}"#, #"{"a":1,"\u0061":2}"#, #"{"ab":1,"a":2,"ab":3}"#,
        #"{"a":{"a":1},"a":2}"#, #"{"x":[{"k":1,"k":2}]}"#,
    ] {
        do {
            _ = try scanWalking(Array(text.utf8))
            Issue.record("accepted a repeated name in \(text)")
        } catch {
            #expect(error.code == .duplicateMemberName, "\(text)")
        }
    }
    for text in [#"{"a":{"a":1},"b":{"a":2}}"#, #"{"a":1,"ab":2,"b":3,"\u0062a":4}"#] {
        #expect(throws: Never.self, "\(text)") { _ = try scanWalking(Array(text.utf8)) }
    }
}

@Test func enforcesLimitsWhileScanning() {
    let deep = Array((String(repeating: "[", count: 65) + String(repeating: "]", count: 65)).utf8)
    #expect(throws: Fido2EncodingError.self) { try scanWalking(deep) }
    let many = Array("[1,2,3]".utf8)
    do {
        _ = try scanWalking(many, options: .init(maximumItemCount: 3))
        Issue.record("accepted too many items")
    } catch {
        #expect(error.code == .tooManyItems)
        #expect(error.offset == 5)
    }
    do {
        _ = try scanWalking(Array("[1] ".utf8), options: .init(maximumInputLength: 3))
        Issue.record("accepted an oversize input")
    } catch {
        #expect(error.code == .inputTooLarge)
    }
}

@Test func reportsAValueOfAnotherKindWithoutLosingItsPlace() throws {
    let bytes = Array(#"{"a":5,"b":"x"}"#.utf8)
    let result = try JSONScanner.scan(bytes, mapError: { $0 }) {
        (scanner) throws(Fido2EncodingError) -> String in
        try scanner.beginObject()
        _ = try scanner.nextMember()
        do throws(Fido2EncodingError) {
            _ = try scanner.readString()
            Issue.record("read a number as a string")
        } catch {
            #expect(error.code == .unexpectedKind)
            #expect(error.reason == "expected a string, found a number")
            #expect(error.offset == 5)
        }
        #expect(try scanner.readNumber().int64Value == 5)
        _ = try scanner.nextMember()
        return try scanner.readString()
    }
    #expect(result == "x")
}

@Test func refusesMemberAndElementCallsOutsideTheirContainer() {
    for (useMember, text) in [(true, "[1]"), (false, #"{"a":1}"#), (true, "1")] {
        do {
            try JSONScanner.scan(Array(text.utf8), mapError: { $0 }) {
                (scanner) throws(Fido2EncodingError) in
                if text != "1" {
                    if useMember { try scanner.beginArray() } else { try scanner.beginObject() }
                }
                if useMember { _ = try scanner.nextMember() } else { _ = try scanner.nextElement() }
            }
            Issue.record("accepted a misplaced call on \(text)")
        } catch {
            #expect(error.code == .unexpectedCharacter, "\(text)")
        }
    }
}

@Test func decodesBase64URLAndStringsThatUseEscapes() throws {
    let bytes = Array(#"["A\u0051ID","a\nb","A\u002bID"]"#.utf8)
    do {
        try JSONScanner.scan(bytes, mapError: { $0 }) { (scanner) throws(Fido2EncodingError) in
            try scanner.beginArray()
            _ = try scanner.nextElement()
            #expect(try scanner.readBase64URL() == [1, 2, 3])
            _ = try scanner.nextElement()
            #expect(try scanner.readStringUTF8 { Array($0) } == Array("a\nb".utf8))
            _ = try scanner.nextElement()
            _ = try scanner.readBase64URL()
        }
        Issue.record("accepted an escaped '+' in base64url")
    } catch {
        // The escaped text decodes to "A+ID": the error names the string's opening quote.
        #expect(error.code == .invalidCharacter)
        #expect(error.offset == 20)
    }
}

@Test func scannerAndReaderAgreeOnMutatedDocuments() async {
    // Differential check on near-valid input: flip, insert or delete bytes of a valid document
    // and both readers must accept the same value or reject with the same code and offset.
    await propertyCheck(count: 500, input: Gen<UInt64>.value(in: 0...UInt64.max)) { seed in
        var random = SplitMix(seed: seed)
        var bytes = random.jsonValue(depth: 0).serialized()
        let interesting: [UInt8] =
            Array("{}[]\",:\\ntfu0-.e\u{7F}".utf8) + [0x00, 0x1F, 0x80, 0xC3, 0xED, 0xFF]
        for _ in 0..<(1 + random.below(3)) {
            let position = bytes.isEmpty ? 0 : random.below(bytes.count)
            let byte = interesting[random.below(interesting.count)]
            switch random.below(3) {
            case 0 where !bytes.isEmpty: bytes[position] = byte
            case 1: bytes.insert(byte, at: position)
            default: if !bytes.isEmpty { bytes.remove(at: position) }
            }
        }
        let read = Result { () throws(Fido2EncodingError) in
            do {
                return try JSONReader().read(bytes)
            } catch let error as Fido2EncodingError {
                throw error
            } catch {
                throw Fido2EncodingError(.unexpectedCharacter, "\(error)")
            }
        }
        let scanned = Result { () throws(Fido2EncodingError) in try scanWalking(bytes) }
        switch (read, scanned) {
        case (.success(let a), .success(let b)):
            #expect(a == b)
        case (.failure(let a), .failure(let b)):
            #expect(a.code == b.code, "\(a) vs \(b)")
            #expect(a.offset == b.offset, "\(a) vs \(b)")
        default:
            Issue.record("reader \(read) but scanner \(scanned) on \(bytes)")
        }
    }
}
