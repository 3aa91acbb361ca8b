/// Parses hexadecimal text typed or piped by a user: whitespace is ignored, either case works.
enum HexInput {
    /// The bytes of `text`, or a failure naming the first bad character.
    static func decode(_ text: [UInt8]) throws(CommandFailure) -> [UInt8] {
        var output: [UInt8] = []
        output.reserveCapacity(text.count / 2)
        var high: UInt8? = nil
        for (index, char) in text.enumerated() {
            let value: UInt8
            switch char {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): value = char - UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): value = char - UInt8(ascii: "a") + 10
            case UInt8(ascii: "A")...UInt8(ascii: "F"): value = char - UInt8(ascii: "A") + 10
            case UInt8(ascii: " "), UInt8(ascii: "\n"), UInt8(ascii: "\r"), UInt8(ascii: "\t"):
                continue
            default:
                throw CommandFailure("invalid hex character at offset \(index)")
            }
            if let pending = high {
                output.append(pending << 4 | value)
                high = nil
            } else {
                high = value
            }
        }
        guard high == nil else { throw CommandFailure("odd number of hex digits") }
        return output
    }
}
