import Fido2CBOR
import Fido2Encoding
import Fido2TestSupport
import Testing

/// The strict (CTAP2 canonical) profile rejects each violation with its own error, and the
/// lenient profile accepts the same inputs, which RFC 8949 calls well-formed.
struct StrictModeTests {
    /// (violation, hex, expected code, expected offset)
    static let violations: [(String, String, CBORError.Code, Int)] = [
        ("duplicate map key", "a201020103", .duplicateMapKey, 3),
        ("keys out of order (integers)", "a203040102", .mapKeysOutOfOrder, 3),
        ("negative before positive", "a220000100", .mapKeysOutOfOrder, 3),
        ("longer key before shorter", "a262616100616200", .mapKeysOutOfOrder, 5),
        ("text key before integer key", "a26161000100", .mapKeysOutOfOrder, 4),
        ("non-shortest integer", "1817", .nonShortestEncoding, 0),
        ("non-shortest 16-bit integer", "190017", .nonShortestEncoding, 0),
        ("non-shortest 32-bit negative", "3a000000ff", .nonShortestEncoding, 0),
        ("non-shortest 64-bit integer", "1b00000000ffffffff", .nonShortestEncoding, 0),
        ("non-shortest string length", "5801ff", .nonShortestEncoding, 0),
        ("non-shortest array length", "980100", .nonShortestEncoding, 0),
        ("non-shortest map length in nested item", "8201b8010000", .nonShortestEncoding, 2),
        ("non-shortest tag", "d80100", .nonShortestEncoding, 0),
        ("indefinite byte string", "5f4101ff", .indefiniteLengthNotAllowed, 0),
        ("indefinite text string", "7f6161ff", .indefiniteLengthNotAllowed, 0),
        ("indefinite array", "9f01ff", .indefiniteLengthNotAllowed, 0),
        ("indefinite map", "bf0102ff", .indefiniteLengthNotAllowed, 0),
        ("trailing bytes", "0100", .trailingBytes, 1),
        ("invalid UTF-8 (lone continuation)", "6180", .invalidUTF8, 0),
        ("invalid UTF-8 (overlong)", "62c0af", .invalidUTF8, 0),
        ("invalid UTF-8 (surrogate)", "63eda080", .invalidUTF8, 0),
        ("invalid UTF-8 (beyond U+10FFFF)", "64f4908080", .invalidUTF8, 0),
        ("invalid UTF-8 (truncated sequence)", "62e6b0", .invalidUTF8, 0),
    ]

    @Test func strictModeRejectsEachViolationWithItsOwnError() {
        for (violation, hex, code, offset) in Self.violations {
            let bytes = Hex.bytes(hex)
            #expect(throws: CBORError(code, at: offset), "\(violation)") {
                try CBORReader(bytes, options: .strict)
            }
        }
    }

    @Test func lenientModeAcceptsWhatIsWellFormed() throws {
        for (violation, hex, _, _) in Self.violations {
            let bytes = Hex.bytes(hex)
            _ = try CBORReader(bytes, options: .lenient)
            if !violation.hasPrefix("invalid UTF-8") && violation != "trailing bytes" {
                #expect(LibCBOR.accepts(bytes), "libcbor rejects \(violation)")
            }
        }
    }

    @Test func eachCheckCanBeEnabledAlone() {
        let cases: [(CBORDecodingOptions.Checks, String, CBORError.Code)] = [
            (.shortestHeads, "1817", .nonShortestEncoding),
            (.definiteLengths, "9fff", .indefiniteLengthNotAllowed),
            (.canonicalKeyOrder, "a202000100", .mapKeysOutOfOrder),
            (.uniqueKeys, "a3010002000100", .duplicateMapKey),
            (.validUTF8, "6180", .invalidUTF8),
            (.noTrailingBytes, "0000", .trailingBytes),
        ]
        for (check, hex, code) in cases {
            let bytes = Hex.bytes(hex)
            do {
                _ = try CBORReader(bytes, options: CBORDecodingOptions(checks: check))
                Issue.record("\(hex) accepted with only \(check) checked")
            } catch let error as CBORError {
                #expect(error.code == code, "\(hex)")
            } catch {
                Issue.record("expected a CBORError, got \(error)")
            }
            #expect(throws: Never.self) {
                try CBORReader(bytes, options: CBORDecodingOptions(checks: []))
            }
        }
    }

    @Test func duplicateKeysAreFoundWithoutCanonicalOrder() {
        // Out of order, so only the sort-based search can find the repeated key 1.
        let bytes = Hex.bytes("a40100030002000100")
        #expect(throws: CBORError(.duplicateMapKey, at: 7)) {
            try CBORReader(bytes, options: CBORDecodingOptions(checks: [.uniqueKeys]))
        }
    }

    @Test func canonicalOrderMatchesCTAP2ForWebAuthnKeys() throws {
        // COSE EC2 key labels and attestation-object keys in their canonical order.
        var writer = CBORWriter()
        writer.writeMapHeader(count: 5)
        for label: Int64 in [1, 3, -1, -2, -3] {
            writer.writeInt(label)
            writer.writeInt(0)
        }
        _ = try CBORReader(writer.bytes, options: .strict)
        var object = CBORWriter()
        object.writeMapHeader(count: 3)
        for key in ["fmt", "attStmt", "authData"] {
            object.writeTextString(key)
            object.writeNull()
        }
        _ = try CBORReader(object.bytes, options: .strict)
    }

    @Test func nestedMapsAreCheckedAtEveryLevel() {
        let bytes = Hex.bytes("a101a203000200")
        #expect(throws: CBORError(.mapKeysOutOfOrder, at: 5)) {
            try CBORReader(bytes, options: .strict)
        }
    }
}
