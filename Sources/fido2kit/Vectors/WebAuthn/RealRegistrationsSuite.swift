import Fido2Crypto
import Fido2Encoding
import Fido2WebAuthn

/// `real-registrations.json`: registrations captured from real authenticators and the FIDO
/// conformance tool (py_webauthn and SimpleWebAuthn tests), each verified through
/// `RelyingParty` (§7.1) configured as the source's relying party was, and held to its
/// `expected_result`.
///
/// The relying party of a case (what the file states, nothing per case ID):
/// - RP IDs `expected_rp_id`, origins `expected_origin`, the case's challenge, user verification
///   when `require_user_verification`, and `allowsRegistrationWithoutUserPresence` when
///   `require_user_presence` is false;
/// - every algorithm fido2kit verifies plus RS1 (the sources allow Windows Hello's TPM keys);
/// - `acceptsNonCanonicalKeyOrder` (named relaxation): the conformance tool writes CBOR maps out
///   of canonical order, and a relying party facing certified authenticators accepts them;
/// - trust: the anchors of `rp_trust_anchor_config` when the case has one (matched by name
///   against `WellKnownAttestationRoots`); otherwise none. The file carries no roots for most
///   chains (the FIDO conformance tool's, vendors' intermediates), so without anchors every
///   statement's signatures and rules are verified in full and the trust path is reported as
///   not evaluated, as `RelyingParty` does for any format without anchors;
/// - judged at `source_pinned_validation_time` when given, else now;
/// - SafetyNet: the timestamp check off where the source's notes say it called the verifier
///   with `verify_timestamp_ms=False`/`verifyTimestampMS: false`, and a CTS profile mismatch
///   accepted where they say `attestationSafetyNetEnforceCTSCheck: false`.
///
/// `ok` must verify and report the decoded credential ID, public key, counter, flags, AAGUID and
/// format. `error: …` must fail with a code its words name (``RealVectorExpectation``). ML-DSA
/// credentials (COSE alg −48…−50) must fail with `unsupportedAlgorithm`: OpenSSL 3.0 has no
/// ML-DSA; they pass with a note saying so.
struct RealRegistrationsSuite: VectorSuite {
    let name: String
    private let cases: [JSONValue]

    init?(name: String, json: JSONValue) {
        guard let cases = json.arrayValue, !cases.isEmpty,
            cases.allSatisfy({
                $0["case_id"] != nil && $0["credential"]?["response"]?["attestationObject"] != nil
            })
        else { return nil }
        self.name = name
        self.cases = cases
    }

    func run() -> [VectorCaseResult] {
        VectorCaseResult.each(cases, idMember: "case_id", Self.result)
    }

    private static func result(_ id: String, _ entry: JSONValue) throws -> VectorCaseResult {
        let relyingParty = try relyingParty(entry)
        let response = try RegistrationResponseJSON(
            jsonValue: entry["credential"] ?? .null, path: "credential")
        let expectations = RegistrationExpectations(
            challenge: RealVectorExpectation.challenge(entry),
            requiresUserVerification: entry["require_user_verification"]?.boolValue ?? false,
            allowedAlgorithms: RegistrationExpectations.supportedAlgorithms + [.rs1])
        let expectation = RealVectorExpectation(entry, registration: true)
        do {
            let verified = try relyingParty.verifyRegistration(response, expecting: expectations)
            return expectation.result(id, verified: decodedMismatch(verified, entry))
        } catch {
            return expectation.result(id, error)
        }
    }

    /// The relying party the case's source configured.
    private static func relyingParty(_ entry: JSONValue) throws -> RelyingParty {
        var relaxations: VerificationRelaxations = .acceptsNonCanonicalKeyOrder
        if entry["require_user_presence"]?.boolValue == false {
            relaxations.insert(.allowsRegistrationWithoutUserPresence)
        }
        var time: Int64?
        if let pinned = entry["source_pinned_validation_time"]?.stringValue {
            guard let seconds = UTCTime.seconds(pinned) else {
                throw VectorDataError("source_pinned_validation_time \(pinned) is not a timestamp")
            }
            time = seconds
        }
        var policy = AttestationTrustPolicy(validationTime: time)
        if let configuration = entry["rp_trust_anchor_config"]?.objectValue {
            for member in configuration.members {
                for description in member.value.arrayValue?.compactMap(\.stringValue) ?? [] {
                    // The longest name that starts the description ("GlobalSign Root CA - R2 (…)"
                    // is not "GlobalSign Root CA").
                    guard
                        let root = WellKnownAttestationRoots.all.filter({
                            description == $0.name || description.hasPrefix($0.name + " ")
                        }).max(by: { $0.name.count < $1.name.count })
                    else { throw VectorDataError("unknown trust anchor \"\(description)\"") }
                    policy = policy.trusting([try root.certificate()], for: member.name)
                }
            }
        }
        let notes = (entry["notes"]?.arrayValue ?? []).compactMap(\.stringValue)
        if notes.contains(where: {
            $0.contains("verify_timestamp_ms=False") || $0.contains("verifyTimestampMS: false")
        }) {
            policy.androidSafetyNet.skipsTimestampCheck = true
        }
        if notes.contains(where: { $0.contains("attestationSafetyNetEnforceCTSCheck: false") }) {
            policy.androidSafetyNet.acceptsCTSProfileMismatch = true
        }
        return RelyingParty(
            identifiers: entry.strings("expected_rp_id"),
            origins: OriginPolicy(allowedOrigins: entry.strings("expected_origin")),
            trustPolicy: policy, relaxations: relaxations)
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
                "AAGUID", result.aaguid.bytes.map { hexByte($0) }.joined(),
                decoded["aaguid"]?.stringValue?.replacingDashes()
            ),
        ]
        for (name, actual, wanted) in checks where actual != wanted {
            return "verified, but the \(name) is \(actual), decoded says \(wanted ?? "nothing")"
        }
        return nil
    }

    private static func hexByte(_ byte: UInt8) -> String {
        let digits = Array("0123456789abcdef")
        return String([digits[Int(byte >> 4)], digits[Int(byte & 0x0f)]])
    }
}

extension String {
    /// The string without `-` (a UUID's hex digits).
    fileprivate func replacingDashes() -> String { String(filter { $0 != "-" }) }
}
