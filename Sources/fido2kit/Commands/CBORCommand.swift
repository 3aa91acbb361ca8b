import ArgumentParser
import Fido2CBOR
import Fido2Encoding

/// `fido2kit cbor`: inspect and re-encode CBOR read from standard input.
struct CBORCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "cbor",
        abstract: "Inspect and re-encode CBOR read from standard input.",
        subcommands: [Diagnostic.self, Canonical.self]
    )

    /// Reads standard input as binary CBOR, or as hexadecimal text when `hex` is set, within
    /// the CBOR reader's input limit.
    static func readInput(hex: Bool) throws(CommandFailure) -> [UInt8] {
        let raw = try StandardStreams.readInput(limit: hex ? .cborHex : .cbor)
        guard hex else { return raw }
        do {
            return try Hex.decode(raw, ignoringWhitespace: true)
        } catch {
            // "invalid hex character at offset N", "odd number of hex digits".
            throw CommandFailure(
                error.offset.map { "\(error.reason) at offset \($0)" } ?? error.reason)
        }
    }

    /// `fido2kit cbor diag`: RFC 8949 diagnostic notation.
    struct Diagnostic: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "diag",
            abstract: "Print RFC 8949 diagnostic notation of the CBOR on standard input.",
            discussion: """
                Lenient by default: any well-formed item, or a sequence of items (one line each). \
                With --strict the input must be one item in CTAP2 canonical form.
                """
        )

        @Flag(
            help:
                "Require CTAP2 canonical CBOR (shortest heads, definite lengths, sorted unique keys, one item)."
        )
        var strict = false

        @Flag(help: "Read hexadecimal text instead of binary.")
        var hex = false

        func run() throws {
            try failingCleanly {
                let input = try CBORCommand.readInput(hex: hex)
                let notation = try CBORDiagnostic.notation(
                    for: input, options: strict ? .strict : .lenient)
                StandardStreams.print(notation)
            }
        }
    }

    /// `fido2kit cbor canonical`: the deterministic re-encoding.
    struct Canonical: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "canonical",
            abstract: "Re-encode the CBOR item on standard input deterministically.",
            discussion: """
                Preferred serialization, definite lengths and CTAP2 canonical map-key order. A map \
                with a repeated key cannot be made canonical and is an error.
                """
        )

        @Flag(help: "Read hexadecimal text and write hexadecimal text instead of binary.")
        var hex = false

        func run() throws {
            try failingCleanly {
                let input = try CBORCommand.readInput(hex: hex)
                var options = CBORDecodingOptions.lenient
                options.checks = [.noTrailingBytes, .validUTF8]
                let value = try CBORValue.decode(input, options: options)
                if let duplicate = Self.firstDuplicateKey(in: value) {
                    throw CommandFailure("duplicate map key \(duplicate): no canonical form")
                }
                let encoded = value.encoded()
                if hex {
                    StandardStreams.print(CBORDiagnostic.hex(encoded))
                } else {
                    try StandardStreams.write(encoded)
                }
            }
        }

        /// The first key, in any map of `value`, that occurs twice in its map.
        static func firstDuplicateKey(in value: CBORValue) -> CBORValue? {
            switch value {
            case .array(let elements):
                return elements.lazy.compactMap(firstDuplicateKey).first
            case .map(let map):
                if let duplicate = map.firstDuplicateKey { return duplicate }
                return map.entries.lazy.compactMap {
                    firstDuplicateKey(in: $0.key) ?? firstDuplicateKey(in: $0.value)
                }.first
            case .tagged(_, let content):
                return firstDuplicateKey(in: content)
            default:
                return nil
            }
        }
    }
}
