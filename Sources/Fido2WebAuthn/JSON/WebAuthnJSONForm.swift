import Fido2Encoding

/// A WebAuthn Level 3 JSON form (`PublicKeyCredentialCreationOptionsJSON`,
/// `RegistrationResponseJSON`, …): read strictly from JSON, written as exact, stable bytes.
///
/// Reading tolerates unknown members and reports a missing or mistyped member with its path.
/// Writing emits members in the order of the specification's IDL, binary members as unpadded
/// base64url, no whitespace; the same value always gives the same bytes.
public protocol WebAuthnJSONForm: Sendable, Hashable {
    /// Reads the form from a parsed JSON value.
    ///
    /// - Parameter path: where the value sits in a larger document (`""` at the top level);
    ///   errors name members under it.
    /// - Throws: ``WebAuthnError`` with code `missingMember`, `wrongType`, `invalidBase64URL`
    ///   or `invalidValue`, naming the member.
    init(jsonValue: JSONValue, path: String) throws(WebAuthnError)

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
    ///   are not JSON, or as ``init(jsonValue:path:)`` does.
    public init(jsonBytes: [UInt8]) throws(WebAuthnError) {
        let value = try Self.readJSON { () throws(Fido2EncodingError) in
            try JSONReader().read(jsonBytes)
        }
        try self.init(jsonValue: value, path: "")
    }

    /// Reads the form from JSON text given as UTF-8 bytes in any collection.
    ///
    /// - Throws: ``WebAuthnError`` as ``init(jsonBytes:)-([UInt8])`` does.
    public init<Bytes: Collection>(jsonBytes: Bytes) throws(WebAuthnError)
    where Bytes.Element == UInt8 {
        let value = try Self.readJSON { () throws(Fido2EncodingError) in
            try JSONReader().read(jsonBytes)
        }
        try self.init(jsonValue: value, path: "")
    }

    /// Reads the form from JSON text.
    ///
    /// - Throws: ``WebAuthnError`` as ``init(jsonBytes:)-([UInt8])`` does.
    public init(jsonText: String) throws(WebAuthnError) {
        let value = try Self.readJSON { () throws(Fido2EncodingError) in
            try JSONReader().read(jsonText)
        }
        try self.init(jsonValue: value, path: "")
    }

    /// The form as compact JSON bytes.
    public func jsonBytes() -> [UInt8] {
        var writer = JSONWriter(reservingCapacity: estimatedJSONLength)
        write(to: &writer)
        return writer.bytes
    }

    /// The form as compact JSON text.
    public func jsonText() -> String {
        String(decoding: jsonBytes(), as: UTF8.self)
    }

    /// Runs a JSON read, turning its error into `malformedJSON` with the byte offset.
    private static func readJSON(
        _ read: () throws(Fido2EncodingError) -> JSONValue
    )
        throws(WebAuthnError) -> JSONValue
    {
        do {
            return try read()
        } catch {
            throw WebAuthnError(
                .malformedJSON, "not valid JSON: \(error.reason)", offset: error.offset)
        }
    }
}
