import Fido2Encoding
import Fido2WebAuthn
import Fido2WebAuthnWire

/// What a case of `real-registrations.json` or `real-authentications.json` expects, in
/// fido2kit's terms.
///
/// `expected_result` is `ok` or `error: <the source library's words>`. The words are mapped to
/// the fido2kit error codes that mean the same failure, by the phrases below (first match
/// wins); a failure with any other code does not meet the expectation. ML-DSA credentials
/// (COSE alg −48, −49, −50) expect `unsupportedAlgorithm` whatever the file says, as its README
/// states: OpenSSL 3.0 has no ML-DSA.
package struct RealVectorExpectation {
    package enum Kind {
        case ok
        /// A failure with one of these codes.
        case failure(words: String, codes: [String])
        /// ML-DSA: `unsupportedAlgorithm`.
        case unsupportedAlgorithm
        /// A verdict that rests on data the file does not carry (the reason says which): the
        /// case is reported as not judged when everything fido2kit can check passes, and as
        /// failed when anything else goes wrong.
        case notJudgeable(String)
        /// Words no phrase maps: always a failed case.
        case unmapped(String)
        /// `ok`, but inferred by the file (`expectation_basis`: its source only parses the
        /// response): a refusal is reported as not judged, with the reason, since no source
        /// ever judged the case.
        case inferredOK(String)
    }

    /// Phrases of `expected_result` and the codes they mean, in matching order.
    static let phrases: [(String, [String])] = [
        ("wrong trust anchor", ["attestationTrustPathInvalid"]),
        ("token_binding", ["invalidValue"]),
        ("InvalidCBORData", ["truncated", "malformedCBOR", "invalidAttestationObject"]),
        ("1.3.6.1.4.1.45724.1.1.4", ["attestationAAGUIDMismatch"]),
        ("ctsProfileMatch", ["attestationIntegrityVerdictFailed"]),
        // A stale SafetyNet response judged at today's clock: its certificates have expired
        // and its timestamp is years old; either check may speak first.
        ("has expired", ["attestationTrustPathInvalid", "attestationTimestampOutOfRange"]),
        ("Could not verify authentication signature", ["signatureInvalid"]),
        ("User verification is required", ["userVerificationMissing"]),
        ("user verification required", ["userVerificationMissing"]),
        ("counter value", ["signCountRegressed"]),
        ("signature counter did not increase", ["signCountRegressed"]),
        ("attest.android.com", ["attestationCertificateInvalid"]),
        ("challenge", ["challengeMismatch"]),
        ("origin", ["originNotAllowed"]),
        ("RP ID", ["rpIdHashMismatch"]),
    ]

    static let mlDSAAlgorithms: Set<Int64> = [-48, -49, -50]

    package let kind: Kind

    package init(_ entry: JSONValue, registration: Bool) {
        let algorithm =
            registration
            ? entry["decoded"]?["cose_alg"]?.int64Value
            : entry["credential_public_key_alg"]?.int64Value
        let result = entry["expected_result"]?.stringValue ?? ""
        if let algorithm, Self.mlDSAAlgorithms.contains(algorithm) {
            kind = .unsupportedAlgorithm
        } else if result == "ok", let basis = entry["expectation_basis"]?.stringValue {
            kind = .inferredOK(basis)
        } else if result == "ok" {
            kind = .ok
        } else if result.contains("revoked") {
            kind = .notJudgeable(
                "expects \"\(result)\", but the file carries no revocation data (its source "
                    + "test mocks the CRL); fido2kit checks revocation against the CRLs a relying "
                    + "party supplies (AttestationTrustPolicy.revocation) and has none here")
        } else if result.contains("token_binding") {
            kind = .notJudgeable(
                "expects \"\(result)\", a Level 2 rule: Level 3 keeps tokenBinding reserved and "
                    + "fido2kit's compatible profile ignores it (reported as tokenBindingIgnored); "
                    + "--strict refuses it")
        } else if let (_, codes) = Self.phrases.first(where: { result.contains($0.0) }) {
            kind = .failure(words: result, codes: codes)
        } else {
            kind = .unmapped(result)
        }
    }

    /// The note of a case that passes as expected in a way a reader must know.
    var note: String? {
        if case .unsupportedAlgorithm = kind {
            return "ML-DSA credential: passes as the expected \"unsupported algorithm\" error "
                + "(OpenSSL 3.0 has no ML-DSA)"
        }
        return nil
    }

    /// The result of a case whose verification succeeded; `decodedMismatch` as in
    /// ``mismatch(verified:)``, `note` what the relying party tolerated.
    func result(
        _ id: String, verified decodedMismatch: String?, note: String? = nil
    ) -> VectorCaseResult {
        if case .notJudgeable(let reason) = kind, decodedMismatch == nil {
            return .notJudged(
                id,
                "\(reason); everything else verifies (statement, chain at the pinned time, "
                    + "decoded values)")
        }
        return .check(id, mismatch(verified: decodedMismatch), note: note)
    }

    /// The result of a case whose verification failed with `error`.
    func result(_ id: String, _ failure: any Error) -> VectorCaseResult {
        // fido2kit's relying party throws WebAuthnError only.
        let error = failure as? WebAuthnError ?? WebAuthnError(.invalidValue, "\(failure)")
        if case .inferredOK(let basis) = kind {
            return .notJudged(
                id,
                "the file infers \"ok\" (\(basis)) and no source judged it; fido2kit refuses "
                    + "it: \(error)")
        }
        return .check(id, mismatch(error), note: note)
    }

    /// Why a verification that succeeded does not meet the expectation (`decodedMismatch`:
    /// where the result differs from the file's decoded values), or nil.
    func mismatch(verified decodedMismatch: String?) -> String? {
        switch kind {
        case .ok, .inferredOK: return decodedMismatch
        case .failure(let words, _): return "verified; expected \(words)"
        case .unsupportedAlgorithm:
            return "verified an ML-DSA credential; expected unsupportedAlgorithm"
        case .notJudgeable(let reason):
            return "\(reason), and it verified with other decoded values than the file's: "
                + (decodedMismatch ?? "")
        case .unmapped(let words): return "no fido2kit outcome is mapped to \"\(words)\""
        }
    }

    /// Why `error` does not meet the expectation, or nil. An expected failure must also be at a
    /// step the step tables list its code for.
    func mismatch(_ error: WebAuthnError) -> String? {
        if let mismatch = codeMismatch(error) { return mismatch }
        if let step = error.step, !step.lists(error.code) {
            return "failed with \(error.code) at \(step), which the step tables do not list"
        }
        return nil
    }

    private func codeMismatch(_ error: WebAuthnError) -> String? {
        let code = error.code.description
        switch kind {
        case .ok, .inferredOK:
            return "expected ok: \(error)"
        case .failure(let words, let codes):
            return codes.contains(code)
                ? nil
                : "failed with \(code) (\(error)); \"\(words)\" means \(codes.joined(separator: " or "))"
        case .unsupportedAlgorithm:
            return code == "unsupportedAlgorithm" ? nil : "expected unsupportedAlgorithm: \(error)"
        case .notJudgeable(let reason):
            return "\(reason), but it failed for another reason: \(error)"
        case .unmapped(let words):
            return "no fido2kit outcome is mapped to \"\(words)\" (failed with \(error))"
        }
    }

    /// The expected challenge's bytes: base64url, except for the sources' deliberately wrong
    /// `shouldhavebeenthisvalue`, which is no base64url of any bytes (its last character has
    /// spare bits set) and stands for its UTF-8.
    package static func challenge(_ entry: JSONValue) -> [UInt8] {
        let text = entry["expected_challenge"]?.stringValue ?? ""
        return (try? Base64URL.decode(text)) ?? Array(text.utf8)
    }
}
