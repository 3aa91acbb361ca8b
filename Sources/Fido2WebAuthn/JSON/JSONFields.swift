import Fido2Encoding

/// Reads the members of one JSON object for the WebAuthn JSON forms, turning every missing or
/// mistyped member into a ``WebAuthnError`` that names it.
///
/// Errors carry the member's name relative to this object; each enclosing reader puts its own
/// part in front as the error passes through (``within(_:_:)``), so the caller sees the full
/// path (`response.clientDataJSON: expected a base64url string, found a number`) while
/// successful reads never build a path string.
///
/// Optional members may be absent or `null` (servers written in languages with `nil` often
/// send `null` for "not set"); required members must be present and not `null`.
struct JSONFields {
    let object: JSONObject

    /// The fields of `value`, which must be an object.
    init(_ value: JSONValue) throws(WebAuthnError) {
        guard case .object(let object) = value else {
            throw WebAuthnError(.wrongType, "expected an object, found \(Self.describe(value))")
        }
        self.object = object
    }

    /// Reads a whole document and returns the fields of its top-level object.
    static func document(_ bytes: [UInt8]) throws(WebAuthnError) -> JSONFields {
        let value: JSONValue
        do {
            value = try JSONReader().read(bytes)
        } catch {
            throw WebAuthnError(
                .malformedJSON, "not valid JSON: \(error.reason)", offset: error.offset)
        }
        return try JSONFields(value)
    }

    /// Runs `body`, putting `component` in front of the field of any error it throws.
    static func within<Result>(
        _ component: @autoclosure () -> String, _ body: () throws(WebAuthnError) -> Result
    ) throws(WebAuthnError) -> Result {
        do {
            return try body()
        } catch {
            throw error.prefixingField(component())
        }
    }

    // MARK: Presence

    /// The member's value, or nil when it is absent or `null`.
    func optional(_ name: String) -> JSONValue? {
        guard let value = object[name], !value.isNull else { return nil }
        return value
    }

    /// The member's value.
    func required(_ name: String) throws(WebAuthnError) -> JSONValue {
        guard let value = object[name] else {
            throw WebAuthnError(.missingMember, "required member is missing", field: name)
        }
        return value
    }

    // MARK: Typed members

    func requiredString(_ name: String) throws(WebAuthnError) -> String {
        let value = try required(name)
        return try Self.within(name) { () throws(WebAuthnError) in try Self.string(value) }
    }

    func optionalString(_ name: String) throws(WebAuthnError) -> String? {
        guard let value = optional(name) else { return nil }
        return try Self.within(name) { () throws(WebAuthnError) in try Self.string(value) }
    }

    func requiredBase64URL(_ name: String) throws(WebAuthnError) -> [UInt8] {
        let value = try required(name)
        return try Self.within(name) { () throws(WebAuthnError) in try Self.base64URL(value) }
    }

    func optionalBase64URL(_ name: String) throws(WebAuthnError) -> [UInt8]? {
        guard let value = optional(name) else { return nil }
        return try Self.within(name) { () throws(WebAuthnError) in try Self.base64URL(value) }
    }

    func optionalBool(_ name: String) throws(WebAuthnError) -> Bool? {
        guard let value = optional(name) else { return nil }
        guard case .bool(let flag) = value else {
            throw Self.wrongType("a boolean", value).prefixingField(name)
        }
        return flag
    }

    /// A WebIDL `long` (COSEAlgorithmIdentifier).
    func requiredLong(_ name: String) throws(WebAuthnError) -> Int {
        let value = try required(name)
        return try Self.within(name) { () throws(WebAuthnError) in
            try Self.integer(value, in: Int(Int32.min)...Int(Int32.max))
        }
    }

    /// A WebIDL `long` (COSEAlgorithmIdentifier).
    func optionalLong(_ name: String) throws(WebAuthnError) -> Int? {
        guard let value = optional(name) else { return nil }
        return try Self.within(name) { () throws(WebAuthnError) in
            try Self.integer(value, in: Int(Int32.min)...Int(Int32.max))
        }
    }

    /// A WebIDL `unsigned long` (a timeout in milliseconds).
    func optionalUnsignedLong(_ name: String) throws(WebAuthnError) -> UInt32? {
        guard let value = optional(name) else { return nil }
        let integer = try Self.within(name) { () throws(WebAuthnError) in
            try Self.integer(value, in: 0...Int(UInt32.max))
        }
        return UInt32(truncatingIfNeeded: integer)
    }

    /// A required member holding a nested form.
    func requiredForm<Form: JSONFieldsDecodable>(_ name: String) throws(WebAuthnError) -> Form {
        let value = try required(name)
        return try Self.within(name) { () throws(WebAuthnError) in
            try Form(fields: JSONFields(value))
        }
    }

