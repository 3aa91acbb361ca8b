import Fido2CBOR

/// A WebAuthn attestation object (§6.5.4): the CBOR map `{fmt, attStmt, authData}`.
///
/// Parsing is strict and zero-copy: the input must be CTAP2 canonical CBOR (by default) with
/// exactly those three members; ``bytes``, the authenticator data and the statement's byte
/// strings are slices of the input. Building writes the canonical encoding (keys `fmt`,
/// `attStmt`, `authData`) into one array of the exact size. Two values are equal when their
/// bytes are.
public struct AttestationObject: Sendable, Hashable {
    /// The encoded attestation object.
    public let bytes: ArraySlice<UInt8>
    /// The attestation statement (its format is ``format``).
    public let statement: AttestationStatement
    /// The authenticator data.
    public let authenticatorData: AuthenticatorData
    /// The encoded `attStmt` map, as it appears in ``bytes``.
    public let encodedStatement: ArraySlice<UInt8>

    /// The attestation statement format (`fmt`).
    public var format: String { statement.format }

    /// Builds an attestation object.
    public init(authenticatorData: AuthenticatorData, statement: AttestationStatement) {
        let format = statement.format
        let statementCount = statement.encodedCount
        let size =
            1 + CBORSize.string(count: 3) + CBORSize.string(count: format.utf8.count)
            + CBORSize.string(count: 7) + statementCount + CBORSize.string(count: 8)
            + CBORSize.string(count: authenticatorData.bytes.count)
        let bytes = CBORBufferWriter.encode(byteCount: size) { writer in
            writer.writeMapHeader(count: 3)
            writer.writeTextLiteral("fmt")
            writer.writeTextString(format)
            writer.writeTextLiteral("attStmt")
            statement.write(to: &writer)
            writer.writeTextLiteral("authData")
            writer.writeByteString(authenticatorData.bytes)
        }
        let statementStart =
            1 + CBORSize.string(count: 3) + CBORSize.string(count: format.utf8.count)
            + CBORSize.string(count: 7)
        self.bytes = bytes[...]
        self.statement = statement
        self.authenticatorData = authenticatorData
        self.encodedStatement = bytes[statementStart..<(statementStart + statementCount)]
    }

    /// Parses an attestation object.
    ///
    /// - Parameters:
    ///   - bytes: the CBOR-encoded attestation object (`attestationObject`).
    ///   - options: the CBOR rules for the object, the statement, the credential public key and
    ///     the extensions; `.strict` (CTAP2 canonical, no trailing bytes) by default.
    /// - Throws: ``WebAuthnError``: `malformedCBOR` (with the offset) for CBOR that breaks the
    ///   rules; `invalidAttestationObject` when the top level is not a map, a member is missing,
    ///   unexpected or mistyped; the errors of ``AuthenticatorData/init(bytes:options:)-(ArraySlice<UInt8>,_)``
    ///   (with field `authData.…`) and of the statement's format (field `attStmt.…`).
    public init(
        bytes: ArraySlice<UInt8>, options: CBORDecodingOptions = .strict
    )
        throws
    {
        var ignored: [ToleratedDeviation] = []
        try self.init(parsing: bytes, options: options, tolerating: [], deviations: &ignored)
    }

    /// Parses an attestation object as ``init(bytes:options:)-(ArraySlice<UInt8>,_)`` does,
    /// except that CBOR breaking only the encoding checks of `tolerated` (in the object, the
    /// statement, the credential public key or the extensions) is read from its canonical
    /// re-encoding; what it broke is appended to `deviations`, with fields relative to the
    /// attestation object. The strict reading runs first, so canonical input costs nothing
    /// more. When the object itself was re-encoded, ``bytes`` and ``encodedStatement`` are the
    /// re-encoding; the authenticator data is always the bytes as sent.
    package init(
        bytes: ArraySlice<UInt8>, options: CBORDecodingOptions,
        tolerating tolerated: CBORDecodingOptions.Checks, deviations: inout [ToleratedDeviation]
    ) throws(WebAuthnError) {
        var found: [ToleratedDeviation] = []
        do {
            try self.init(parsing: bytes, options: options, tolerating: [], deviations: &found)
        } catch {
            guard !tolerated.isEmpty else { throw error }
            let outer = try readingCBOR("attestationObject") { () throws in
                try CBORReader.canonicalizingFirstItem(
                    in: bytes, options: options, tolerating: tolerated)
            }
            guard outer.length == bytes.count || !options.checks.contains(.noTrailingBytes) else {
                throw WebAuthnError(
                    cbor: CBORError(.trailingBytes, at: outer.length), field: "attestationObject")
            }
            found = ToleratedDeviation.cbor(outer.deviations, field: "attestationObject")
            try self.init(
                parsing: outer.deviations.isEmpty ? bytes : outer.encoded[...], options: options,
                tolerating: tolerated, deviations: &found)
        }
        deviations += found
    }

