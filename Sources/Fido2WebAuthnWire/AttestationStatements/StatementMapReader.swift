import Fido2CBOR
import Fido2Crypto

/// Reads an attestation statement's CBOR map member by member, with typed reads that report
/// failures as ``WebAuthnError`` naming `attStmt.<member>`. Offsets count from the start of the
/// attestation object (`base` is where the statement starts in it).
struct StatementMapReader {
    var reader: CBORReader
    let format: String
    let base: Int

    /// Validates `encoded` (one CBOR map) and positions the reader inside it.
    init(
        _ encoded: ArraySlice<UInt8>, format: String, options: CBORDecodingOptions, base: Int
    )
        throws(WebAuthnError)
    {
        var options = options
        options.checks.insert(.noTrailingBytes)
        reader = try readingCBOR("attStmt", base: base) { () throws in
            try CBORReader(encoded, options: options)
        }
        self.format = format
        self.base = base
        guard (try? reader.peekMajorType()) == .map else {
            throw WebAuthnError(
                .invalidAttestationStatement, "attStmt is a CBOR map", field: "attStmt",
                offset: base)
        }
    }

    /// Calls `body` with each member name; `body` reads the value and returns true, or returns
    /// false for a member the format does not define (an error).
    mutating func members(
        _ body: (inout Self, String) throws(WebAuthnError) -> Bool
    )
        throws(WebAuthnError)
    {
        let count = try readingCBOR("attStmt", base: base) { () throws in
            try reader.readMapHeader()
        }
        for _ in 0..<count {
            let keyOffset = base + reader.offset
            guard (try? reader.peekMajorType()) == .textString,
                let key = try? reader.readTextStringBytes()
            else {
                throw WebAuthnError(
                    .invalidAttestationStatement, "\(format) statement keys are text strings",
                    field: "attStmt", offset: keyOffset)
            }
            let name = cborKeyName(key)
            guard try body(&self, name) else {
                throw WebAuthnError(
                    .invalidAttestationStatement,
                    "\"\(name)\" is not a member of a \(format) statement",
                    field: "attStmt.\(name)", offset: keyOffset)
            }
        }
    }

    private mutating func expect(
        _ type: CBORMajorType, _ what: String, _ name: String
    )
        throws(WebAuthnError)
    {
        let offset = base + reader.offset
        let found = try readingCBOR("attStmt.\(name)", base: base) { () throws in
            try reader.peekMajorType()
        }
        guard found == type else {
            throw WebAuthnError(
                .invalidAttestationStatement, "expected \(what), found \(found)",
                field: "attStmt.\(name)", offset: offset)
        }
    }

    /// A COSE algorithm identifier (an integer that fits a WebIDL `long`).
    mutating func algorithm(_ name: String) throws(WebAuthnError) -> COSEAlgorithm {
        let offset = base + reader.offset
        let type = try readingCBOR("attStmt.\(name)", base: base) { () throws in
            try reader.peekMajorType()
        }
        guard type == .unsigned || type == .negative,
            let value = try? reader.readInt(), let alg = Int32(exactly: value)
        else {
            throw WebAuthnError(
                .invalidAttestationStatement, "expected a COSE algorithm identifier",
                field: "attStmt.\(name)", offset: offset)
        }
        return COSEAlgorithm(rawValue: Int(alg))
    }

    mutating func bytes(_ name: String) throws(WebAuthnError) -> ArraySlice<UInt8> {
        try expect(.byteString, "a byte string", name)
        return try readingCBOR("attStmt.\(name)", base: base) { () throws in
            try reader.readByteString()
        }
    }

    mutating func text(_ name: String) throws(WebAuthnError) -> String {
        try expect(.textString, "a text string", name)
        return try readingCBOR("attStmt.\(name)", base: base) { () throws in
            try reader.readTextString()
        }
    }

    /// A non-empty array of DER certificates (byte strings), leaf first.
    mutating func certificates(_ name: String) throws(WebAuthnError) -> [ArraySlice<UInt8>] {
        try expect(.array, "an array of certificates", name)
        let offset = base + reader.offset
        let count = try readingCBOR("attStmt.\(name)", base: base) { () throws in
            try reader.readArrayHeader()
        }
        guard count > 0 else {
            throw WebAuthnError(
                .invalidAttestationStatement, "the certificate array is empty",
                field: "attStmt.\(name)", offset: offset)
        }
        var certificates: [ArraySlice<UInt8>] = []
        certificates.reserveCapacity(count)
        for index in 0..<count {
            certificates.append(try bytes("\(name)[\(index)]"))
        }
        return certificates
    }

    /// The error for a member the format requires that never came.
    func missing(_ name: String) -> WebAuthnError {
        WebAuthnError(
            .invalidAttestationStatement, "a \(format) statement needs \"\(name)\"",
            field: "attStmt.\(name)", offset: base)
    }
}

/// Exact CBOR sizes of statement members, for writing with one allocation.
enum StatementSize {
    static func text(_ utf8Count: Int) -> Int { CBORSize.string(count: utf8Count) }
    static func bytes(_ count: Int) -> Int { CBORSize.string(count: count) }
    static func certificates(_ certificates: [ArraySlice<UInt8>]) -> Int {
        certificates.reduce(CBORSize.head(UInt64(certificates.count))) {
            $0 + CBORSize.string(count: $1.count)
        }
    }
}

extension CBOROutput {
    /// Writes an array of DER certificates.
    mutating func writeCertificates(_ certificates: [ArraySlice<UInt8>]) {
        writeArrayHeader(count: certificates.count)
        for certificate in certificates { writeByteString(certificate) }
    }
}
