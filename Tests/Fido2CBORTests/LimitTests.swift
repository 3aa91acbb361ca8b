import Fido2CBOR
import Fido2Encoding
import Fido2TestSupport
import Testing

/// Hostile sizes fail fast with a typed error and without allocating for what is declared.
struct LimitTests {
    @Test func hugeDeclaredArrayInNineBytesCostsNothing() {
        let bytes: [UInt8] = [0x9b, 0x7f, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff]
        for options in [CBORDecodingOptions.strict, .lenient] {
            #expect(
                throws: CBORError(
                    .lengthExceedsInput, at: 0,
                    detail: "declares 9223372036854775807 items, 0 bytes remain")
            ) {
                try CBORReader(bytes, options: options)
            }
            #expect(throws: CBORError.self) { try CBORValue.decode(bytes, options: options) }
        }
    }

    @Test func hugeDeclaredMapInNineBytesCostsNothing() {
        let bytes: [UInt8] = [0xbb, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff]
        do {
            _ = try CBORValue.decode(bytes, options: .lenient)
            Issue.record("accepted")
        } catch let error as CBORError {
            #expect(error.code == .lengthExceedsInput)
        } catch {
            Issue.record("expected a CBORError, got \(error)")
        }
    }

    @Test func hundredMegabyteByteStringHeaderFailsFast() {
        // 0x5a: byte string with a 4-byte length of 100 MB, followed by only 16 bytes.
        let bytes: [UInt8] = [0x5a, 0x05, 0xf5, 0xe1, 0x00] + [UInt8](repeating: 0, count: 16)
        do {
            _ = try CBORValue.decode(bytes, options: .lenient)
            Issue.record("accepted")
        } catch let error as CBORError {
            #expect(error.code == .lengthExceedsInput)
            #expect(error.offset == 0)
        } catch {
            Issue.record("expected a CBORError, got \(error)")
        }
    }

    @Test func oneMegabyteOfNestingFailsAtTheDepthLimit() {
        let bytes = [UInt8](repeating: 0x81, count: 1_000_000) + [0x00]
        for options in [CBORDecodingOptions.strict, .lenient] {
            do {
                _ = try CBORReader(bytes, options: options)
                Issue.record("accepted")
            } catch let error as CBORError {
                #expect(error.code == .nestingTooDeep)
                #expect(error.offset == 32)
            } catch {
                Issue.record("expected a CBORError, got \(error)")
            }
        }
        let indefinite = [UInt8](repeating: 0x9f, count: 1_000_000)
        #expect(throws: CBORError(.nestingTooDeep, at: 32, detail: "limit 32")) {
            try CBORValue.decode(indefinite, options: .lenient)
        }
    }

    @Test func depthLimitIsConfigurableAndCapped() throws {
        let nested = [UInt8](repeating: 0x81, count: 40) + [0x00]
        var options = CBORDecodingOptions.strict
        options.maximumDepth = 40
        _ = try CBORValue.decode(nested, options: options)
        options.maximumDepth = 39
        #expect(throws: CBORError.self) { try CBORValue.decode(nested, options: options) }
        options.maximumDepth = .max
        let deep = [UInt8](repeating: 0x81, count: 5000) + [0x00]
        #expect(throws: CBORError(.nestingTooDeep, at: 1024, detail: "limit 1024")) {
            try CBORValue.decode(deep, options: options)
        }
    }

    @Test func tagsAndIndefiniteStringsCountAsNesting() {
        var options = CBORDecodingOptions.lenient
        options.maximumDepth = 2
        #expect(throws: CBORError(.nestingTooDeep, at: 2, detail: "limit 2")) {
            try CBORReader(Hex.bytes("c1c1c100"), options: options)
        }
        options.maximumDepth = 1
        #expect(throws: CBORError(.nestingTooDeep, at: 1, detail: "limit 1")) {
            try CBORReader(Hex.bytes("815f4100ff"), options: options)
        }
    }

    @Test func itemCountIsBounded() throws {
        var options = CBORDecodingOptions.strict
        options.maximumItemCount = 10
        let ten = [UInt8]([0x89]) + [UInt8](repeating: 0, count: 9)
        _ = try CBORReader(ten, options: options)
        let eleven = [UInt8]([0x8a]) + [UInt8](repeating: 0, count: 10)
        #expect(throws: CBORError(.tooManyItems, at: 10, detail: "limit 10")) {
            try CBORReader(eleven, options: options)
        }
    }

    @Test func defaultItemLimitStopsWideFlatInputs() {
        // 100,000 one-byte items in a single array: well-formed, but over the default limit.
        let bytes = [UInt8]([0x9a, 0x00, 0x01, 0x86, 0xa0]) + [UInt8](repeating: 0, count: 100_000)
        do {
            _ = try CBORReader(bytes, options: .strict)
            Issue.record("accepted")
        } catch let error as CBORError {
            #expect(error.code == .tooManyItems)
        } catch {
            Issue.record("expected a CBORError, got \(error)")
        }
    }

    @Test func inputSizeIsBounded() throws {
        var options = CBORDecodingOptions.strict
        options.maximumInputSize = 4
        _ = try CBORReader([0x43, 1, 2, 3], options: options)
        #expect(throws: CBORError(.inputTooLarge, at: 4, detail: "5 bytes, limit 4")) {
            try CBORReader([0x44, 1, 2, 3, 4], options: options)
        }
        #expect(throws: CBORError.self) {
            try CBORReader.lengthOfFirstItem(in: [0x44, 1, 2, 3, 4], options: options)
        }
    }

    @Test func emptyInputIsTruncated() {
        #expect(throws: CBORError(.truncated, at: 0)) { try CBORReader([], options: .lenient) }
        #expect(throws: CBORError(.truncated, at: 0)) {
            try CBORValue.decode([UInt8](), options: .strict)
        }
    }
}
