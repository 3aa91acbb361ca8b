import Fido2Encoding

/// The bytes of an option's base64url value, as every command reads them.
enum Base64URLOption {
    /// `text`, the value of `option` (`--user-id`), decoded; when `length` is given, its byte
    /// count must be in `length.range`, `length.of` naming the thing ("a user handle").
    ///
    /// - Throws: ``CommandFailure`` (a usage error, exit 64) naming the option.
    static func decode(
        _ text: String, option: String, length: (range: ClosedRange<Int>, of: String)? = nil
    ) throws -> [UInt8] {
        let bytes: [UInt8]
        do {
            bytes = try Base64URL.decode(text)
        } catch {
            throw CommandFailure.usage("\(option) is not base64url: \(error)")
        }
        if let length, !length.range.contains(bytes.count) {
            throw CommandFailure.usage(
                "\(option) holds \(bytes.count) bytes; \(length.of) has "
                    + "\(length.range.lowerBound) to \(length.range.upperBound)")
        }
        return bytes
    }
}
