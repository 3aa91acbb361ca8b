import Fido2Authenticator
import Fido2Crypto
import Fido2Encoding
import Fido2TestSupport
import Fido2WebAuthn
import Fido2WebAuthnTestSupport
import Testing

/// The registrations of `real-registrations.json` (real authenticators and the FIDO conformance
/// tool, from py_webauthn and SimpleWebAuthn) through every step of §7.1.
///
/// Each case runs with the relying party its source used: its origins, RP IDs, challenge, UV
/// and UP requirements, its pinned validation time, the verifier options its source set
/// (SafetyNet's timestamp check and CTS profile), and no trust anchors unless the case
/// configures some (trust anchors for the device formats are `rp-attestation`'s tests). Every
/// case is read with the compatible profile, the default a relying party facing certified
/// authenticators uses (the conformance tool writes maps out of canonical order).
@Suite struct RegistrationRealVectorTests {
    struct Case: CustomTestStringConvertible, Sendable {
        let id: String
        let format: String
        let variant: String?
        let json: JSONValue
        var testDescription: String { id }
    }

    static let cases: [Case] =
        (try? sharedVectorJSON("real-registrations.json").array().map { item in
            Case(
                id: try item.string("case_id"), format: try item.string("format"),
                variant: item["packed_variant"]?.stringValue, json: item)
        }) ?? []

    static let coreFormats: Set<String> = ["none", "packed", "fido-u2f"]

    /// The failures the cases must end in: the code and the step.
    static let expectedFailures: [String: (WebAuthnError.Code, VerificationStep)] = [
        // The test configures a wrong packed anchor: GlobalSign Root CA - R2, an
        // android-safetynet root, as the only packed root.
        "reg-003": (.attestationTrustPathInvalid, "§7.1 step 24"),
        // An empty attestation object.
        "reg-007": (.truncated, "§7.1 step 13"),
        // ML-DSA credential keys: OpenSSL 3.0 has no ML-DSA.
        "reg-008": (.unsupportedAlgorithm, "§7.1 step 20"),
        "reg-009": (.unsupportedAlgorithm, "§7.1 step 20"),
        "reg-010": (.unsupportedAlgorithm, "§7.1 step 20"),
        // tokenBinding.status "not-supported" is not a TokenBindingStatus.
        "reg-016": (.invalidValue, "§7.1 step 6"),
        // Expected "has expired" at today's clock: the response's timestamp lies years before
        // now, the first check it fails (without anchors the chain is not judged).
        "reg-028": (.attestationTimestampOutOfRange, "§7.1 step 22"),
        // The certificate's AAGUID extension is not authData's AAGUID (packed, then tpm).
        "reg-033": (.attestationAAGUIDMismatch, "§7.1 step 22"),
        "reg-041": (.attestationAAGUIDMismatch, "§7.1 step 22"),
        "reg-047": (.challengeMismatch, "§7.1 step 8"),
        "reg-048": (.originNotAllowed, "§7.1 step 9"),
        "reg-053": (.originNotAllowed, "§7.1 step 9"),
        "reg-055": (.rpIdHashMismatch, "§7.1 step 14"),
        // SafetyNet's ctsProfileMatch is false.
        "reg-063": (.attestationIntegrityVerdictFailed, "§7.1 step 22"),
    ]

    /// Expected an error that needs revocation data the file does not carry (its source mocks
    /// the CRL): without CRLs in the policy the registration verifies. Pinned here; see
    /// `judgesReg029RevocationOnlyWithRevocationData`.
    static let knownGaps: Set<String> = ["reg-029"]

    /// The verifier options the sources set: SafetyNet responses checked long after they were
    /// made (timestamp check off), and reg-064's accepted CTS profile mismatch.
    static func adjust(_ policy: inout AttestationTrustPolicy, for id: String) {
        switch id {
        case "reg-012", "reg-027", "reg-029": policy.androidSafetyNet.skipsTimestampCheck = true
        case "reg-064": policy.androidSafetyNet.acceptsCTSProfileMismatch = true
        default: break
        }
    }

    /// The attestation type each format proves.
    static func attestationType(_ vector: Case) -> AttestationType {
        switch (vector.format, vector.variant) {
        case ("none", _): .none
        case ("packed", "self"): .selfAttestation
        case ("tpm", _): .attestationCA
        case ("apple", _): .anonymizationCA
        default: .basic
        }
    }

    static func strings(_ value: JSONValue?) -> [String] {
        if let text = value?.stringValue { return [text] }
        return value?.arrayValue?.compactMap(\.stringValue) ?? []
    }

    static func relyingParty(
        _ vector: Case, profile: VerificationProfile = .compatible,
        relaxations: VerificationRelaxations = []
    ) throws -> RelyingParty {
        var relaxations = relaxations
        if vector.json["require_user_presence"]?.boolValue == false {
            relaxations.insert(.allowsRegistrationWithoutUserPresence)
        }
        var policy = AttestationTrustPolicy()
        if let pinned = vector.json["source_pinned_validation_time"]?.stringValue {
            guard let seconds = ISO8601Time.seconds(pinned) else {
                throw VectorShapeError(description: "not an ISO 8601 time: \(pinned)")
            }
            policy.validationTime = seconds
        }
        if vector.json["rp_trust_anchor_config"] != nil {
            policy = policy.trusting(
                [try WellKnownAttestationRoots.globalSignRootCAR2.certificate()], for: "packed")
        }
        adjust(&policy, for: vector.id)
        return RelyingParty(
            identifiers: strings(vector.json["expected_rp_id"]),
            origins: OriginPolicy(allowedOrigins: strings(vector.json["expected_origin"])),
            trustPolicy: policy, profile: profile, relaxations: relaxations)
    }

