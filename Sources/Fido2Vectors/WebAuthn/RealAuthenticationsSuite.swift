import Fido2Crypto
import Fido2Encoding
import Fido2WebAuthn
import Fido2WebAuthnWire

/// `real-authentications.json` and the interop file `peer-authentications.json`: assertions
/// captured from real authenticators and other libraries' test authenticators, each verified
/// through `RelyingParty` (§7.2) with the stored key and counter the case gives, and held to its
/// `expected_result` (``RealVectorExpectation``).
///
/// The relying party (``SourceRelyingParty``): RP IDs `expected_rp_id`, origins
/// `expected_origin`, the compatible profile, the case's challenge,
/// user verification when `require_user_verification`, the credential in `allowCredentials`,
/// and a counter that does not advance rejected (the default), as the sources
/// do. The credential record: `credential_public_key_cose`, `stored_sign_count`, BE as the
/// assertion reports it (the file does not give the registered value) and no stored user
/// handle (the file gives none; §7.2 step 6 then leaves the handle to the caller). `ok` must
/// verify with `expected_new_sign_count` and the decoded flags. A case whose `expected_result`
/// starts with `parse-only` (the file's own mark: auth-018, whose signature does not verify
/// under any key it gives) passes when its response, authenticator data (with extensions) and
/// client data parse, and is noted as such.
package struct RealAuthenticationsSuite: VectorSuite {
    package let name: String
    /// The cases, as the file gives them.
    package let cases: [JSONValue]

    package init?(name: String, json: JSONValue) {
        guard let cases = json.arrayValue, !cases.isEmpty,
            cases.allSatisfy({
                $0["case_id"] != nil && $0["credential_public_key_cose"] != nil
                    && $0["credential"]?["response"]?["authenticatorData"] != nil
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

    /// The response of `entry`.
    ///
    /// - Throws: a parse error when the case's credential is not a response.
    package static func response(_ entry: JSONValue) throws -> AuthenticationResponseJSON {
        try AuthenticationResponseJSON(jsonValue: entry["credential"] ?? .null, path: "credential")
    }

    /// The assertion of `entry` as its source's relying party judged it: that relying party
    /// (``SourceRelyingParty``), the response and the expectations of §7.2.
    ///
    /// - Throws: as ``expectations(_:response:)``, or when the case cannot be read.
    package static func ceremony(
        _ entry: JSONValue
    ) throws -> (
        relyingParty: RelyingParty, response: AuthenticationResponseJSON,
        expectations: AuthenticationExpectations
    ) {
        let response = try response(entry)
        return (
            try SourceRelyingParty(entry).relyingParty, response,
            try expectations(entry, response: response)
        )
    }

    /// What the source's relying party expected of `response`: the case's challenge, the
    /// credential in `allowCredentials`, user verification when `require_user_verification`,
    /// a counter that does not advance rejected (the default), and the credential record of the stored key
    /// and counter the case gives (BE as the assertion reports it, no user handle).
    ///
    /// - Throws: ``VectorDataError`` when the stored key or counter is missing;
    ///   ``WebAuthnError`` when the key makes no credential record (ML-DSA).
    package static func expectations(
        _ entry: JSONValue, response: AuthenticationResponseJSON
    ) throws -> AuthenticationExpectations {
        guard let key = entry.base64URLBytes("credential_public_key_cose"),
            let stored = entry["stored_sign_count"]?.int64Value,
            let storedCount = UInt32(exactly: stored)
        else { throw VectorDataError("credential_public_key_cose or stored_sign_count missing") }
        let backupEligible =
            (try? AuthenticatorData(bytes: response.response.authenticatorData))?.flags.contains(
                .backupEligible) ?? false
        let record = try CredentialRecord(
            id: response.rawId, publicKeyBytes: key, signCount: storedCount,
            backupEligible: backupEligible)
        return AuthenticationExpectations(
            challenge: RealVectorExpectation.challenge(entry), credential: record,
            allowCredentials: [response.rawId],
            requiresUserVerification: entry["require_user_verification"]?.boolValue ?? false)
    }

    private static func result(_ id: String, _ entry: JSONValue) throws -> VectorCaseResult {
        let response = try response(entry)
        if entry["expected_result"]?.stringValue?.hasPrefix("parse-only") == true {
            return .check(
                id, parseOnlyFailure(response),
                note: "parse-only (so marked by the file): response, authenticator data and "
                    + "client data parse; the signature is not checked")
        }
        let expectation = RealVectorExpectation(entry, registration: false)
        let relyingParty = try SourceRelyingParty(entry).relyingParty
        do {
            let expectations = try expectations(entry, response: response)
            let result = try relyingParty.verifyAuthentication(response, expecting: expectations)
            return expectation.result(
                id, verified: decodedMismatch(result, entry),
                note: SourceRelyingParty.note(result.deviations))
        } catch let malformed as VectorDataError {
            throw malformed
        } catch {
            return expectation.result(id, error)
        }
    }

    private static func decodedMismatch(
        _ result: VerifiedAuthentication, _ entry: JSONValue
    ) -> String? {
        if let count = entry["expected_new_sign_count"]?.int64Value,
            Int64(result.signCount) != count
        {
            return "verified, but the new counter is \(result.signCount), expected \(count)"
        }
        if let flags = entry["decoded"]?["authenticatorData"]?["flags"]?.int64Value,
            Int64(result.flags.rawValue) != flags
        {
            return "verified, but the flags are \(result.flags.rawValue), decoded says \(flags)"
        }
        return nil
    }

    private static func parseOnlyFailure(_ response: AuthenticationResponseJSON) -> String? {
        do {
            _ = try AuthenticatorData(bytes: response.response.authenticatorData)
            _ = try ClientDataJSON(bytes: response.response.clientDataJSON)
            return nil
        } catch {
            return "does not parse: \(error)"
        }
    }
}
