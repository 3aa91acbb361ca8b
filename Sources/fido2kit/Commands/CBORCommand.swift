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

    /// The failure for `input` that does not decode as `error` says, with what the input looks
    /// like when it is text (hexadecimal given without `--hex`, or text that is no CBOR) and,
    /// for bytes after the first item, that `--sequence` reads a CBOR sequence.
    static func refusal(
        _ error: CBORError, input: [UInt8], hex: Bool, sequenceFlag: Bool
    ) -> CommandFailure {
        var message = "not CBOR: \(error)"
        if error.code == .trailingBytes {
            message = "not one CBOR item: \(error)"
            if sequenceFlag { message += " (--sequence reads a CBOR sequence)" }
        }
        if !hex, let kind = textKind(input) { message += "; the input is \(kind)" }
        return CommandFailure(message)
    }

    /// "hexadecimal text (give --hex)" or "text" when every byte of `input` is printable ASCII
    /// or white space; nil otherwise (and for empty input).
    static func textKind(_ input: [UInt8]) -> String? {
        let isSpace = { (byte: UInt8) in byte == 0x20 || (0x09...0x0D).contains(byte) }
        guard !input.isEmpty, input.allSatisfy({ (0x21...0x7E).contains($0) || isSpace($0) })
        else { return nil }
        let isHexDigit = { (byte: UInt8) in
            (0x30...0x39).contains(byte) || (0x41...0x46).contains(byte)
                || (0x61...0x66).contains(byte)
        }
        if input.allSatisfy({ isHexDigit($0) || isSpace($0) }) {
            return "hexadecimal text (give --hex to read it)"
        }
        return "text, not binary CBOR"
    }

    /// `fido2kit cbor diag`: RFC 8949 diagnostic notation.
    struct Diagnostic: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "diag",
            abstract: "Print RFC 8949 diagnostic notation of the CBOR on standard input.",
            discussion: """
                The input must be exactly one well-formed CBOR item with nothing after it \
                (lenient: any well-formed item); with --sequence, one or more items (an RFC \
                8742 CBOR sequence, one line each). With --strict the items must be in CTAP2 \
                canonical form. Input that is not CBOR is refused (exit 1), saying where it \
                stops being CBOR and whether it looks like text or hexadecimal.
                """
        )

        @Flag(
            help:
                "Require CTAP2 canonical CBOR (shortest heads, definite lengths, sorted unique keys)."
        )
        var strict = false

        @Flag(help: "Read a CBOR sequence (RFC 8742): one or more items, one line each.")
        var sequence = false

        @Flag(help: "Read hexadecimal text instead of binary.")
        var hex = false

        func run() throws {
            try failingCleanly {
                let input = try CBORCommand.readInput(hex: hex)
                var options = strict ? CBORDecodingOptions.strict : .lenient
                if sequence {
                    options.checks.remove(.noTrailingBytes)
                } else {
                    options.checks.insert(.noTrailingBytes)
                }
                let notation: String
                do {
                    notation = try CBORDiagnostic.notation(for: input, options: options)
                } catch let error as CBORError {
                    throw CBORCommand.refusal(
                        error, input: input, hex: hex, sequenceFlag: !sequence)
                }
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
                let value: CBORValue
                do {
                    value = try CBORValue.decode(input, options: options)
                } catch let error as CBORError {
                    throw CBORCommand.refusal(error, input: input, hex: hex, sequenceFlag: false)
                }
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
