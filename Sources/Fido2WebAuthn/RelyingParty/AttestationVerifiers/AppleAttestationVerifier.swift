@_spi(Fido2Internals) import Fido2Crypto
@_spi(Fido2Internals) import Fido2WebAuthnWire

/// Verifies `apple` anonymous attestation statements (WebAuthn Level 3 §8.8): attestation type
/// ``AttestationType/anonymizationCA``, trust path `x5c`.
///
/// In order, each failure its own error: the first certificate (credCert) carries the
/// extension 1.2.840.113635.100.8.2, whose value (`SEQUENCE { [1] EXPLICIT OCTET STRING }`,
/// read with the strict DER reader) is SHA-256(authenticatorData ‖ clientDataHash) (step 4);
/// credCert's subject public key is the credential public key (step 5); then the chain is judged
/// against the `apple` anchors (the Apple WebAuthn Root CA, see ``WellKnownAttestationRoots``).
///
/// The `alg` member Apple devices add is not defined by the specification and is not judged:
/// no signature in the statement uses it.
///
/// ## Critical extensions
///
/// This verifier checks the nonce extension in full, so when credCert marks it critical the
/// chain verifier is told it is handled (for credCert only: the allowance is given only when no
/// other certificate of the chain marks it critical).
@_spi(Fido2Internals) public enum AppleAttestationVerifier: AttestationFormatVerifier {
    /// `apple`.
    @_spi(Fido2Internals) public static let format = "apple"

    static let step: VerificationStep = "§8.8"

    /// Verifies an `apple` statement; any other statement is an `invalidAttestationStatement`.
    ///
    /// - Throws: as ``verify(apple:in:)``.
    @_spi(Fido2Internals) public static func verify(
        _ statement: AttestationStatement, in context: AttestationVerificationContext
    ) throws -> AttestationVerificationResult {
        guard case .apple(let apple) = statement else {
            throw AttestationFormatVerifiers.deviceWrongStatement(statement, expected: format)
        }
        return try verify(apple: apple, in: context)
    }

    /// Verifies a parsed `apple` statement.
    ///
    /// - Throws: `WebAuthnError` naming the failed check: `invalidAttestationStatement` (no
    ///   certificate); `attestationCertificateInvalid` (a certificate that does not parse, the
    ///   nonce extension missing or malformed); `attestationNonceMismatch` (step 4);
    ///   `attestationKeyMismatch` (step 5); `attestationTrustPathInvalid` or a revocation code
    ///   (see ``AttestationVerificationContext/evaluateTrustPath(_:format:step:)``).
    @_spi(Fido2Internals) public static func verify(
        apple statement: AppleAttestationStatement, in context: AttestationVerificationContext
    ) throws -> AttestationVerificationResult {
        let credCert = try AttestationFormatVerifiers.deviceLeaf(
            statement.certificates, field: "attStmt.x5c", step: step, in: context)

        // Steps 2–4: the nonce.
        guard let nonceExtension = credCert.findExtension(.appleAttestationNonce) else {
            throw WebAuthnError(
                .attestationCertificateInvalid,
                "credCert lacks the nonce extension (1.2.840.113635.100.8.2)",
                field: "attStmt.x5c[0]", step: VerificationStep(section: step.section, number: 4))
        }
        let certifiedNonce = try nonce(inExtensionValue: nonceExtension.value)
        let expectedNonce = DigestAlgorithm.sha256.hash(
            context.authenticatorData.bytes, context.clientDataHash)
        guard ConstantTime.equals(certifiedNonce, expectedNonce) else {
            throw WebAuthnError(
                .attestationNonceMismatch,
                "the nonce extension is not SHA-256(authenticatorData ‖ clientDataHash)",
                field: "attStmt.x5c[0].nonce",
                step: VerificationStep(section: step.section, number: 4))
        }

        // Step 5: the key.
        let key = try AttestationFormatVerifiers.devicePublicKey(
            of: credCert, field: "attStmt.x5c[0]",
            step: VerificationStep(section: step.section, number: 5))
        guard key == context.credentialPublicKey.publicKey else {
            throw WebAuthnError(
                .attestationKeyMismatch, "credCert's key is not the credential public key",
                field: "attStmt.x5c[0]", step: VerificationStep(section: step.section, number: 5))
        }

        let chain = try AttestationFormatVerifiers.deviceChain(
            leaf: credCert, statement.certificates, field: "attStmt.x5c", step: step, in: context)
        let trustPath = try trustPathContext(context, chain: chain, nonceExtension: nonceExtension)
            .evaluateTrustPath(chain, format: format, step: step)
        return AttestationVerificationResult(
            format: format, type: .anonymizationCA, certificates: chain, trustPath: trustPath)
    }

    /// The nonce in the extension's value: `SEQUENCE { [1] EXPLICIT OCTET STRING (32 bytes) }`.
    ///
    /// - Throws: `attestationCertificateInvalid` for any other structure.
    static func nonce(inExtensionValue value: [UInt8]) throws(WebAuthnError) -> ArraySlice<UInt8> {
        do throws(CryptoError) {
            var reader = try DERReader(value)
            let nonce = try reader.readSequence { (sequence) throws(CryptoError) in
                try sequence.readExplicit(1) { (field) throws(CryptoError) in
                    try field.readOctetString()
                }
            }
            try reader.finish()
            guard nonce.count == 32 else {
                throw CryptoError(.derInvalidValue, "the nonce is \(nonce.count) bytes, not 32")
            }
            return nonce
        } catch {
            throw WebAuthnError(
                .attestationCertificateInvalid, "malformed nonce extension: \(error.reason)",
                field: "attStmt.x5c[0].nonce",
                step: VerificationStep(section: step.section, number: 4), offset: error.offset)
        }
    }

    /// `context`, or a copy whose policy allows the nonce extension as a handled critical
    /// extension when credCert, and only credCert, marks it critical.
    static func trustPathContext(
        _ context: AttestationVerificationContext, chain: [Certificate],
        nonceExtension: CertificateExtension
    ) -> AttestationVerificationContext {
        guard nonceExtension.isCritical,
            !chain.dropFirst().contains(where: {
                $0.findExtension(.appleAttestationNonce)?.isCritical == true
            })
        else { return context }
        var policy = context.policy
        policy.allowedCriticalExtensions.insert(.appleAttestationNonce)
        return AttestationVerificationContext(
            authenticatorData: context.authenticatorData, clientDataHash: context.clientDataHash,
            credentialPublicKey: context.credentialPublicKey, policy: policy)
    }
}
