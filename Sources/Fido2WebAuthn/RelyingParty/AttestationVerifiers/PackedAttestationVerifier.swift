import Fido2Crypto
@_spi(Fido2Internals) import Fido2WebAuthnWire

/// Verifies the `packed` attestation statement format (WebAuthn Level 3 §8.2).
///
/// - **Self attestation** (no `x5c`): `alg` must be the credential key's algorithm, and `sig` a
///   signature over authenticatorData ‖ clientDataHash by the credential key.
/// - **Full attestation** (`x5c`): `sig` must verify over the same bytes with the attestation
///   certificate's key and `alg`; the certificate must meet §8.2.1 (version 3; subject C, O,
///   OU "Authenticator Attestation" and CN; basicConstraints with CA false (absent reads as
///   an end-entity certificate under the compatible profile, reported); an AAGUID
///   extension, when present, non-critical and equal to authData's AAGUID); the chain is
///   judged against the trust policy's `packed` anchors. The type is reported as
///   ``AttestationType/basic``: telling Basic from AttCA takes knowledge of the vendor's PKI
///   that the statement does not carry.
///
/// The subject attributes are checked for presence and value, not for their ASN.1 string
/// types (PrintableString, UTF8String), which deployed certificates do not all follow.
package enum PackedAttestationVerifier: AttestationFormatVerifier {
    /// `packed`.
    package static let format = "packed"

    /// The subject OU every packed attestation certificate carries.
    static let organizationalUnit = "Authenticator Attestation"

    /// Verifies a packed statement in `context`.
    ///
    /// - Throws: `WebAuthnError`: `attestationAlgorithmMismatch` (self: `alg` is not the
    ///   credential's; full: `alg` does not fit the certificate key); `unsupportedAlgorithm`
    ///   (full: an `alg` this library does not implement); `attestationSignatureInvalid`; `attestationCertificateInvalid` (a certificate that
    ///   does not parse or breaks §8.2.1); `attestationAAGUIDMismatch`;
    ///   `attestationTrustPathInvalid` (step `§7.1 step 24`) when anchors are configured and
    ///   the chain does not lead to one (`attestationCertificateRevoked` or
    ///   `attestationRevocationStatusUnknown` under the policy's revocation check).
    package static func verify(
        _ statement: AttestationStatement, in context: AttestationVerificationContext
    ) throws -> AttestationVerificationResult {
        guard case .packed(let packed) = statement else {
            throw CoreFormatSupport.wrongStatement(statement, expected: format)
        }
        guard let x5c = packed.certificates else {
            return try verifySelfAttestation(packed, in: context)
        }
        let certificates = try CoreFormatSupport.parse(x5c, in: context)
        let leaf = certificates[0]
        let key = try CoreFormatSupport.publicKey(of: leaf)
        try CoreFormatSupport.checkSignature(
            packed.signature, by: key, algorithm: packed.algorithm, in: context)
        let deviations = try checkRequirements(leaf, in: context)
        try CoreFormatSupport.checkAAGUID(of: leaf, in: context)
        let trustPath = try context.evaluateTrustPath(
            certificates, format: format, step: CeremonyStep.Registration.trust)
        return AttestationVerificationResult(
            format: format, type: .basic, certificates: certificates, trustPath: trustPath,
            deviations: deviations)
    }

    /// Self attestation: `alg` is the credential's and the credential key made `sig`.
    private static func verifySelfAttestation(
        _ packed: PackedAttestationStatement, in context: AttestationVerificationContext
    ) throws(WebAuthnError) -> AttestationVerificationResult {
        let credentialKey = context.credentialPublicKey
        guard packed.algorithm == credentialKey.algorithm else {
            throw WebAuthnError(
                .attestationAlgorithmMismatch,
                "self attestation with alg \(packed.algorithm) for a \(credentialKey.algorithm) credential",
                field: "attStmt.alg")
        }
        try CoreFormatSupport.checkSignature(
            packed.signature, by: credentialKey.publicKey, algorithm: packed.algorithm,
            in: context)
        return AttestationVerificationResult(
            format: format, type: .selfAttestation, trustPath: .notApplicable)
    }

    /// §8.2.1: version, subject, basicConstraints (the AAGUID extension is checked apart).
    /// Returns what the context's profile tolerated: a missing basicConstraints under the
    /// compatible profile (RFC 5280 §4.2.1.9: cA defaults to FALSE).
    static func checkRequirements(
        _ certificate: Certificate, in context: AttestationVerificationContext
    ) throws(WebAuthnError) -> [ToleratedDeviation] {
        func invalid(_ reason: String) -> WebAuthnError {
            WebAuthnError(
                .attestationCertificateInvalid, "packed attestation certificate: \(reason)",
                field: "attStmt.x5c[0]")
        }
        guard certificate.version == 3 else {
            throw invalid("version is \(certificate.version), not 3")
        }
        let subject = certificate.subject
        for (type, name) in [
            (ASN1ObjectIdentifier.countryName, "C"), (.organizationName, "O"),
            (.commonName, "CN"),
        ] where (subject.first(type) ?? "").isEmpty {
            throw invalid("the subject has no \(name)")
        }
        guard
            subject.values(of: .organizationalUnitName).contains(where: {
                $0.utf8.elementsEqual(organizationalUnit.utf8)
            })
        else {
            throw invalid("the subject OU is not \"\(organizationalUnit)\"")
        }
        guard let constraints = certificate.basicConstraints else {
            return [
                try context.missingBasicConstraints(
                    field: "attStmt.x5c[0]", prefix: "packed attestation certificate: ")
            ]
        }
        guard !constraints.isCertificateAuthority else {
            throw invalid("basicConstraints says it is a CA")
        }
        return []
    }
}
