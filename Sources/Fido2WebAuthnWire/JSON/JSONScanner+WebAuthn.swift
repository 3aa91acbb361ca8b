@_spi(Fido2Internals) import Fido2Encoding

/// Typed reads for the WebAuthn JSON forms on top of ``JSONScanner``: each checks the JSON type
/// first and reports a mismatch as `wrongType` ("expected a string, found a number"); scanner
/// failures become `malformedJSON` (or `invalidBase64URL` for a bad base64url member).
///
/// Errors carry the path relative to the object being read; ``members(_:)`` and
/// ``elements(_:)`` put the member name or `[index]` in front as an error passes through, so
/// successful reads never build a path string.
extension JSONScanner {
    /// The WebAuthn error for a scanner failure.
    @usableFromInline
    package static func webAuthnError(_ error: Fido2EncodingError) -> WebAuthnError {
        switch error.code {
        case .unexpectedKind:
            return WebAuthnError(.wrongType, error.reason)
        case .invalidCharacter, .invalidLength, .invalidPadding, .nonZeroTrailingBits:
            return WebAuthnError(
                .invalidBase64URL, "not base64url: \(error.reason)", offset: error.offset)
        default:
            return WebAuthnError(
                .malformedJSON, "not valid JSON: \(error.reason)", offset: error.offset)
        }
    }

    /// Scans a whole document as one form.
    @inlinable
    package static func form<Form: WebAuthnJSONForm>(_ bytes: [UInt8]) throws(WebAuthnError) -> Form
    {
        try JSONScanner.scan(bytes, mapError: webAuthnError) { (scanner) throws(WebAuthnError) in
            try Form(scanning: &scanner)
        }
    }

    /// Runs a scanner call, converting its error.
    private mutating func run<Result>(
        _ body: (inout JSONScanner) throws(Fido2EncodingError) -> Result
    ) throws(WebAuthnError) -> Result {
        do {
            return try body(&self)
        } catch {
            throw Self.webAuthnError(error)
        }
    }

    /// The kind of the next value.
    package mutating func kind() throws(WebAuthnError) -> Kind {
        try run { (scanner) throws(Fido2EncodingError) in try scanner.peek() }
    }

    /// Fails with `wrongType` unless the next value is of `kind`.
    package mutating func expect(_ kind: Kind, _ what: String) throws(WebAuthnError) {
        let found = try self.kind()
        guard found == kind else {
            throw WebAuthnError(.wrongType, "expected \(what), found \(found)")
        }
    }

    /// Whether the next value is `null`, consuming it if so (optional members treat `null` as
    /// absent: servers in languages with `nil` often send it for "not set").
    package mutating func takeNull() throws(WebAuthnError) -> Bool {
        guard try kind() == .null else { return false }
        try run { (scanner) throws(Fido2EncodingError) in try scanner.readNull() }
        return true
    }

    /// An optional member's value: nil for `null`, otherwise what `read` reads.
    package mutating func optional<Value>(
        _ read: (inout JSONScanner) throws(WebAuthnError) -> Value
    )
        throws(WebAuthnError) -> Value?
    {
        if try takeNull() { return nil }
        return try read(&self)
    }

    package mutating func string() throws(WebAuthnError) -> String {
        try run { (scanner) throws(Fido2EncodingError) in try scanner.readString() }
    }

    package mutating func base64URL() throws(WebAuthnError) -> [UInt8] {
        do {
            return try readBase64URL()
        } catch  where error.code == .unexpectedKind {
            // Name the expectation in WebAuthn's terms; the scanner only knows "a string".
            let found = try kind()
            throw WebAuthnError(.wrongType, "expected a base64url string, found \(found)")
        } catch {
            throw Self.webAuthnError(error)
        }
    }

    package mutating func bool() throws(WebAuthnError) -> Bool {
        try run { (scanner) throws(Fido2EncodingError) in try scanner.readBool() }
    }

    /// An integer literal within `range` (WebIDL `long`, `unsigned long`).
    package mutating func integer(in range: ClosedRange<Int>) throws(WebAuthnError) -> Int {
        try expect(.number, "an integer")
        let number = try run { (scanner) throws(Fido2EncodingError) in try scanner.readNumber() }
        guard let integer = number.intValue else {
            throw WebAuthnError(.wrongType, "expected an integer, found the number \(number.text)")
        }
        guard range.contains(integer) else {
            throw WebAuthnError(
                .invalidValue, "\(integer) is outside \(range.lowerBound)...\(range.upperBound)")
        }
        return integer
    }

