import Fido2Crypto
@_spi(Fido2Internals) import Fido2WebAuthnWire

/// Verifies `android-key` attestation statements (WebAuthn Level 3 §8.4): attestation type
/// ``AttestationType/basic``, trust path `x5c`.
///
/// In order, each failure its own error: `sig` verifies over authenticatorData ‖ clientDataHash
/// with the first certificate's key and `alg` (RS1 is refused here: SHA-1 is accepted only in
/// `tpm`); that key is the credential public key; the certificate carries the KeyDescription
/// extension, whose `attestationChallenge` is the clientDataHash; neither authorization list
/// has `allApplications`; `origin` is `KM_ORIGIN_GENERATED` and `purpose` includes
/// `KM_PURPOSE_SIGN` in `teeEnforced` (or, under
/// ``AndroidKeyAttestationOptions/acceptsSoftwareEnforcedAuthorizations``, in either list);
/// then the chain is judged against the `android-key` anchors (Google's hardware attestation
/// roots, see ``WellKnownAttestationRoots``).
///
/// The KeyDescription extension is not critical in real certificates; it is not added to the
/// chain verifier's allowed critical extensions because this verifier judges only the fields
/// §8.4 names, not the whole extension.
@_spi(Fido2Internals) public enum AndroidKeyAttestationVerifier: AttestationFormatVerifier {
    /// `android-key`.
    @_spi(Fido2Internals) public static let format = "android-key"

    static let step: VerificationStep = "§8.4"

    /// Verifies an `android-key` statement; any other statement is an
    /// `invalidAttestationStatement`.
    ///
    /// - Throws: as ``verify(androidKey:in:)``.
    @_spi(Fido2Internals) public static func verify(
        _ statement: AttestationStatement, in context: AttestationVerificationContext
    ) throws -> AttestationVerificationResult {
        guard case .androidKey(let androidKey) = statement else {
            throw AttestationFormatVerifiers.deviceWrongStatement(statement, expected: format)
        }
        return try verify(androidKey: androidKey, in: context)
    }

    /// Verifies a parsed `android-key` statement, with the relaxations of
    /// `context.policy.androidKey`.
    ///
    /// - Throws: `WebAuthnError` naming the failed check: `invalidAttestationStatement` (no
    ///   certificate); `unsupportedAlgorithm` or `attestationAlgorithmMismatch` (`alg` unknown,
    ///   RS1, or not fitting the key); `attestationSignatureInvalid`; `attestationKeyMismatch`;
    ///   `attestationCertificateInvalid` (a certificate that does not parse, a missing or
    ///   malformed KeyDescription, `allApplications`, `origin`, `purpose`);
    ///   `attestationNonceMismatch` (`attestationChallenge`); `attestationTrustPathInvalid` or
    ///   a revocation code (see
    ///   ``AttestationVerificationContext/evaluateTrustPath(_:format:step:)``).
    @_spi(Fido2Internals) public static func verify(
        androidKey statement: AndroidKeyAttestationStatement,
        in context: AttestationVerificationContext
    ) throws -> AttestationVerificationResult {
        let leaf = try AttestationFormatVerifiers.deviceLeaf(
            statement.certificates, field: "attStmt.x5c", step: step, in: context)
        let leafKey = try AttestationFormatVerifiers.devicePublicKey(
            of: leaf, field: "attStmt.x5c[0]", step: step)
        guard statement.algorithm != .rs1 else {
            throw WebAuthnError(
                .attestationAlgorithmMismatch, "RS1 (SHA-1) is accepted only in tpm statements",
                field: "attStmt.alg", step: step)
        }
        try AttestationFormatVerifiers.deviceVerifySignature(
            statement.signature, over: context.authenticatorData.bytes, context.clientDataHash,
            key: leafKey, algorithm: statement.algorithm, field: "attStmt.sig", step: step)
        guard leafKey == context.credentialPublicKey.publicKey else {
            throw WebAuthnError(
                .attestationKeyMismatch,
                "the first certificate's key is not the credential public key",
                field: "attStmt.x5c[0]", step: step)
        }
        guard let extensionEntry = leaf.findExtension(.androidKeyAttestation) else {
            throw WebAuthnError(
                .attestationCertificateInvalid,
                "the first certificate lacks the KeyDescription extension (1.3.6.1.4.1.11129.2.1.17)",
                field: "attStmt.x5c[0]", step: step)
        }
        let description = try AndroidKeyDescription(derEncoded: extensionEntry.value)
        guard ConstantTime.equals(description.attestationChallenge, context.clientDataHash) else {
            throw WebAuthnError(
                .attestationNonceMismatch, "attestationChallenge is not the clientDataHash",
                field: "attStmt.x5c[0].keyDescription.attestationChallenge", step: step)
        }
        let deviations = try checkAuthorizations(description, options: context.policy.androidKey)

        let chain = try AttestationFormatVerifiers.deviceChain(
            leaf: leaf, statement.certificates, field: "attStmt.x5c", step: step, in: context)
        let trustPath = try context.evaluateTrustPath(chain, format: format, step: step)
        return AttestationVerificationResult(
            format: format, type: .basic, certificates: chain, trustPath: trustPath,
            deviations: deviations)
    }

