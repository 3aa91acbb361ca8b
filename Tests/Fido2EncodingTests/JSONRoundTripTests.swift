import Fido2Encoding
import Fido2TestSupport
import PropertyBased
import Testing

@Test func reproducesCompactDocumentsByteForByte() throws {
    let documents = [
        #"{"type":"webauthn.create","challenge":"AMMPt4Ux","origin":"https://example.org","crossOrigin":false}"#,
        #"[1,-0,0.5,1e+21,1E-7,true,false,null,"",{},[],[[]],{"":{"a":[{}]}}]"#,
        #"{"z":1,"a":2,"m":{"y":[3,"\b\f\n\r\t\"\\"]}}"#,
        "\"é😀\u{2028}\u{7F}/\"",
        "-12345678901234567890.125e-3",
    ]
    for document in documents {
        let value = try JSONValue(parsing: document)
        #expect(String(decoding: value.serialized(), as: UTF8.self) == document)
    }
}

@Test func readsEscapesIntoTheirCharacters() throws {
    let value = try JSONValue(
        parsing: #"["\u00e9","\ud83d\ude00","\/","\u0000","\"\\","A\u0042C"]"#)
    #expect(value == ["é", "😀", "/", "\u{0}", "\"\\", "ABC"])
}

@Test func normalisesEscapeSpellingOnOutput() throws {
    let value = try JSONValue(parsing: #"["\u0041\/\u000a\u001F"]"#)
    #expect(String(decoding: value.serialized(), as: UTF8.self) == #"["A/\n\u001f"]"#)
}

@Test func skipsInsignificantWhitespace() throws {
    let value = try JSONValue(parsing: " \t\r\n{ \"a\" : [ 1 , 2 ] , \"b\" : { } }\n")
    #expect(String(decoding: value.serialized(), as: UTF8.self) == #"{"a":[1,2],"b":{}}"#)
}

@Test func readsFromSlicesAndBuffers() throws {
    let bytes = Array("xx[1,2]yy".utf8)
    let value = try JSONReader().read(bytes[2..<7])
    #expect(value == [1, 2])
    let lazy = Array("{\"a\":true}".utf8).lazy.map { $0 }
    #expect(try JSONReader().read(lazy)["a"] == true)
}

@Test func exposesTypedAccessors() throws {
    let value = try JSONValue(parsing: #"{"s":"x","b":true,"n":7,"d":2.5,"a":[null],"o":{}}"#)
    #expect(value["s"]?.stringValue == "x")
    #expect(value["b"]?.boolValue == true)
    #expect(value["n"]?.int64Value == 7)
    #expect(value["d"]?.doubleValue == 2.5)
    #expect(value["a"]?.arrayValue?.first?.isNull == true)
    #expect(value["o"]?.objectValue?.isEmpty == true)
    #expect(value["missing"] == nil)
    #expect(value["s"]?.boolValue == nil)
    #expect(value["s"]?["x"] == nil)
    #expect(value.objectValue?.names == ["s", "b", "n", "d", "a", "o"])
    #expect(value.objectValue?.contains(name: "d") == true)
    #expect(value["a"]?.kindName == "array")
}

@Test func roundTripsRandomValues() async {
    await propertyCheck(count: 400, input: Gen<UInt64>.value(in: 0...UInt64.max)) { seed in
        var random = SplitMix(seed: seed)
        let value = random.jsonValue(depth: 0)
        let bytes = value.serialized()
        #expect(bytes.count == JSONWriter.serializedLength(of: value))
        do {
            let reread = try JSONValue(parsing: bytes)
            #expect(reread == value)
            #expect(reread.serialized() == bytes)
        } catch {
            Issue.record("rejected its own output: \(error)")
        }
    }
}