    private init(
        parsing bytes: ArraySlice<UInt8>, options: CBORDecodingOptions,
        tolerating tolerated: CBORDecodingOptions.Checks, deviations: inout [ToleratedDeviation]
    ) throws(WebAuthnError) {
        var reader = try readingCBOR("attestationObject") { () throws in
            try CBORReader(bytes, options: options)
        }
        func invalid(_ reason: String, _ field: String? = nil, at offset: Int) -> WebAuthnError {
            WebAuthnError(.invalidAttestationObject, reason, field: field, offset: offset)
        }
        guard (try? reader.peekMajorType()) == .map, let count = try? reader.readMapHeader()
        else { throw invalid("an attestation object is a CBOR map", at: 0) }
        var format: String?
        var encodedStatement: ArraySlice<UInt8>?
        var statementOffset = 0
        var authData: ArraySlice<UInt8>?
        var authDataOffset = 0
        for _ in 0..<count {
            let keyOffset = reader.offset
            if reader.readTextString(ifEqualTo: "fmt") {
                guard (try? reader.peekMajorType()) == .textString,
                    let text = try? reader.readTextString()
                else { throw invalid("expected a text string", "fmt", at: reader.offset) }
                format = text
            } else if reader.readTextString(ifEqualTo: "attStmt") {
                statementOffset = reader.offset
                encodedStatement = try readingCBOR("attStmt") { () throws in
                    try reader.readEncodedItem()
                }
            } else if reader.readTextString(ifEqualTo: "authData") {
                authDataOffset = reader.offset
                guard (try? reader.peekMajorType()) == .byteString,
                    let data = try? reader.readByteString()
                else { throw invalid("expected a byte string", "authData", at: authDataOffset) }
                authData = data
            } else {
                throw invalid(
                    "an attestation object has only fmt, attStmt and authData", at: keyOffset)
            }
        }
        guard let format else { throw invalid("required member is missing", "fmt", at: 0) }
        guard let encodedStatement else {
            throw invalid("required member is missing", "attStmt", at: 0)
        }
        guard let authData else {
            throw invalid("required member is missing", "authData", at: 0)
        }
        let authDataStart = authDataOffset + CBORSize.head(UInt64(authData.count))
        var authDataDeviations: [ToleratedDeviation] = []
        self.authenticatorData = try Self.shiftingOffsets(by: authDataStart, field: "authData") {
            () throws(WebAuthnError) in
            try AuthenticatorData(
                bytes: authData, options: options, tolerating: tolerated,
                deviations: &authDataDeviations)
        }
        deviations += authDataDeviations.map { $0.prefixingField("attestationObject.authData") }
        self.statement = try AttestationStatement(
            format: format, encoded: encodedStatement, options: options, base: statementOffset)
        self.bytes = bytes
        self.encodedStatement = encodedStatement
    }

    /// Parses an attestation object; see ``init(bytes:options:)-(ArraySlice<UInt8>,_)``.
    ///
    /// - Throws: as ``init(bytes:options:)-(ArraySlice<UInt8>,_)``.
    public init(bytes: [UInt8], options: CBORDecodingOptions = .strict) throws {
        try self.init(bytes: bytes[...], options: options)
    }

    /// Runs `body`, prefixing errors' fields with `field` and moving their offsets by `shift`
    /// (so they count from the start of the attestation object).
    private static func shiftingOffsets<Result>(
        by shift: Int, field: String, _ body: () throws(WebAuthnError) -> Result
    ) throws(WebAuthnError) -> Result {
        do {
            return try body()
        } catch {
            let moved = WebAuthnError(
                error.code, error.reason, field: error.field, step: error.step,
                offset: error.offset.map { $0 + shift })
            throw moved.prefixingField(field)
        }
    }

    /// Equal when the bytes are equal.
    public static func == (lhs: Self, rhs: Self) -> Bool { lhs.bytes == rhs.bytes }

    /// Hashes the bytes.
    public func hash(into hasher: inout Hasher) { hasher.combine(bytes) }
}
