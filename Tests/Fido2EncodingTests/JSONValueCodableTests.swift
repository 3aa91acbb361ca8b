import Fido2Encoding
import Foundation
import Testing

/// `JSONValue` through `JSONDecoder` and `JSONEncoder`.
@Suite struct JSONValueCodableTests {
    @Test func decodesEveryKind() throws {
        let text =
            #"{"n":null,"t":true,"f":false,"i":-42,"u":18446744073709551615,"d":1.5,"s":"é\n","a":[1,"x",[]],"o":{"k":{}}}"#
        let value = try JSONDecoder().decode(JSONValue.self, from: Data(text.utf8))
        #expect(value["n"] == .null)
        #expect(value["t"] == .bool(true) && value["f"] == .bool(false))
        #expect(value["i"]?.int64Value == -42)
        #expect(value["u"]?.numberValue?.text == "18446744073709551615")
        #expect(value["d"]?.doubleValue == 1.5)
        #expect(value["s"]?.stringValue == "é\n")
        #expect(value["a"] == [1, "x", []])
        #expect(value["o"]?["k"] == .object([:]))
        #expect(value.objectValue?.count == 9)
    }

    @Test func encodesWhatItDecodes() throws {
        let value: JSONValue = [
            "a": [1, "two", .null], "b": ["c": true], "d": -7,
            "e": .number(JSONNumber(1.25)!), "f": .number(JSONNumber(UInt64.max)),
        ]
        let data = try JSONEncoder().encode(value)
        let back = try JSONDecoder().decode(JSONValue.self, from: data)
        // Member order is the decoder's; compare member by member.
        for member in try #require(value.objectValue) {
            #expect(back[member.name] == member.value, "\(member.name)")
        }
        #expect(back.objectValue?.count == value.objectValue?.count)
    }

    @Test func keepsIntegersIntegers() throws {
        let data = try JSONEncoder().encode(JSONValue.number(JSONNumber(Int64.min)))
        #expect(String(decoding: data, as: UTF8.self) == "-9223372036854775808")
    }

    /// An object is an unordered collection (RFC 8259 §4): the same members in another order
    /// are equal and hash alike; other members, or a member more, are not.
    @Test func objectsAreEqualWhateverTheirMembersOrder() {
        let ordered: JSONObject = ["a": 1, "b": [true, .null], "c": ["d": "e"]]
        let reordered: JSONObject = ["c": ["d": "e"], "a": 1, "b": [true, .null]]
        #expect(ordered == reordered)
        #expect(ordered.hashValue == reordered.hashValue)
        #expect(JSONValue.object(ordered) == JSONValue.object(reordered))
        #expect(ordered != ["a": 1, "b": [true, .null], "c": ["d": "f"]])
        #expect(ordered != ["a": 1, "b": [true, .null]])
        #expect(ordered != ["a": 1, "b": [true, .null], "c": ["d": "e"], "f": 2])
    }
}
