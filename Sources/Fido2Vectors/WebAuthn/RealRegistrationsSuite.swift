import Fido2Crypto
import Fido2Encoding
import Fido2WebAuthn
import Fido2WebAuthnWire

/// `real-registrations.json` and the interop file `peer-registrations.json`: registrations
/// captured from real authenticators, the FIDO conformance tool and other libraries' test
/// authenticators, each verified through `RelyingParty` (§7.1) configured as the source's
/// relying party was (``SourceRelyingParty``), and held to its `expected_result`.
///
/// `ok` must verify and report the decoded credential ID, public key, counter, flags, AAGUID and
/// format; what the compatible profile or a relaxation tolerated is printed as a note. `error: …`
/// must fail with a code its words name (``RealVectorExpectation``). ML-DSA credentials (COSE
/// alg −48…−50) must fail with `unsupportedAlgorithm`: OpenSSL 3.0 has no ML-DSA; they pass with
/// a note saying so.
package struct RealRegistrationsSuite: VectorSuite {
    package let name: String
    /// The cases, as the file gives them.
    package let cases: [JSONValue]

    package init?(name: String, json: JSONValue) {
        guard let cases = json.arrayValue, !cases.isEmpty,
            cases.allSatisfy({
                $0["case_id"] != nil && $0["credential"]?["response"]?["attestationObject"] != nil
            })
        else { return nil }
        self.name = name
        self.cases = cases
    }

    package func run() -> [VectorCaseResult] {
        VectorCaseResult.each(cases, idMember: "case_id", Self.result)
    }

    /// The case with ID `id`, or nil.
    package func entry(_ id: String) -> JSONValue? {
        cases.first { $0["case_id"]?.stringValue == id }
    }

    /// The registration of `entry` as its source's relying party judged it: that relying party
    /// (``SourceRelyingParty``), the response and the expectations of §7.1.
    ///
    /// - Throws: ``VectorDataError`` or a parse error when the case cannot be read.
    package static func ceremony(
        _ entry: JSONValue
    ) throws -> (
        relyingParty: RelyingParty, response: RegistrationResponseJSON,
        expectations: RegistrationExpectations
    ) {
        let source = try SourceRelyingParty(entry)
        let response = try RegistrationResponseJSON(
            jsonValue: entry["credential"] ?? .null, path: "credential")
        let expectations = RegistrationExpectations(
            challenge: RealVectorExpectation.challenge(entry),
            requiresUserVerification: entry["require_user_verification"]?.boolValue ?? false,
            allowedAlgorithms: source.allowedAlgorithms)
        return (source.relyingParty, response, expectations)
    }

    private static func result(_ id: String, _ entry: JSONValue) throws -> VectorCaseResult {
        let (relyingParty, response, expectations) = try ceremony(entry)
        let expectation = RealVectorExpectation(entry, registration: true)
        do {
            let verified = try relyingParty.verifyRegistration(
                response, expecting: expectations)
            return expectation.result(
                id, verified: decodedMismatch(verified, entry),
                note: SourceRelyingParty.note(verified.deviations))
        } catch {
            return expectation.result(id, error)
        }
    }

    /// Where the verified registration differs from the case's `decoded` values.
    private static func decodedMismatch(
        _ result: VerifiedRegistration, _ entry: JSONValue
    ) -> String? {
        guard let decoded = entry["decoded"] else { return "no decoded values to compare" }
        let checks: [(String, String, String?)] = [
            ("fmt", result.format, decoded["fmt"]?.stringValue),
            (
                "credential ID", Base64URL.encode(result.credentialId),
                decoded["credentialId_b64url"]?.stringValue
            ),
            (
                "credential public key", Base64URL.encode(result.credentialPublicKeyBytes),
                decoded["credentialPublicKey_cose_b64url"]?.stringValue
            ),
            ("sign count", "\(result.signCount)", decoded["signCount"]?.description),
            ("flags", "\(result.flags.rawValue)", decoded["flags"]?.description),
            (
                "AAGUID", Hex.encode(result.aaguid.bytes),
                decoded["aaguid"]?.stringValue?.replacingDashes()
            ),
        ]
        for (name, actual, wanted) in checks where actual != wanted {
            return "verified, but the \(name) is \(actual), decoded says \(wanted ?? "nothing")"
        }
        return nil
    }
}

extension String {
    /// The string without `-` (a UUID's hex digits).
    fileprivate func replacingDashes() -> String { String(filter { $0 != "-" }) }
}
