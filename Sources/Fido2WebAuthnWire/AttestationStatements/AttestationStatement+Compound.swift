import Fido2CBOR

extension AttestationStatement {
    /// The format identifier of compound statements.
    static let compoundFormat = "compound"

    /// Parses the `attStmt` of a `compound` statement (WebAuthn Level 3 §8.9): a CBOR array of
    /// at least two `{fmt, attStmt}` maps, none of format `compound`, each parsed as its own
    /// format (an unknown format is kept as ``unknown(format:encoded:)`` for the relying party
    /// to refuse).
    ///
    /// - Throws: ``WebAuthnError`` `invalidAttestationStatement` naming `attStmt` or
    ///   `attStmt[i]…` for an attStmt that is not such an array, fewer than two entries, an entry
    ///   that is not a map of exactly `fmt` (text) and `attStmt`, or a nested compound entry; the
    ///   errors of each entry's format, with the field under `attStmt[i]`.
    static func compoundEntries(
        _ encoded: ArraySlice<UInt8>, options: CBORDecodingOptions, base: Int
    ) throws(WebAuthnError) -> [AttestationStatement] {
        var options = options
        options.checks.insert(.noTrailingBytes)
        var reader = try readingCBOR("attStmt", base: base) { () throws in
            try CBORReader(encoded, options: options)
        }
        guard (try? reader.peekMajorType()) == .array,
            let count = try? reader.readArrayHeader()
        else {
            throw WebAuthnError(
                .invalidAttestationStatement,
                "a compound attStmt is a CBOR array of attestation statements", field: "attStmt",
                offset: base)
        }
        guard count >= 2 else {
            throw WebAuthnError(
                .invalidAttestationStatement,
                "a compound attStmt holds at least two attestation statements (§8.9), not \(count)",
                field: "attStmt", offset: base)
        }
        var entries: [AttestationStatement] = []
        entries.reserveCapacity(count)
        for index in 0..<count {
            let field = "attStmt[\(index)]"
            let entryOffset = base + reader.offset
            func invalid(_ reason: String, _ member: String? = nil, at offset: Int) -> WebAuthnError
            {
                WebAuthnError(
                    .invalidAttestationStatement, reason,
                    field: member.map { "\(field).\($0)" } ?? field, offset: offset)
            }
            guard (try? reader.peekMajorType()) == .map, let members = try? reader.readMapHeader()
            else { throw invalid("a compound entry is a map {fmt, attStmt}", at: entryOffset) }
            var format: String?
            var statement: ArraySlice<UInt8>?
            var statementOffset = 0
            for _ in 0..<members {
                let keyOffset = base + reader.offset
                if reader.readTextString(ifEqualTo: "fmt") {
                    guard format == nil else {
                        throw invalid("fmt appears twice", "fmt", at: keyOffset)
                    }
                    guard (try? reader.peekMajorType()) == .textString,
                        let text = try? reader.readTextString()
                    else {
                        throw invalid("expected a text string", "fmt", at: base + reader.offset)
                    }
                    format = text
                } else if reader.readTextString(ifEqualTo: "attStmt") {
                    guard statement == nil else {
                        throw invalid("attStmt appears twice", "attStmt", at: keyOffset)
                    }
                    statementOffset = base + reader.offset
                    statement = try readingCBOR("\(field).attStmt", base: base) { () throws in
                        try reader.readEncodedItem()
                    }
                } else {
                    throw invalid("a compound entry has only fmt and attStmt", at: keyOffset)
                }
            }
            guard let format else {
                throw invalid("required member is missing", "fmt", at: entryOffset)
            }
            guard let statement else {
                throw invalid("required member is missing", "attStmt", at: entryOffset)
            }
            guard format != compoundFormat else {
                throw invalid(
                    "a compound statement cannot hold a compound statement (§8.9)", "fmt",
                    at: entryOffset)
            }
            do {
                entries.append(
                    try AttestationStatement(
                        format: format, encoded: statement, options: options, base: statementOffset)
                )
            } catch {
                throw error.prefixingField(field)
            }
        }
        return entries
    }

    /// The encoded size of a compound `attStmt` array.
    static func compoundEncodedCount(_ entries: [AttestationStatement]) -> Int {
        entries.reduce(CBORSize.head(UInt64(entries.count))) { size, entry in
            size + 1 + CBORSize.string(count: 3) + CBORSize.string(count: entry.format.utf8.count)
                + CBORSize.string(count: 7) + entry.encodedCount
        }
    }

    /// Writes a compound `attStmt` array: each entry as `{fmt, attStmt}`, in CTAP2 canonical key
    /// order.
    static func writeCompound<Output: CBOROutput>(
        _ entries: [AttestationStatement], to writer: inout Output
    ) {
        writer.writeArrayHeader(count: entries.count)
        for entry in entries {
            writer.writeMapHeader(count: 2)
            writer.writeTextLiteral("fmt")
            writer.writeTextString(entry.format)
            writer.writeTextLiteral("attStmt")
            entry.write(to: &writer)
        }
    }
}
