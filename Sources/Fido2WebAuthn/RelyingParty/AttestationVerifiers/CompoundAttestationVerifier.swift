@_spi(Fido2Internals) import Fido2WebAuthnWire

/// Verifies `compound` attestation statements (WebAuthn Level 3 §8.9): several self-contained
/// statements of other formats over the same authenticator data and client data hash.
///
/// The rule, which §8.9 leaves to the relying party's policy, is the strict one (go-webauthn's
/// default too):
/// - the statement holds at least two entries, none of them `compound` (the parser refuses
///   both as `invalidAttestationStatement`; checked again here for statements built in code);
/// - every entry's format must be registered in the relying party's
///   ``AttestationFormatRegistry`` (else `attestationFormatUnsupported` at `attStmt[i].fmt`), so
///   a format the relying party removed is refused inside a compound statement too;
/// - every entry must verify with its format's verifier, in order; the first failure refuses
///   the whole statement, its field under `attStmt[i]`;
/// - the result is that of the strongest entry: a chain verified to a trust anchor first, then a
///   chain that reached no anchor, then self attestation, then none (ties go to the earlier
///   entry). Its type, certificates and trust path stand for the compound statement, so the
///   relying party's accepted attestation types and trust verdict judge that entry; the
///   deviations of every entry are reported, under `attStmt[i]`.
enum CompoundAttestationVerifier: AttestationFormatVerifier {
    static let format = "compound"

    static func verify(
        _ statement: AttestationStatement, in context: AttestationVerificationContext
    ) throws -> AttestationVerificationResult {
        guard case .compound(let entries) = statement else {
            throw WebAuthnError(
                .invalidAttestationStatement, "expected a compound statement", field: "attStmt")
        }
        guard entries.count >= 2 else {
            throw WebAuthnError(
                .invalidAttestationStatement,
                "a compound attStmt holds at least two attestation statements (§8.9), not \(entries.count)",
                field: "attStmt")
        }
        var results: [AttestationVerificationResult] = []
        for (index, entry) in entries.enumerated() {
            let field = "attStmt[\(index)]"
            if case .compound = entry {
                throw WebAuthnError(
                    .invalidAttestationStatement,
                    "a compound statement cannot hold a compound statement (§8.9)",
                    field: "\(field).fmt")
            }
            guard let verifier = context.formats.verifier(for: entry.format) else {
                throw WebAuthnError(
                    .attestationFormatUnsupported,
                    "the attestation statement format \(quotedInput(entry.format)) of compound entry \(index) is not supported",
                    field: "\(field).fmt")
            }
            do {
                results.append(try verifier.verify(entry, in: context))
            } catch {
                throw WebAuthnError(wrapping: error).prefixingField(field)
            }
        }
        var chosen = 0
        for index in results.indices.dropFirst()
        where strength(of: results[index]) > strength(of: results[chosen]) {
            chosen = index
        }
        let strongest = results[chosen]
        return AttestationVerificationResult(
            format: format, type: strongest.type, certificates: strongest.certificates,
            trustPath: strongest.trustPath,
            deviations: results.enumerated().flatMap { index, result in
                result.deviations.map { $0.prefixingField("attStmt[\(index)]") }
            })
    }

    /// How much an entry proves: 3 for a chain verified to an anchor, 2 for a chain that
    /// reached none, 1 for self attestation, 0 for none.
    private static func strength(of result: AttestationVerificationResult) -> Int {
        switch result.trustPath {
        case .verified: 3
        case .notEvaluated: 2
        case .notApplicable: result.type == .none ? 0 : 1
        }
    }
}
