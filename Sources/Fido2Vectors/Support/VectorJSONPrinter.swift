import Fido2Encoding

/// Writes a `JSONValue` as indented text, byte for byte the same on every run: members in
/// their given order, two spaces per level, arrays of scalars on one line, strings escaped as
/// `JSONWriter` escapes them, a final newline. The generated vector files are written with it.
enum VectorJSONPrinter {
    /// The UTF-8 text of `value`.
    static func bytes(_ value: JSONValue) -> [UInt8] {
        var output: [UInt8] = []
        write(value, indent: 0, into: &output)
        output.append(UInt8(ascii: "\n"))
        return output
    }

    private static func write(_ value: JSONValue, indent: Int, into output: inout [UInt8]) {
        switch value {
        case .object(let object) where !object.isEmpty:
            output.append(UInt8(ascii: "{"))
            for (index, member) in object.members.enumerated() {
                output += Array((index == 0 ? "\n" : ",\n").utf8)
                output += [UInt8](repeating: UInt8(ascii: " "), count: indent + 2)
                output += JSONValue.string(member.name).serialized()
                output += Array(": ".utf8)
                write(member.value, indent: indent + 2, into: &output)
            }
            output.append(UInt8(ascii: "\n"))
            output += [UInt8](repeating: UInt8(ascii: " "), count: indent)
            output.append(UInt8(ascii: "}"))
        case .array(let elements) where elements.contains(where: isContainer):
            output.append(UInt8(ascii: "["))
            for (index, element) in elements.enumerated() {
                output += Array((index == 0 ? "\n" : ",\n").utf8)
                output += [UInt8](repeating: UInt8(ascii: " "), count: indent + 2)
                write(element, indent: indent + 2, into: &output)
            }
            output.append(UInt8(ascii: "\n"))
            output += [UInt8](repeating: UInt8(ascii: " "), count: indent)
            output.append(UInt8(ascii: "]"))
        case .array(let elements):
            output.append(UInt8(ascii: "["))
            for (index, element) in elements.enumerated() {
                if index > 0 { output += Array(", ".utf8) }
                output += element.serialized()
            }
            output.append(UInt8(ascii: "]"))
        default:
            output += value.serialized()
        }
    }

    private static func isContainer(_ value: JSONValue) -> Bool {
        switch value {
        case .object(let object): !object.isEmpty
        case .array: true
        default: false
        }
    }
}
