import Fido2CBOR
import Fido2Encoding
import Fido2TestSupport
import Testing

/// `CBORReader.canonicalizingFirstItem`: what deployed authenticators write (keys out of order,
/// indefinite lengths, long heads) comes back in CTAP2 canonical form with each broken rule
/// reported; what is not well-formed, or breaks a rule that is not about encoding, is refused
/// exactly as the strict reader refuses it.
struct CanonicalizingTests {
    @Test func returnsACanonicalItemAsItIs() throws {
        let bytes = Hex.bytes("a30102030405f5")
        let item = try CBORReader.canonicalizingFirstItem(in: bytes[...])
        #expect(item.encoded == bytes && item.length == bytes.count && item.deviations.isEmpty)
    }

    @Test func reEncodesEachEncodingDeviationAndReportsWhereItFirstIs() throws {
        // (input, canonical form, the rules it breaks with their first offsets)
        let cases: [(String, String, [(CBORDecodingOptions.Checks, Int)])] = [
            ("a203040102", "a201020304", [(.canonicalKeyOrder, 3)]),
            ("bf0102ff", "a10102", [(.definiteLengths, 0)]),
            ("1817", "17", [(.shortestHeads, 0)]),
            ("5f41014102ff", "420102", [(.definiteLengths, 0)]),
            // All three at once, nested: an indefinite map whose keys are out of order and
            // whose value has a long head.
            (
                "bf0318170102ff", "a201020317",
                [(.definiteLengths, 0), (.shortestHeads, 2), (.canonicalKeyOrder, 4)]
            ),
        ]
        for (input, canonical, expected) in cases {
            let item = try CBORReader.canonicalizingFirstItem(in: Hex.bytes(input)[...])
            #expect(Hex.encode(item.encoded) == canonical, "\(input)")
            #expect(item.length == Hex.bytes(input).count, "\(input)")
            #expect(
                item.deviations.map { [$0.check.rawValue, UInt8($0.offset)] }
                    == expected.map { [$0.0.rawValue, UInt8($0.1)] }, "\(input)")
            // The re-encoding is canonical: the strict reader takes it.
            _ = try CBORReader(item.encoded, options: .strict)
        }
    }

    @Test func refusesWhatIsNotAboutEncodingInEveryCase() {
        let refused: [(String, CBORError.Code)] = [
            ("a201020103", .duplicateMapKey),
            ("bf01020103ff", .duplicateMapKey),
            ("a3030401020102", .duplicateMapKey),
            // The same key written twice, once with a long head: one key once re-encoded.
            ("a2000118000102", .duplicateMapKey),
            ("6180", .invalidUTF8),
            ("bf6180f5ff", .invalidUTF8),
            ("a20102", .lengthExceedsInput),
            ("bf0102", .truncated),
            ("ff", .unexpectedBreak),
            ("1c", .reservedAdditionalInfo),
            ("9b7fffffffffffffff", .lengthExceedsInput),
        ]
        for (input, code) in refused {
            #expect(throws: CBORError.self, "\(input)") {
                try CBORReader.canonicalizingFirstItem(in: Hex.bytes(input)[...])
            }
            do {
                _ = try CBORReader.canonicalizingFirstItem(in: Hex.bytes(input)[...])
            } catch let error as CBORError {
                #expect(error.code == code, "\(input): \(error)")
            } catch {
                Issue.record("expected a CBORError, got \(error)")
            }
        }
    }

    @Test func keepsTheLimits() {
        var options = CBORDecodingOptions.strict
        options.maximumDepth = 2
        #expect(throws: CBORError.self) {
            try CBORReader.canonicalizingFirstItem(
                in: Hex.bytes("9f9f9f00ffffff")[...], options: options)
        }
    }

    @Test func toleratesOnlyWhatItIsAskedTo() {
        #expect(throws: CBORError(.indefiniteLengthNotAllowed, at: 0)) {
            try CBORReader.canonicalizingFirstItem(
                in: Hex.bytes("bf0102ff")[...], tolerating: .canonicalKeyOrder)
        }
        #expect(throws: CBORError(.mapKeysOutOfOrder, at: 3)) {
            try CBORReader.canonicalizingFirstItem(in: Hex.bytes("a203040102")[...], tolerating: [])
        }
    }

    @Test func readsOnlyTheFirstItem() throws {
        let item = try CBORReader.canonicalizingFirstItem(in: Hex.bytes("bf0102ff0700")[...])
        #expect(item.length == 4 && Hex.encode(item.encoded) == "a10102")
    }
}
