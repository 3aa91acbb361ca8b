extension CBORReader {
    /// Reads the next item, whatever its type, as a ``CBORValue`` (copying its bytes).
    ///
    /// - Throws: ``CBORError`` at the end of the input, or with code `invalidUTF8` for a text
    ///   string that is not UTF-8 (a `String` cannot hold one, even in lenient mode).
    public mutating func readValue() throws -> CBORValue {
        let start = offset
        let (value, end) = try input.withUnsafeBufferPointer {
            (buffer) throws(CBORError) -> (CBORValue, Int) in
            var builder = CBORValueBuilder(buffer: buffer, offset: start)
            let value = try builder.value()
            return (value, builder.offset)
        }
        offset = end
        return value
    }
}

extension CBORValue {
    /// Decodes `bytes`, which must hold exactly one item.
    ///
    /// - Throws: ``CBORError`` when the input is not well-formed, breaks a rule the options
    ///   check, exceeds a limit, or has bytes after the item (whatever the options say).
    public static func decode(
        _ bytes: ArraySlice<UInt8>, options: CBORDecodingOptions = .strict
    ) throws -> CBORValue {
        let (value, length) = try decodeFirst(bytes, options: options)
        guard length == bytes.count else { throw CBORError(.trailingBytes, at: length) }
        return value
    }

    /// Decodes `bytes`, which must hold exactly one item; see ``decode(_:options:)-(ArraySlice<UInt8>,_)``.
    public static func decode(
        _ bytes: [UInt8], options: CBORDecodingOptions = .strict
    ) throws -> CBORValue {
        try decode(bytes[...], options: options)
    }

    /// Decodes the first item of `bytes` and returns it with the number of bytes it took.
    /// Whatever follows the first item is not looked at.
    ///
    /// - Throws: ``CBORError`` when the first item is not well-formed, breaks a rule the options
    ///   check, or exceeds a limit.
    public static func decodeFirst(
        _ bytes: ArraySlice<UInt8>, options: CBORDecodingOptions = .strict
    ) throws -> (value: CBORValue, length: Int) {
        let length = try CBORReader.lengthOfFirstItem(in: bytes, options: options)
        return try bytes.withUnsafeBufferPointer {
            (buffer) throws(CBORError) -> (value: CBORValue, length: Int) in
            var builder = CBORValueBuilder(buffer: buffer, offset: 0)
            return (try builder.value(), length)
        }
    }
}
