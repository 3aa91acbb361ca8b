import Fido2Encoding
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
        let value = randomJSONValue(&random, depth: 0)
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

/// A small deterministic generator, so each property-test seed names one document.
struct SplitMix {
    var state: UInt64

    init(seed: UInt64) { state = seed }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    mutating func below(_ bound: Int) -> Int {
        Int(next() % UInt64(bound))
    }
}

func randomString(_ random: inout SplitMix) -> String {
    var scalars = String.UnicodeScalarView()
    for _ in 0..<random.below(12) {
        let value: UInt32
        switch random.below(6) {
        case 0: value = UInt32(random.below(0x20))  // control characters
        case 1: value = [0x22, 0x5C, 0x2F, 0x7F][random.below(4)]
        case 2: value = 0x80 + UInt32(random.below(0xD800 - 0x80))  // BMP below surrogates
        case 3: value = 0xE000 + UInt32(random.below(0x2000))
        case 4: value = 0x10000 + UInt32(random.below(0x100000))  // astral
        default: value = 0x20 + UInt32(random.below(0x5F))  // printable ASCII
        }
        if let scalar = Unicode.Scalar(value) { scalars.append(scalar) }
    }
    return String(scalars)
}

func randomJSONValue(_ random: inout SplitMix, depth: Int) -> JSONValue {
    switch random.below(depth >= 4 ? 5 : 7) {
    case 0: return .null
    case 1: return .bool(random.below(2) == 0)
    case 2:
        if random.below(2) == 0 {
            return .number(JSONNumber(Int64(bitPattern: random.next())))
        }
        let double = Double(bitPattern: random.next())
        return .number(JSONNumber(double) ?? 0)
    case 3, 4: return .string(randomString(&random))
    case 5:
        return .array((0..<random.below(5)).map { _ in randomJSONValue(&random, depth: depth + 1) })
    default:
        var object = JSONObject()
        for index in 0..<random.below(5) {
            object.append(
                randomString(&random) + "#\(index)", randomJSONValue(&random, depth: depth + 1))
        }
        return .object(object)
    }
}
