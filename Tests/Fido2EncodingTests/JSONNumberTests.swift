import Fido2Encoding
import Testing

@Test func keepsIntegerLiteralsExact() throws {
    let value = try JSONValue(
        parsing: "[9223372036854775807,-9223372036854775808,12345678901234567890123]")
    let elements = try #require(value.arrayValue)
    #expect(elements[0].int64Value == .max)
    #expect(elements[1].int64Value == .min)
    #expect(elements[2].int64Value == nil)
    #expect(elements[2].numberValue?.text == "12345678901234567890123")
    #expect(
        String(decoding: value.serialized(), as: UTF8.self)
            == "[9223372036854775807,-9223372036854775808,12345678901234567890123]")
}

@Test func givesIntegersOnlyForIntegerLiterals() {
    #expect(JSONNumber("9223372036854775808")?.int64Value == nil)
    #expect(JSONNumber("-9223372036854775809")?.int64Value == nil)
    #expect(JSONNumber("1.0")?.int64Value == nil)
    #expect(JSONNumber("1e2")?.int64Value == nil)
    #expect(JSONNumber("-0")?.int64Value == 0)
    #expect(JSONNumber("60000")?.intValue == 60000)
    #expect(JSONNumber("1.0")?.isInteger == false)
    #expect(JSONNumber("-7")?.isInteger == true)
}

@Test func givesFiniteDoublesOnly() {
    #expect(JSONNumber("1.5e3")?.doubleValue == 1500)
    #expect(JSONNumber("-0.25")?.doubleValue == -0.25)
    #expect(JSONNumber("1e400")?.doubleValue == nil)
    #expect(JSONNumber("1e-400")?.doubleValue == 0)
}

@Test func acceptsOnlyGrammaticalLiterals() {
    for good in ["0", "-0", "1", "-1", "10", "1.5", "0.0", "1e5", "1E+5", "1e-5", "-0.5e-0"] {
        #expect(JSONNumber(good)?.text == good, "\(good)")
    }
    for bad in ["", "-", "01", "+1", ".5", "1.", "1e", "1e+", "NaN", "Infinity", "1 ", " 1", "0x1"]
    {
        #expect(JSONNumber(bad) == nil, "\(bad)")
    }
}

/// (double, JavaScript's `String(x)`), checked against node's output.
private let javaScriptNumbers: [(Double, String)] = [
    (0, "0"), (-0.0, "0"), (1, "1"), (1.5, "1.5"), (100, "100"), (-2.5, "-2.5"),
    (1e21, "1e+21"), (1e20, "100000000000000000000"),
    (1.2345678901234568e20, "123456789012345680000"), (0.1, "0.1"), (0.000001, "0.000001"),
    (1e-7, "1e-7"), (-1e-7, "-1e-7"), (1.5e-7, "1.5e-7"), (.leastNonzeroMagnitude, "5e-324"),
    (1.7976931348623157e308, "1.7976931348623157e+308"), (0.000123, "0.000123"),
    (123e-20, "1.23e-18"), (9007199254740992, "9007199254740992"),
    (1.2345e-5, "0.000012345"), (12345.678, "12345.678"),
]

@Test func formatsDoublesAsJavaScriptDoes() {
    for (value, expected) in javaScriptNumbers {
        #expect(JSONNumber(value)?.text == expected, "\(value)")
    }
    #expect(JSONNumber(Double.infinity) == nil)
    #expect(JSONNumber(Double.nan) == nil)
}

@Test func comparesNumbersByLiteral() throws {
    #expect(JSONNumber("1") != JSONNumber("1.0"))
    #expect(JSONNumber(Int64(5)) == JSONNumber("5"))
    let literal: JSONNumber = 42
    #expect(literal.description == "42")
}