    /// A WebIDL `long` (COSEAlgorithmIdentifier).
    package mutating func long() throws(WebAuthnError) -> Int {
        try integer(in: Int(Int32.min)...Int(Int32.max))
    }

    /// A WebIDL `unsigned long` (a timeout in milliseconds).
    package mutating func unsignedLong() throws(WebAuthnError) -> UInt32 {
        UInt32(truncatingIfNeeded: try integer(in: 0...Int(UInt32.max)))
    }

    /// A 64-bit signed integer (a time in milliseconds).
    package mutating func int64() throws(WebAuthnError) -> Int64 {
        Int64(try integer(in: Int(Int64.min)...Int(Int64.max)))
    }

    /// An array of base64url strings (credential IDs).
    package mutating func base64URLs() throws(WebAuthnError) -> [[UInt8]] {
        var values: [[UInt8]] = []
        try elements { (scanner) throws(WebAuthnError) in values.append(try scanner.base64URL()) }
        return values
    }

    /// Any value, as a tree.
    package mutating func value() throws(WebAuthnError) -> JSONValue {
        try run { (scanner) throws(Fido2EncodingError) in try scanner.readValue() }
    }

    /// An object kept as raw JSON (extension inputs and outputs).
    package mutating func rawObject() throws(WebAuthnError) -> JSONObject {
        try expect(.object, "an object")
        guard case .object(let object) = try value() else {
            throw WebAuthnError(.wrongType, "expected an object")
        }
        return object
    }

    /// Checks and skips the next value (an unknown member's).
    package mutating func skip() throws(WebAuthnError) {
        try run { (scanner) throws(Fido2EncodingError) in try scanner.skipValue() }
    }

    /// Reads an object member by member; `body` must read or ``skip()`` each value. Errors
    /// from `body` get the member's name in front of their field.
    package mutating func members(
        _ body: (inout JSONScanner, Name) throws(WebAuthnError) -> Void
    )
        throws(WebAuthnError)
    {
        try run { (scanner) throws(Fido2EncodingError) in try scanner.beginObject() }
        while let name = try run({ (scanner) throws(Fido2EncodingError) in try scanner.nextMember()
        }) {
            do {
                try body(&self, name)
            } catch {
                throw error.prefixingField(name.string)
            }
        }
    }

    /// Reads an array element by element; errors from `body` get `[index]` in front.
    package mutating func elements(
        _ body: (inout JSONScanner) throws(WebAuthnError) -> Void
    )
        throws(WebAuthnError)
    {
        try run { (scanner) throws(Fido2EncodingError) in try scanner.beginArray() }
        var index = 0
        while try run({ (scanner) throws(Fido2EncodingError) in try scanner.nextElement() }) {
            do {
                try body(&self)
            } catch {
                throw error.prefixingField("[\(index)]")
            }
            index += 1
        }
    }

    /// An array of strings.
    package mutating func strings() throws(WebAuthnError) -> [String] {
        var strings: [String] = []
        try elements { (scanner) throws(WebAuthnError) in strings.append(try scanner.string()) }
        return strings
    }

    /// An array of enumeration values (any string is kept).
    package mutating func enumerations<Value: WebAuthnStringEnumeration>() throws(WebAuthnError)
        -> [Value]
    {
        var values: [Value] = []
        try elements { (scanner) throws(WebAuthnError) in
            values.append(Value(rawValue: try scanner.string()))
        }
        return values
    }

    /// A nested form.
    package mutating func form<Form: WebAuthnJSONForm>() throws(WebAuthnError) -> Form {
        try Form(scanning: &self)
    }

    /// An array of nested forms.
    package mutating func forms<Form: WebAuthnJSONForm>() throws(WebAuthnError) -> [Form] {
        var forms: [Form] = []
        try elements { (scanner) throws(WebAuthnError) in forms.append(try Form(scanning: &scanner))
        }
        return forms
    }
}

/// The error for a required member that never came.
package func missingMember(_ name: String) -> WebAuthnError {
    WebAuthnError(.missingMember, "required member is missing", field: name)
}

/// Runs `body`, putting `component` in front of the field of any error it throws.
func withinField<Result>(
    _ component: @autoclosure () -> String, _ body: () throws(WebAuthnError) -> Result
) throws(WebAuthnError) -> Result {
    do {
        return try body()
    } catch {
        throw error.prefixingField(component())
    }
}