    /// An optional member holding a nested form.
    func optionalForm<Form: JSONFieldsDecodable>(_ name: String) throws(WebAuthnError) -> Form? {
        guard let value = optional(name) else { return nil }
        return try Self.within(name) { () throws(WebAuthnError) in
            try Form(fields: JSONFields(value))
        }
    }

    /// A member kept as raw JSON, which must be an object (extension inputs and outputs).
    func optionalRawObject(_ name: String) throws(WebAuthnError) -> JSONObject? {
        guard let value = optional(name) else { return nil }
        return try Self.within(name) { () throws(WebAuthnError) in try JSONFields(value).object }
    }

    /// An array member whose elements are forms.
    func forms<Form: JSONFieldsDecodable>(
        _ name: String, required: Bool
    ) throws(WebAuthnError)
        -> [Form]?
    {
        guard let elements = try array(name, required: required) else { return nil }
        return try Self.within(name) { () throws(WebAuthnError) in
            var forms: [Form] = []
            forms.reserveCapacity(elements.count)
            for (index, element) in elements.enumerated() {
                forms.append(
                    try Self.within("[\(index)]") { () throws(WebAuthnError) in
                        try Form(fields: JSONFields(element))
                    })
            }
            return forms
        }
    }

    /// An optional array member whose elements are strings.
    func optionalStringArray(_ name: String) throws(WebAuthnError) -> [String]? {
        guard let elements = try array(name, required: false) else { return nil }
        return try Self.within(name) { () throws(WebAuthnError) in
            var strings: [String] = []
            strings.reserveCapacity(elements.count)
            for (index, element) in elements.enumerated() {
                guard case .string(let text) = element else {
                    throw Self.wrongType("a string", element).prefixingField("[\(index)]")
                }
                strings.append(text)
            }
            return strings
        }
    }

    /// An optional array of enumeration values.
    func optionalEnumerations<Value: WebAuthnStringEnumeration>(
        _ name: String
    )
        throws(WebAuthnError) -> [Value]?
    {
        try optionalStringArray(name)?.map { Value(rawValue: $0) }
    }

    /// Checks that member `name` holds exactly the string `expected` (a credential's `type`).
    func requireConstant(_ name: String, _ expected: String) throws(WebAuthnError) {
        let value = try requiredString(name)
        guard value == expected else {
            throw WebAuthnError(
                .invalidValue, "expected \"\(expected)\", found \"\(value)\"", field: name)
        }
    }

    private func array(_ name: String, required: Bool) throws(WebAuthnError) -> [JSONValue]? {
        let value: JSONValue
        if required {
            value = try self.required(name)
        } else {
            guard let present = optional(name) else { return nil }
            value = present
        }
        guard case .array(let elements) = value else {
            throw Self.wrongType("an array", value).prefixingField(name)
        }
        return elements
    }

    // MARK: Conversions (errors without a field; callers add it)

    static func string(_ value: JSONValue) throws(WebAuthnError) -> String {
        guard case .string(let text) = value else { throw wrongType("a string", value) }
        return text
    }

    static func base64URL(_ value: JSONValue) throws(WebAuthnError) -> [UInt8] {
        guard case .string(let text) = value else { throw wrongType("a base64url string", value) }
        do {
            return try Base64URL.decode(text)
        } catch {
            throw WebAuthnError(
                .invalidBase64URL, "not base64url: \(error.reason)", offset: error.offset)
        }
    }

    static func integer(_ value: JSONValue, in range: ClosedRange<Int>) throws(WebAuthnError) -> Int
    {
        guard case .number(let number) = value else { throw wrongType("an integer", value) }
        guard let integer = number.intValue else {
            throw WebAuthnError(.wrongType, "expected an integer, found the number \(number.text)")
        }
        guard range.contains(integer) else {
            throw WebAuthnError(
                .invalidValue, "\(integer) is outside \(range.lowerBound)...\(range.upperBound)")
        }
        return integer
    }

    static func wrongType(_ expected: String, _ value: JSONValue) -> WebAuthnError {
        WebAuthnError(.wrongType, "expected \(expected), found \(describe(value))")
    }

    /// `a number`, `an object`, `null`, … for error messages.
    static func describe(_ value: JSONValue) -> String {
        switch value {
        case .null: return "null"
        case .array, .object: return "an \(value.kindName)"
        default: return "a \(value.kindName)"
        }
    }
}

/// A form that reads itself from the fields of one JSON object; errors name members relative
/// to that object.
protocol JSONFieldsDecodable {
    init(fields: JSONFields) throws(WebAuthnError)
}

extension WebAuthnJSONForm where Self: JSONFieldsDecodable {
    /// Reads the value as this form, naming members under `path` in errors.
    static func decode(_ value: JSONValue, path: String) throws(WebAuthnError) -> Self {
        try JSONFields.within(path) { () throws(WebAuthnError) in
            try Self(fields: JSONFields(value))
        }
    }
}
