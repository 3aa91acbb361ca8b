import Fido2Encoding

extension Hex {
    /// The bytes of a hexadecimal literal; traps on malformed text, for literals in tests only.
    package static func bytes(_ text: String) -> [UInt8] {
        guard let bytes = try? decode(text) else { preconditionFailure("bad hex literal: \(text)") }
        return bytes
    }
}