    static func response(_ vector: Case) throws -> RegistrationResponseJSON {
        let credential = try vector.json.member("credential")
        return try RegistrationResponseJSON(jsonValue: credential, path: "credential")
    }

    /// The expected challenge's bytes. reg-047 and auth-013 expect
    /// `shouldhavebeenthisvalue`, which is not the base64url of any bytes (its last character
    /// has non-zero spare bits): no options could have sent it, so its UTF-8 stands in.
    static func challenge(_ json: JSONValue) throws -> [UInt8] {
        let text = try json.string("expected_challenge")
        return (try? Base64URL.decode(text)) ?? Array(text.utf8)
    }

    /// The sources' relying parties allow RS1 (-65535) next to the usual algorithms: Windows
    /// Hello TPM credentials use it.
    static func expectations(_ vector: Case) throws -> RegistrationExpectations {
        RegistrationExpectations(
            challenge: try challenge(vector.json),
            requiresUserVerification: vector.json["require_user_verification"]?.boolValue
                ?? false,
            allowedAlgorithms: RegistrationExpectations.supportedAlgorithms + [.rs1])
    }

    @Test func coversEveryCase() {
        #expect(Self.cases.count == 64)
        #expect(Self.cases.filter { Self.coreFormats.contains($0.format) }.count == 36)
    }

    @Test(arguments: cases)
    func meetsItsExpectedResult(_ vector: Case) throws {
        let relyingParty = try Self.relyingParty(vector)
        let response = try Self.response(vector)
        let expectations = try Self.expectations(vector)
        if let (code, step) = Self.expectedFailures[vector.id] {
            #expect(
                try vector.json.string("expected_result").hasPrefix("ok") == false
                    || code == .unsupportedAlgorithm)
            expectFailure(code, step: step) { () throws in
                try relyingParty.verifyRegistration(response, expecting: expectations)
            }
            return
        }
        #expect(
            try vector.json.string("expected_result") == "ok" || Self.knownGaps.contains(vector.id))
        let result = try relyingParty.verifyRegistration(response, expecting: expectations)
        let decoded = try vector.json.member("decoded")
        #expect(result.format == vector.format)
        #expect(
            Base64URL.encode(result.credentialId) == (try decoded.string("credentialId_b64url")))
        #expect(Int64(result.signCount) == decoded["signCount"]?.int64Value)
        #expect(Int64(result.flags.rawValue) == decoded["flags"]?.int64Value)
        #expect(Hex.encode(result.aaguid.bytes) == (try decoded.string("aaguid")))
        #expect(
            Base64URL.encode(result.credentialPublicKeyBytes)
                == (try decoded.string("credentialPublicKey_cose_b64url")))
        #expect(result.attestationType == Self.attestationType(vector))
        switch result.attestationType {
        case .none, .selfAttestation:
            #expect(result.trustPath == .notApplicable)
        default:
            guard case .notEvaluated = result.trustPath else {
                Issue.record("\(vector.id): \(result.trustPath)")
                return
            }
        }
    }

    /// The conformance tool's objects (map keys out of canonical order) are the real
    /// registrations that need the compatible profile: the strict profile refuses them at
    /// decoding, the compatible one verifies them and reports where the order breaks; the
    /// others verify strictly, with nothing to report.
    @Test func strictProfileRefusesOnlyNonCanonicalKeyOrder() throws {
        let nonCanonical: Set<String> = ["reg-032", "reg-033", "reg-040", "reg-041"]
        for vector in Self.cases where Self.expectedFailures[vector.id] == nil {
            let compatible = try Self.relyingParty(vector).verifyRegistration(
                try Self.response(vector), expecting: try Self.expectations(vector))
            // What the source's relaxations let through (SafetyNet's timestamp) is reported
            // under their names; everything else is the profile's.
            let profileKinds = Set(
                compatible.deviations.filter { $0.relaxation == nil }.map(\.kind))
            #expect(
                profileKinds == (nonCanonical.contains(vector.id) ? [.cborEncoding] : []),
                "\(vector.id): \(compatible.deviations)")
            #expect(
                compatible.deviations.allSatisfy {
                    ($0.kind == .relaxedCheck) == ($0.relaxation != nil)
                },
                "\(vector.id): \(compatible.deviations)")
            let relyingParty = try Self.relyingParty(vector, profile: .strict)
            let response = try Self.response(vector)
            let expectations = try Self.expectations(vector)
            do {
                _ = try relyingParty.verifyRegistration(response, expecting: expectations)
                #expect(!nonCanonical.contains(vector.id), "\(vector.id) verified strictly")
            } catch let error as WebAuthnError {
                if nonCanonical.contains(vector.id) {
                    #expect(error.code == .malformedCBOR, "\(vector.id): \(error)")
                    #expect(error.step == "§7.1 step 13", "\(vector.id): \(error)")
                } else {
                    Issue.record("\(vector.id): \(error)")
                }
            } catch {
                Issue.record("expected a WebAuthnError, got \(error)")
            }
        }
    }

    /// reg-003's credential verifies when the anchor is the one that issued it is not
    /// configured (reg-018 is the same object without the wrong anchor).
    @Test func wrongAnchorIsTheOnlyDifference() throws {
        guard let withAnchor = Self.cases.first(where: { $0.id == "reg-003" }),
            let without = Self.cases.first(where: { $0.id == "reg-018" })
        else {
            Issue.record("reg-003 or reg-018 missing")
            return
        }
        #expect(
            try Self.response(withAnchor).response.attestationObject
                == Self.response(without).response.attestationObject)
    }
}
