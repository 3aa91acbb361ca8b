import Fido2Encoding
import Testing

/// (string, what JavaScript's JSON.stringify emits for it).
private let javaScriptEscapes: [(String, String)] = [
    ("plain", #""plain""#),
    ("\"", #""\"""#),
    ("\\", #""\\""#),
    ("\u{08}", #""\b""#),
    ("\u{0C}", #""\f""#),
    ("\n", #""\n""#),
    ("\r", #""\r""#),
    ("\t", #""\t""#),
    ("\u{00}", #""\u0000""#),
    ("\u{01}", #""\u0001""#),
    ("\u{0B}", #""\u000b""#),
    ("\u{1B}", #""\u001b""#),
    ("\u{1F}", #""\u001f""#),
    ("\u{7F}", "\"\u{7F}\""),
    ("/", #""/""#),
    ("é", "\"é\""),
    ("\u{2028}\u{2029}", "\"\u{2028}\u{2029}\""),
    ("😀", "\"😀\""),
    ("a\"b\\c\nd", #""a\"b\\c\nd""#),
]

/// (string, what WebAuthn's CCDToString emits for it).
private let ccdEscapes: [(String, String)] = [
    ("https://example.org", #""https://example.org""#),
    ("\"", #""\"""#),
    ("\\", #""\\""#),
    ("\u{08}", #""\u0008""#),
    ("\u{0C}", #""\u000c""#),
    ("\n", #""\u000a""#),
    ("\r", #""\u000d""#),
    ("\t", #""\u0009""#),
    ("\u{00}", #""\u0000""#),
    ("\u{1F}", #""\u001f""#),
    ("\u{7F}", "\"\u{7F}\""),
    ("é😀", "\"é😀\""),
]

@Test func escapesStringsAsJavaScriptJSONStringifyDoes() {
    for (input, expected) in javaScriptEscapes {
        var writer = JSONWriter()
        writer.string(input)
        #expect(
            String(decoding: writer.bytes, as: UTF8.self) == expected, "\(input.debugDescription)")
        #expect(JSONWriter.escapedLength(of: input, escaping: .javaScript) == expected.utf8.count)
    }
}

@Test func escapesStringsAsCCDToStringDoes() {
    for (input, expected) in ccdEscapes {
        var writer = JSONWriter()
        writer.string(input, escaping: .ccdToString)
        #expect(
            String(decoding: writer.bytes, as: UTF8.self) == expected, "\(input.debugDescription)")
        #expect(JSONWriter.escapedLength(of: input, escaping: .ccdToString) == expected.utf8.count)
    }
}

/// The writer skips plain text eight bytes at a time; a character to escape must be found
/// wherever it falls relative to those words, in values and in member names, and the length
/// computed up front must match.
@Test func escapesWhereverTheCharacterFallsInALongString() {
    let plain = Array("abcdefghijklmnopqrstuvwxyz0123456789".utf8)
    for (input, expected) in javaScriptEscapes + ccdEscapes.map({ ($0.0, $0.1) }) {
        let escaping: JSONStringEscaping =
            javaScriptEscapes.contains(where: { $0 == (input, expected) })
            ? .javaScript : .ccdToString
        let inner = expected.dropFirst().dropLast()
        for before in 0...17 {
            for after in [0, 1, 7, 8, 9, 17] {
                let prefix = String(decoding: plain[..<before], as: UTF8.self)
                let suffix = String(decoding: plain[(plain.count - after)...], as: UTF8.self)
                let text = prefix + input + suffix
                var writer = JSONWriter()
                writer.string(text, escaping: escaping)
                let written = String(decoding: writer.bytes, as: UTF8.self)
                #expect(
                    written == "\"" + prefix + inner + suffix + "\"", "\(text.debugDescription)")
                #expect(
                    JSONWriter.escapedLength(of: text, escaping: escaping) == writer.bytes.count)
            }
        }
    }
}

/// Short names and values are staged on the stack and appended at once, long ones are written
/// piece by piece; both must give the same text, commas included.
@Test func writesShortAndLongPiecesAlike() throws {
    for length in [0, 1, 2, 3, 700, 767, 768, 769, 1020, 1021, 1024, 1025, 3000] {
        let bytes = (0..<length).map { UInt8(truncatingIfNeeded: $0 &* 13 &+ 1) }
        let text = String(repeating: "n", count: length)
        var writer = JSONWriter()
        writer.beginArray()
        writer.base64URL(bytes)
        writer.base64URL(bytes[...])
        writer.string(text)
        writer.beginObject()
        writer.name(text)
        writer.base64URL(bytes)
        writer.name("x" + text)
        writer.string(text)
        writer.endObject()
        writer.endArray()
        let encoded = Base64URL.encode(bytes)
        let expected =
            #"[""# + encoded + #"",""# + encoded + #"",""# + text + #"",{""# + text + #"":""#
            + encoded + #"",""# + "x" + text + #"":""# + text + #""}]"#
        #expect(String(decoding: writer.bytes, as: UTF8.self) == expected, "length \(length)")
    }
}

@Test func escapesMemberNames() {
    var writer = JSONWriter()
    writer.beginObject()
    writer.name("a\"\n")
    writer.null()
    writer.endObject()
    #expect(String(decoding: writer.bytes, as: UTF8.self) == #"{"a\"\n":null}"#)
}

@Test func placesCommasAndKeepsMemberOrder() {
    var writer = JSONWriter()
    writer.beginObject()
    writer.name("z")
    writer.number(1)
    writer.name("a")
    writer.beginArray()
    writer.bool(true)
    writer.bool(false)
    writer.beginObject()
    writer.endObject()
    writer.beginArray()
    writer.endArray()
    writer.null()
    writer.endArray()
    writer.name("m")
    writer.base64URL([0xFB, 0xFF])
    writer.name("n")
    writer.number(JSONNumber(-1.5)!)
    writer.endObject()
    #expect(
        String(decoding: writer.bytes, as: UTF8.self)
            == #"{"z":1,"a":[true,false,{},[],null],"m":"-_8","n":-1.5}"#)
}

@Test func writesValuesAtTheirPredictedLength() {
    let value: JSONValue = [
        "type": "webauthn.get", "n": 12, "ok": true, "no": false, "nil": .null,
        "list": [1, "two\n", ["x": "\u{1}"]], "empty": [:], "none": [],
    ]
    let bytes = value.serialized()
    #expect(bytes.count == JSONWriter.serializedLength(of: value))
    #expect(bytes.capacity >= bytes.count)
    #expect(
        String(decoding: bytes, as: UTF8.self)
            == #"{"type":"webauthn.get","n":12,"ok":true,"no":false,"nil":null,"#
            + #""list":[1,"two\n",{"x":"\u0001"}],"empty":{},"none":[]}"#)
    #expect(value.description == String(decoding: bytes, as: UTF8.self))
}
