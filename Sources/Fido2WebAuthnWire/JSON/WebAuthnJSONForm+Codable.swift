@_spi(Fido2Internals) import Fido2Encoding

extension WebAuthnJSONForm {
    /// Reads the form through any `Decoder` (`JSONDecoder` for a request body): the value is
    /// decoded as a `JSONValue`, serialized and read as ``init(jsonBytes:)-([UInt8])`` reads it,
    /// so the same members are required and the same unknown members ignored.
    ///
    /// - Throws: `DecodingError.dataCorrupted` whose underlying error is the ``WebAuthnError``
    ///   naming the missing or mistyped member, or the decoder's own error for input that is
    ///   not JSON.
    public init(from decoder: any Decoder) throws {
        let value = try JSONValue(from: decoder)
        do {
            self = try JSONScanner.form(value.serialized())
        } catch {
            throw DecodingError.dataCorrupted(
                DecodingError.Context(
                    codingPath: decoder.codingPath, debugDescription: error.description,
                    underlyingError: error))
        }
    }

    /// Writes the form through any `Encoder` (`JSONEncoder` for a response body): the members
    /// ``write(to:)`` writes, binary members as base64url strings, in the order the encoder
    /// chooses. For stable bytes use ``jsonBytes()``.
    public func encode(to encoder: any Encoder) throws {
        try JSONValue(parsing: jsonBytes()).encode(to: encoder)
    }
}
