import Fido2Crypto
import Fido2Encoding
import Fido2WebAuthn
import Fido2WebAuthnWire

/// The relying party a case of `real-registrations.json`, `real-authentications.json` or the
/// interop files (`../shared/interop`) was judged by in its source, built from what the case
/// states and nothing per case ID:
/// - RP IDs `expected_rp_id`, origins `expected_origin`, the compatible profile (fido2kit's
///   default, which reads the CBOR and certificate encodings deployed relying parties read);
/// - `allowsRegistrationWithoutUserPresence` when `require_user_presence` is false;
/// - algorithms: every one fido2kit verifies, plus RS1 where `source_policy` says
///   `rs1-allowed` or, in files without `source_policy`, always (their sources allow Windows
///   Hello's TPM keys);
/// - trust: the PEM roots of `rp_trust_anchor_pem` for the formats of `rp_trust_anchor_config`
///   (every format when it names none); without PEM, the roots `rp_trust_anchor_config` names,
///   matched against `WellKnownAttestationRoots`; otherwise none (every signature and rule of
///   the statement is still verified, and the trust path is reported as not evaluated);
/// - judged at `source_pinned_validation_time` when given, else now;
/// - SafetyNet: the timestamp check skipped where `source_policy` says
///   `safetynet-timestamp-unchecked` or the notes say the source called its verifier with
///   `verify_timestamp_ms=False`/`verifyTimestampMS: false`; a CTS profile mismatch accepted
///   where they say `attestationSafetyNetEnforceCTSCheck: false`.
package struct SourceRelyingParty {
    /// The relying party.
    package let relyingParty: RelyingParty
    /// The algorithms of `pubKeyCredParams`.
    package let allowedAlgorithms: [COSEAlgorithm]

    /// The relying party of `entry`.
    ///
    /// - Throws: ``VectorDataError`` for a pinned time that is not a date-time, PEM that does
    ///   not parse, or a named anchor fido2kit does not ship.
    package init(_ entry: JSONValue) throws {
        var relaxations: VerificationRelaxations = []
        if entry["require_user_presence"]?.boolValue == false {
            relaxations.insert(.allowsRegistrationWithoutUserPresence)
        }
        let policies = entry.strings("source_policy")
        let notes = entry.strings("notes")
        if policies.contains("safetynet-timestamp-unchecked")
            || notes.contains(where: {
                $0.contains("verify_timestamp_ms=False") || $0.contains("verifyTimestampMS: false")
            })
        {
            relaxations.insert(.skipsSafetyNetTimestampCheck)
        }
        if notes.contains(where: { $0.contains("attestationSafetyNetEnforceCTSCheck: false") }) {
            relaxations.insert(.acceptsSafetyNetCTSProfileMismatch)
        }
        var algorithms = RegistrationExpectations.supportedAlgorithms
        if policies.contains("rs1-allowed") || entry["source_policy"] == nil {
            algorithms.append(.rs1)
        }
        var time: Int64?
        if let pinned = entry["source_pinned_validation_time"]?.stringValue {
            guard let seconds = ISO8601Time.seconds(pinned) else {
                throw VectorDataError("source_pinned_validation_time \(pinned) is not a date-time")
            }
            time = seconds
        }
        self.relyingParty = RelyingParty(
            identifiers: entry.strings("expected_rp_id"),
            origins: OriginPolicy(allowedOrigins: entry.strings("expected_origin")),
            trustPolicy: try Self.trustPolicy(entry, validationTime: time),
            relaxations: relaxations)
        self.allowedAlgorithms = algorithms
    }

    /// The anchors the case's source configured, per format.
    private static func trustPolicy(
        _ entry: JSONValue, validationTime: Int64?
    ) throws -> AttestationTrustPolicy {
        var policy = AttestationTrustPolicy(validationTime: validationTime)
        let configuration = entry["rp_trust_anchor_config"]?.objectValue?.members ?? []
        let pems = entry.strings("rp_trust_anchor_pem")
        if !pems.isEmpty {
            var anchors: [Certificate] = []
            for pem in pems {
                do {
                    anchors += try Certificate.certificates(pemEncoded: pem)
                } catch {
                    throw VectorDataError("rp_trust_anchor_pem does not parse: \(error)")
                }
            }
            let formats =
                configuration.isEmpty
                ? ["packed", "fido-u2f", "tpm", "android-key", "android-safetynet", "apple"]
                : configuration.map(\.name)
            for format in formats { policy = policy.trusting(anchors, for: format) }
            return policy
        }
        for member in configuration {
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
        return policy
    }

    /// What the relying party tolerated, as a note for a case that passed; nil when nothing.
    static func note(_ deviations: [ToleratedDeviation]) -> String? {
        guard !deviations.isEmpty else { return nil }
        return "verified with "
            + deviations.map(\.description).joined(separator: "; ")
    }
}
