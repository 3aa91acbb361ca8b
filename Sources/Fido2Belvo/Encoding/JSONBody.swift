/// A request body as an ordered JSON tree, serialized by hand.
///
/// `JSONEncoder` cannot embed already-serialized JSON, and the risk signals must reach Belvo byte
/// for byte as the SDK produced them; writing the few documented bodies ourselves also keeps
/// members in the documented order and the output identical on every platform.
indirect enum JSONBody: Sendable {
    case string(String)
    case bool(Bool)
    /// A JSON number already in its textual form (validated by whoever builds it).
    case number(String)
    /// Serialized JSON copied verbatim (validated by whoever builds it).
    case raw([UInt8])
    case array([JSONBody])
    case object([(String, JSONBody)])

    /// The UTF-8 JSON text, without insignificant whitespace.
    var bytes: [UInt8] {
        var out = [UInt8]()
        write(into: &out)
        return out
    }

    private func write(into out: inout [UInt8]) {
        switch self {
        case .string(let text):
            Self.writeString(text, into: &out)
        case .bool(let flag):
            out.append(contentsOf: (flag ? "true" : "false").utf8)
        case .number(let text):
            out.append(contentsOf: text.utf8)
        case .raw(let json):
            out.append(contentsOf: json)
        case .array(let items):
            out.append(UInt8(ascii: "["))
            for (index, item) in items.enumerated() {
                if index > 0 { out.append(UInt8(ascii: ",")) }
                item.write(into: &out)
            }
            out.append(UInt8(ascii: "]"))
        case .object(let members):
            out.append(UInt8(ascii: "{"))
            for (index, (name, value)) in members.enumerated() {
                if index > 0 { out.append(UInt8(ascii: ",")) }
                Self.writeString(name, into: &out)
                out.append(UInt8(ascii: ":"))
                value.write(into: &out)
            }
            out.append(UInt8(ascii: "}"))
        }
    }

    /// RFC 8259 §7: quote, escape `"` and `\`, and escape every control character.
    private static func writeString(_ text: String, into out: inout [UInt8]) {
        let hex = Array("0123456789abcdef".utf8)
        out.append(UInt8(ascii: "\""))
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "\""): out.append(contentsOf: #"\""#.utf8)
            case UInt8(ascii: "\\"): out.append(contentsOf: #"\\"#.utf8)
            case 0x0A: out.append(contentsOf: #"\n"#.utf8)
            case 0x0D: out.append(contentsOf: #"\r"#.utf8)
            case 0x09: out.append(contentsOf: #"\t"#.utf8)
            case 0x00..<0x20:
                out.append(contentsOf: #"\u00"#.utf8)
                out.append(hex[Int(byte >> 4)])
                out.append(hex[Int(byte & 0x0f)])
            default:
                out.append(byte)
            }
        }
        out.append(UInt8(ascii: "\""))
    }
}
