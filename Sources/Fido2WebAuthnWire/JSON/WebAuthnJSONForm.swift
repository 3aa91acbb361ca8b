@_spi(Fido2Internals) import Fido2Encoding

/// A WebAuthn Level 3 JSON form (`PublicKeyCredentialCreationOptionsJSON`,
/// `RegistrationResponseJSON`, …): read strictly from JSON, written as exact, stable bytes.
///
/// Reading goes through `JSONScanner` (no intermediate tree), tolerates unknown members and
/// reports a missing or mistyped member with its path.
/// Writing emits members in the order of the specification's IDL, binary members as unpadded
/// base64url, no whitespace; the same value always gives the same bytes.
///
/// Every form is also `Codable`: `JSONDecoder` reads it from the JSON a browser's `toJSON()`
/// produces and `JSONEncoder` writes that JSON, so a Vapor or Hummingbird handler can take one
/// from a request body. That path goes through `JSONValue` and the same reader and writer; the
/// byte readers above skip the detour and are the fast path.
public protocol WebAuthnJSONForm: Sendable, Hashable, Codable {
    /// Reads the form from the value that comes next in `scanner`, consuming it.
    ///
    /// - Throws: ``WebAuthnError`` with code `missingMember`, `wrongType`, `invalidBase64URL`,
    ///   `invalidValue` or `malformedJSON`, naming the member relative to this value.
    @_spi(Fido2Internals) init(scanning scanner: inout JSONScanner) throws(WebAuthnError)

    /// Writes the form as one JSON value.
    func write(to writer: inout JSONWriter)

    /// About how many bytes ``write(to:)`` produces, so ``jsonBytes()`` allocates once.
    var estimatedJSONLength: Int { get }
}

extension WebAuthnJSONForm {
    /// A generic guess for small forms.
    public var estimatedJSONLength: Int { 512 }

    /// Reads the form from JSON text given as UTF-8 bytes.
    ///
    /// - Throws: ``WebAuthnError`` with code `malformedJSON` (and the byte offset) when the bytes
    ///   are not JSON, or `missingMember`, `wrongType`, `invalidBase64URL` or `invalidValue`
    ///   naming the member. A document that is both malformed and wrong in content is reported
    ///   as malformed.
    public init(jsonBytes: [UInt8]) throws {
        self = try JSONScanner.form(jsonBytes)
    }

    /// Reads the form from JSON text given as UTF-8 bytes in any collection.
    ///
    /// - Throws: ``WebAuthnError`` as ``init(jsonBytes:)-([UInt8])`` does.
    public init<Bytes: Collection>(jsonBytes: Bytes) throws
    where Bytes.Element == UInt8 {
        self = try JSONScanner.form(Array(jsonBytes))
    }

    /// Reads the form from JSON text.
    ///
    /// - Throws: ``WebAuthnError`` as ``init(jsonBytes:)-([UInt8])`` does.
    public init(jsonText: String) throws {
        self = try JSONScanner.form(Array(jsonText.utf8))
    }

    /// Reads the form from an already parsed value (one member of a larger document, say).
    ///
    /// - Parameters:
    ///   - jsonValue: the parsed value holding the form, re-serialized and read as the form.
    ///   - path: where the value sits in the larger document; errors name members under it
    ///     (`publicKey.challenge`).
    /// - Throws: ``WebAuthnError`` as ``init(jsonBytes:)-([UInt8])`` does; offsets then refer to
    ///   the value's compact serialization.
    public init(jsonValue: JSONValue, path: String) throws {
        self = try withinField(path) { () throws(WebAuthnError) in
            try JSONScanner.form(jsonValue.serialized())
        }
    }

    /// The form as compact JSON bytes.
    @inlinable
    public func jsonBytes() -> [UInt8] {
        var writer = JSONWriter(reservingCapacity: estimatedJSONLength)
        write(to: &writer)
        return writer.bytes
    }

    /// The form as compact JSON text.
    public func jsonText() -> String {
        String(decoding: jsonBytes(), as: UTF8.self)
    }
}
