/// RFC 8949 §8 diagnostic notation, for debugging and the command-line tool.
///
/// Notation is made from the encoding, so indefinite-length items keep their `_` marker:
/// `(_ h'0102', h'030405')`, `[_ 1, 2]`, `{_ "a": 1}`. Text is escaped as JSON escapes it, with
/// every non-ASCII character written as `\uXXXX` (surrogate pairs above U+FFFF), as RFC 8949
/// Appendix A does. Floats print the shortest decimal that round-trips, with `Infinity`,
/// `-Infinity` and `NaN`.
public enum CBORDiagnostic {
    /// Diagnostic notation of the item(s) in `bytes`, after validating them with `options`.
    /// When the options allow a CBOR sequence, items are separated by newlines.
    ///
    /// - Throws: ``CBORError`` when the input does not validate under `options`.
    public static func notation(
        for bytes: ArraySlice<UInt8>, options: CBORDecodingOptions = .lenient
    ) throws -> String {
        try bytes.withUnsafeBufferPointer { (buffer) throws(CBORError) -> String in
            _ = try CBORValidator.validateInput(buffer, options: options)
            var printer = Printer(buffer: buffer, offset: 0)
            while printer.offset < buffer.count {
                if printer.offset > 0 { printer.output += "\n" }
                try printer.item()
            }
            return printer.output
        }
    }

    /// Diagnostic notation of the item(s) in `bytes`; see ``notation(for:options:)-(ArraySlice<UInt8>,_)``.
    public static func notation(
        for bytes: [UInt8], options: CBORDecodingOptions = .lenient
    ) throws -> String {
        try notation(for: bytes[...], options: options)
    }

    /// Diagnostic notation of `value` (as deterministically encoded).
    public static func notation(for value: CBORValue) -> String {
        let encoded = value.encoded()
        return encoded.withUnsafeBufferPointer { buffer in
            var printer = Printer(buffer: buffer, offset: 0)
            do {
                try printer.item()
            } catch {
                // The writer only produces well-formed items; say so rather than trap if not.
                return "<unprintable: \(error)>"
            }
            return printer.output
        }
    }

    /// Lower-case hexadecimal of `bytes`.
    public static func hex<C: Collection<UInt8>>(_ bytes: C) -> String {
        var output = ""
        output.reserveCapacity(bytes.count * 2)
        for byte in bytes {
            output.append(hexDigits[Int(byte >> 4)])
            output.append(hexDigits[Int(byte & 0x0f)])
        }
        return output
    }

    private static let hexDigits: [Character] = Array("0123456789abcdef")

    /// Formats a float as RFC 8949 Appendix A does: `1.0`, `1.0e+300`, `-4.1`, `Infinity`.
    static func format(_ value: Double) -> String {
        if value.isNaN { return "NaN" }
        if value.isInfinite { return value < 0 ? "-Infinity" : "Infinity" }
        var text = value.description
        if let exponent = text.firstIndex(where: { $0 == "e" || $0 == "E" }) {
            let mantissa = text[..<exponent]
            var rest = String(text[text.index(after: exponent)...])
            if !rest.hasPrefix("-") && !rest.hasPrefix("+") { rest = "+" + rest }
            text = mantissa.contains(".") ? "\(mantissa)e\(rest)" : "\(mantissa).0e\(rest)"
        } else if !text.contains(".") {
            text += ".0"
        }
        return text
    }

    /// Escapes text as RFC 8949 Appendix A writes it.
    static func quote(_ text: Substring.UTF8View) -> String {
        var output = "\""
        for scalar in String(decoding: text, as: UTF8.self).unicodeScalars {
            switch scalar {
            case "\"": output += "\\\""
            case "\\": output += "\\\\"
            case "\n": output += "\\n"
            case "\r": output += "\\r"
            case "\t": output += "\\t"
            case " "..."~": output.unicodeScalars.append(scalar)
            default:
                for unit in String(scalar).utf16 {
                    let digits = String(unit, radix: 16)
                    output += "\\u" + String(repeating: "0", count: 4 - digits.count) + digits
                }
            }
        }
        return output + "\""
    }

    private struct Printer {
        let buffer: UnsafeBufferPointer<UInt8>
        var offset: Int
        var output = ""

        mutating func item() throws(CBORError) {
            let head = try CBORHead.decode(buffer, at: offset)
            offset = head.contentStart
            switch head.majorType {
            case 0: output += String(head.argument)
            case 1:
                output +=
                    head.argument == .max ? "-18446744073709551616" : "-\(head.argument + 1)"
            case 2, 3:
                if head.isIndefinite {
                    output += "(_ "
                    var first = true
                    while try !atBreak() {
                        if !first { output += ", " }
                        first = false
                        try item()
                    }
                    offset += 1
                    output += ")"
                } else {
                    let end = offset + Int(head.argument)
                    if head.majorType == 2 {
                        output += "h'" + CBORDiagnostic.hex(buffer[offset..<end]) + "'"
                    } else {
                        output += CBORDiagnostic.quote(
                            Substring(decoding: buffer[offset..<end], as: UTF8.self).utf8)
                    }
                    offset = end
                }
            case 4:
                output += head.isIndefinite ? "[_ " : "["
                try elements(head, pairs: false)
                output += "]"
            case 5:
                output += head.isIndefinite ? "{_ " : "{"
                try elements(head, pairs: true)
                output += "}"
            case 6:
                output += "\(head.argument)("
                try item()
                output += ")"
            default:
                switch head.additionalInfo {
                case 20: output += "false"
                case 21: output += "true"
                case 22: output += "null"
                case 23: output += "undefined"
                case 25, 26, 27: output += CBORDiagnostic.format(CBORReader.floatValue(head))
                default: output += "simple(\(head.argument))"
                }
            }
        }

        private mutating func elements(_ head: CBORHead, pairs: Bool) throws(CBORError) {
            var index = 0
            while head.isIndefinite ? try !atBreak() : UInt64(index) < head.argument {
                if index > 0 { output += ", " }
                try item()
                if pairs {
                    output += ": "
                    try item()
                }
                index += 1
            }
            if head.isIndefinite { offset += 1 }
        }

        private func atBreak() throws(CBORError) -> Bool {
            guard offset < buffer.count else { throw CBORError(.truncated, at: offset) }
            return buffer[offset] == 0xff
        }
    }
}
