import Fido2Belvo
import Fido2Crypto
import Fido2Encoding
import Fido2WebAuthn
import Fido2WebAuthnWire

/// A file of fido2kit's own suite (`format: fido2kit-vectors/1`, `docs/vectors.md`). Each case
/// runs through `RelyingParty` exactly as its `relying_party` member describes it (the
/// compatible profile unless it says `"profile": "strict"`), with the
/// file's trust anchors (per format) judged at the file's `validation_time`:
/// - a positive case must verify, and what the relying party reports must equal `expected`
///   (registration: format, attestation type, trust path, credential ID and public key,
///   algorithm, AAGUID, counter, flags; authentication: counter, flags, UV, BS);
/// - a negative case must fail at `expected.step` with `expected.fido2kit_code`.
/// Belvo cases read the WebAuthn response out of the request body (`belvo.body`, member
/// `belvo.response_member`), which must have the shape Belvo documents.
package struct ProjectVectorSuite: VectorSuite {
    package let name: String
    private let json: JSONValue

    package init?(name: String, json: JSONValue) {
        guard json["format"]?.stringValue == ProjectVectors.format,
            json["cases"]?.arrayValue != nil
        else { return nil }
        self.name = name
        self.json = json
    }

    package func run() -> [VectorCaseResult] {
        let cases = json["cases"]?.arrayValue ?? []
        let policy: AttestationTrustPolicy
        do {
            policy = try trustPolicy()
        } catch {
            return cases.enumerated().map { index, entry in
                .fail(entry["id"]?.stringValue ?? "case \(index)", "\(error)")
            }
        }
        return VectorCaseResult.each(cases, idMember: "id") { id, entry in
            .check(id, try Self.failure(of: entry, policy: policy))
        }
    }

    /// The file's anchors, per format, at its validation time.
    private func trustPolicy() throws -> AttestationTrustPolicy {
        guard let text = json["validation_time"]?.stringValue, let time = ISO8601Time.seconds(text)
        else { throw VectorDataError("validation_time is missing or not a UTC timestamp") }
        var policy = AttestationTrustPolicy(validationTime: time)
        for anchor in json["trust_anchors"]?.arrayValue ?? [] {
            guard let der = anchor.base64URLBytes("certificate") else {
                throw VectorDataError("a trust anchor has no base64url certificate")
            }
            let certificate = try Certificate(derEncoded: der)
            for format in anchor.strings("formats") {
                policy = policy.trusting([certificate], for: format)
            }
        }
        return policy
    }

    /// Why `entry` fails, or nil when it meets its expectation.
    private static func failure(
        of entry: JSONValue, policy: AttestationTrustPolicy
    ) throws -> String? {
        guard let party = entry["relying_party"], let expected = entry["expected"],
            let rpID = party["rp_id"]?.stringValue,
            let challenge = party.base64URLBytes("challenge")
        else { throw VectorDataError("relying_party or expected is incomplete") }
        let relyingParty = RelyingParty(
            id: rpID, origins: party.strings("origins"), trustPolicy: policy,
            profile: party["profile"]?.stringValue == "strict" ? .strict : .compatible,
            relaxations: party["reject_sign_count_regression"]?.boolValue == false
                ? .acceptsSignCountRegression : [])
        let requiresUV = party["require_user_verification"]?.boolValue ?? false
        switch entry["ceremony"]?.stringValue {
        case "registration":
            let response =
                if let belvo = entry["belvo"] {
                    try BelvoConfirmEnrollmentRequest.registrationResponse(
                        body: belvoBody(belvo, member: "confirmation_data"))
                } else {
                    try RegistrationResponseJSON(
                        jsonValue: entry["response"] ?? .null, path: "response")
                }
            let algorithms = (party["pub_key_cred_params"]?.arrayValue ?? []).compactMap {
                $0.int64Value.map { COSEAlgorithm(rawValue: Int($0)) }
            }
            let expectations = RegistrationExpectations(
                challenge: challenge, requiresUserVerification: requiresUV,
                allowedAlgorithms: algorithms)
            do {
                let result = try relyingParty.verifyRegistration(response, expecting: expectations)
                return registrationMismatch(result, expected)
            } catch {
                return errorMismatch(error, expected)
            }
        case "authentication":
            let response =
                if let belvo = entry["belvo"] {
                    try BelvoAuthorizePaymentRequest.authenticationResponse(
                        body: belvoBody(belvo, member: "assertion"))
                } else {
                    try AuthenticationResponseJSON(
                        jsonValue: entry["response"] ?? .null, path: "response")
                }
            guard let stored = entry["credential"], let id = stored.base64URLBytes("id"),
                let key = stored.base64URLBytes("public_key"),
                let count = stored["sign_count"]?.int64Value, let signCount = UInt32(exactly: count)
            else { throw VectorDataError("credential is incomplete") }
            let expectations: AuthenticationExpectations
            do {
                let record = try CredentialRecord(
                    id: id, publicKeyBytes: key, signCount: signCount,
                    backupEligible: stored["backup_eligible"]?.boolValue ?? false,
                    backupState: stored["backup_state"]?.boolValue ?? false,
                    userHandle: stored.base64URLBytes("user_handle"))
                expectations = AuthenticationExpectations(
                    challenge: challenge, credential: record,
                    allowCredentials: (party["allow_credentials"]?.arrayValue ?? []).compactMap {
                        $0.stringValue.flatMap { try? Base64URL.decode($0) }
                    },
                    requiresUserVerification: requiresUV)
            } catch {
                return errorMismatch(error, expected)
            }
            do {
                let result = try relyingParty.verifyAuthentication(
                    response, expecting: expectations)
                return authenticationMismatch(result, expected)
            } catch {
                return errorMismatch(error, expected)
            }
        default:
            throw VectorDataError("ceremony is neither registration nor authentication")
        }
    }

    /// A Belvo case's request body, after checking it has the documented shape: the members
    /// Belvo documents (`confirmation_data`; `risk_signals` and `assertion`, with the SDK
    /// edition's `platform` first), and in `member` a platform `public-key` credential whose
    /// `id` is its `rawId`. Fido2Belvo's readers then take the WebAuthn response out of it.
    private static func belvoBody(_ belvo: JSONValue, member name: String) throws -> [UInt8] {
        guard belvo["response_member"]?.stringValue == name, let body = belvo["body"],
            let members = body.objectValue?.names, let member = body[name]?.objectValue
        else { throw VectorDataError("belvo.body has no \(name)") }
        let documented = name == "assertion" ? ["risk_signals", "assertion"] : [name]
        guard members == documented || members == ["platform"] + documented else {
            throw VectorDataError("the Belvo body's members are \(members)")
        }
        guard member["id"] == member["rawId"], member["type"] == "public-key",
            member["authenticatorAttachment"] == "platform"
        else { throw VectorDataError("\(name) is not a platform public-key credential") }
        return body.serialized()
    }

    private static func registrationMismatch(
        _ result: VerifiedRegistration, _ expected: JSONValue
    ) -> String? {
        guard expected["result"]?.stringValue == "ok" else {
            return "verified; expected \(describe(expected))"
        }
        let trustPath: String
        switch result.trustPath {
        case .verified: trustPath = "verified"
        case .notEvaluated: trustPath = "not-evaluated"
        case .notApplicable: trustPath = "not-applicable"
        }
        let checks: [(String, String, String?)] = [
            ("fmt", result.format, expected["fmt"]?.stringValue),
            (
                "attestation_type", result.attestationType.rawValue,
                expected["attestation_type"]?.stringValue
            ),
            ("trust_path", trustPath, expected["trust_path"]?.stringValue),
            (
                "credential_id", Base64URL.encode(result.credentialId),
                expected["credential_id"]?.stringValue
            ),
            (
                "credential_public_key", Base64URL.encode(result.credentialPublicKeyBytes),
                expected["credential_public_key"]?.stringValue
            ),
            ("alg", "\(result.algorithm.rawValue)", expected["alg"]?.description),
            ("aaguid", result.aaguid.description, expected["aaguid"]?.stringValue),
            ("sign_count", "\(result.signCount)", expected["sign_count"]?.description),
            ("flags", "\(result.flags.rawValue)", expected["flags"]?.description),
        ]
        return mismatch(checks)
    }

    private static func authenticationMismatch(
        _ result: VerifiedAuthentication, _ expected: JSONValue
    ) -> String? {
        guard expected["result"]?.stringValue == "ok" else {
            return "verified; expected \(describe(expected))"
        }
        return mismatch([
            ("sign_count", "\(result.signCount)", expected["sign_count"]?.description),
            ("flags", "\(result.flags.rawValue)", expected["flags"]?.description),
            ("user_verified", "\(result.userVerified)", expected["user_verified"]?.description),
            ("backup_state", "\(result.backupState)", expected["backup_state"]?.description),
        ])
    }

    private static func mismatch(_ checks: [(String, String, String?)]) -> String? {
        for (name, actual, wanted) in checks where actual != wanted {
            return "\(name) is \(actual), expected \(wanted ?? "nothing")"
        }
        return nil
    }

    /// Why `error` is not the expected outcome, or nil when it is.
    private static func errorMismatch(_ failure: any Error, _ expected: JSONValue) -> String? {
        guard let error = failure as? WebAuthnError else { return "failed with \(failure)" }
        guard expected["result"]?.stringValue == "error" else {
            return "expected to verify: \(error)"
        }
        let step = expected["step"]?.stringValue
        let code = expected["fido2kit_code"]?.stringValue
        guard error.step?.description == step, error.code.description == code else {
            return
                "failed with \(error.code) at \(error.step?.description ?? "no step") (\(error.reason)); "
                + "expected \(code ?? "?") at \(step ?? "?")"
        }
        if let step = error.step, !step.lists(error.code) {
            return "\(error.code) at \(step) is not in the step tables"
        }
        return nil
    }

    private static func describe(_ expected: JSONValue) -> String {
        "\(expected["fido2kit_code"]?.stringValue ?? "?") at \(expected["step"]?.stringValue ?? "?")"
    }
}