    /// The authorization-list rules of §8.4. Returns what the options' relaxations let
    /// through: `origin` or `purpose` missing, or found only in `softwareEnforced`.
    ///
    /// - Throws: `attestationCertificateInvalid` naming the list and field, and the relaxation
    ///   that would have accepted it, if one would.
    static func checkAuthorizations(
        _ description: AndroidKeyDescription, options: AndroidKeyAttestationOptions
    ) throws(WebAuthnError) -> [ToleratedDeviation] {
        func invalid(_ reason: String, _ field: String) -> WebAuthnError {
            WebAuthnError(
                .attestationCertificateInvalid, reason,
                field: "attStmt.x5c[0].keyDescription.\(field)", step: step)
        }
        let software = description.softwareEnforced
        let tee = description.teeEnforced
        guard !software.allApplications else {
            throw invalid("allApplications is present", "softwareEnforced.allApplications")
        }
        guard !tee.allApplications else {
            throw invalid("allApplications is present", "teeEnforced.allApplications")
        }
        let considered: [(list: AndroidKeyAuthorizationList, name: String)] =
            options.acceptsSoftwareEnforcedAuthorizations
            ? [(tee, "teeEnforced"), (software, "softwareEnforced")] : [(tee, "teeEnforced")]
        let listNames = considered.map(\.name).joined(separator: " or ")

        var deviations: [ToleratedDeviation] = []
        let missing = VerificationRelaxations.acceptsAndroidKeyMissingOriginAndPurpose
        let softwareEnforced = VerificationRelaxations
            .acceptsAndroidKeySoftwareEnforcedAuthorizations
        /// A member no considered list states: refused with the relaxation that would help
        /// (software-enforced when that list has it), or accepted and reported.
        func absent(_ member: String, inSoftware: Bool) throws(WebAuthnError) {
            let field = "\(considered[0].name).\(member)"
            guard options.acceptsMissingOriginAndPurpose else {
                let helper = inSoftware && !options.acceptsSoftwareEnforcedAuthorizations
                throw invalid(
                    "\(listNames) states no \(member)"
                        + VerificationRelaxations.hint(helper ? softwareEnforced : missing), field)
            }
            deviations.append(
                ToleratedDeviation(
                    kind: .relaxedCheck, field: "attStmt.x5c[0].keyDescription.\(field)",
                    detail: "\(listNames) states no \(member)", relaxation: missing))
        }
        /// A member only softwareEnforced states, accepted by the options: reported.
        func fromSoftware(_ member: String) {
            deviations.append(
                ToleratedDeviation(
                    kind: .relaxedCheck,
                    field: "attStmt.x5c[0].keyDescription.softwareEnforced.\(member)",
                    detail: "\(member) is stated by softwareEnforced only",
                    relaxation: softwareEnforced))
        }

        let origins = considered.compactMap { entry in entry.list.origin.map { (entry.name, $0) } }
        if origins.isEmpty {
            try absent("origin", inSoftware: software.origin != nil)
        } else if tee.origin == nil {
            fromSoftware("origin")
        }
        for (name, origin) in origins where origin != AndroidKeyAuthorizationList.originGenerated {
            throw invalid("origin is \(origin), not KM_ORIGIN_GENERATED (0)", "\(name).origin")
        }

        let purposes = considered.compactMap(\.list.purposes)
        if purposes.isEmpty {
            try absent("purpose", inSoftware: software.purposes != nil)
        } else {
            guard purposes.contains(where: { $0.contains(AndroidKeyAuthorizationList.purposeSign) })
            else {
                throw invalid(
                    "purpose does not include KM_PURPOSE_SIGN (2) in \(listNames)",
                    "\(considered[0].name).purpose")
            }
            if tee.purposes == nil { fromSoftware("purpose") }
        }
        return deviations
    }
}
