import Fido2CBOR
import Fido2Encoding
import Fido2TestSupport
import Testing

/// RFC 8949 Appendix F: every example of a not-well-formed item is rejected with a typed error,
/// in lenient mode as in strict mode, by the reader, the value decoder and diagnostic notation.
/// The examples are facts of the RFC's text, written here as test data.
struct NotWellFormedTests {
    /// (category, hex examples, the code the first problem must carry)
    static let appendixF: [(String, [String], CBORError.Code)] = [
        (
            "end of input in a head",
            [
                "18", "19", "1a", "1b", "1901", "1a0102", "1b01020304050607", "38", "58", "78",
                "98", "9a01ff00", "b8", "d8", "f8", "f900", "fa0000", "fb000000",
            ], .truncated
        ),
        (
            "definite-length strings with short data",
            [
                "41", "61", "5affffffff00", "5bffffffffffffffff010203", "7affffffff00",
                "7b7fffffffffffffff010203",
            ],
            .lengthExceedsInput
        ),
        (
            "definite-length maps and arrays not closed with enough items",
            ["81", "818181818181818181", "8200", "a1", "a20102", "a100", "a2000000"], .truncated
        ),
        ("tag number not followed by tag content", ["c0"], .truncated),
        ("indefinite-length strings not closed by a break", ["5f4100", "7f6100"], .truncated),
        (
            "indefinite-length maps and arrays not closed by a break",
            [
                "9f", "9f0102", "bf", "bf01020102", "819f", "9f8000", "9f9f9f9f9fffffffff",
                "9f819f819f9fffffff",
            ],
            .truncated
        ),
        (
            "reserved additional information values",
            [
                "1c", "1d", "1e", "3c", "3d", "3e", "5c", "5d", "5e", "7c", "7d", "7e", "9c", "9d",
                "9e", "bc", "bd", "be", "dc", "dd", "de", "fc", "fd", "fe",
            ], .reservedAdditionalInfo
        ),
        (
            "reserved two-byte encodings of simple values", ["f800", "f801", "f818", "f81f"],
            .invalidSimpleValue
        ),
        (
            "indefinite-length string chunks not of the correct type",
            ["5f00ff", "5f21ff", "5f6100ff", "5f80ff", "5fa0ff", "5fc000ff", "5fe0ff", "7f4100ff"],
            .invalidIndefiniteChunk
        ),
        (
            "indefinite-length string chunks not definite length",
            ["5f5f4100ffff", "7f7f6100ffff"], .invalidIndefiniteChunk
        ),
        ("break on its own", ["ff"], .unexpectedBreak),
        (
            "break in a definite-length array, map or tag",
            [
                "81ff", "8200ff", "a1ff", "a1ff00", "a100ff", "a20000ff", "9f81ff",
                "9f829f819f9fffffffff",
            ],
            .unexpectedBreak
        ),
        ("break in a map's value position", ["bf00ff", "bf000000ff"], .unexpectedBreak),
        (
            "major types 0, 1 and 6 with additional information 31", ["1f", "3f", "df"],
            .invalidIndefiniteItem
        ),
    ]

    @Test func everyAppendixFExampleIsCounted() {
        #expect(Self.appendixF.reduce(0) { $0 + $1.1.count } == 94)
    }

    @Test(arguments: [CBORDecodingOptions.lenient, .strict])
    func everyAppendixFExampleIsRejectedWithItsReason(options: CBORDecodingOptions) {
        for (category, examples, code) in Self.appendixF {
            for hex in examples {
                let bytes = Hex.bytes(hex)
                // Strict mode may stop earlier, at the first indefinite-length head.
                // A count or length the remaining bytes cannot hold is caught before the missing
                // items are looked for, so "not closed" examples may report either.
                var expected: Set<CBORError.Code> = [code]
                if code == .truncated || code == .unexpectedBreak {
                    expected.insert(.lengthExceedsInput)
                }
                if options == .strict { expected.insert(.indefiniteLengthNotAllowed) }
                do {
                    _ = try CBORReader(bytes, options: options)
                    Issue.record("\(category): \(hex) accepted")
                } catch let error as CBORError {
                    #expect(expected.contains(error.code), "\(category): \(hex) gave \(error)")
                } catch {
                    Issue.record("expected a CBORError, got \(error)")
                }
                #expect(throws: CBORError.self) { try CBORValue.decode(bytes, options: options) }
                #expect(throws: CBORError.self) {
                    try CBORDiagnostic.notation(for: bytes, options: options)
                }
            }
        }
    }

    @Test func libcborAgreesThatTheExamplesAreMalformed() {
        for (category, examples, _) in Self.appendixF {
            for hex in examples {
                #expect(!LibCBOR.accepts(Hex.bytes(hex)), "\(category): \(hex)")
            }
        }
    }

    @Test func errorsSayWhatAndWhere() throws {
        do {
            _ = try CBORReader(Hex.bytes("8301a100ff"), options: .lenient)
            Issue.record("accepted")
        } catch let error as CBORError {
            #expect(error.code == .unexpectedBreak)
            #expect(error.offset == 4)
            #expect(
                error.description == "break stop code outside an indefinite-length item at offset 4"
            )
        } catch {
            Issue.record("expected a CBORError, got \(error)")
        }
    }
}
