import Fido2Crypto
@_spi(Fido2Internals) import Fido2WebAuthnWire

/// Verifies the `fido-u2f` attestation statement format (WebAuthn Level 3 §8.6).
///
/// `x5c` must hold exactly one certificate, with a P-256 key; the credential key must be a
/// P-256 ES256 key; `sig` must be an ES256 signature by the certificate key over the U2F
/// registration layout `0x00 ‖ rpIdHash ‖ clientDataHash ‖ credentialId ‖ 0x04 ‖ x ‖ y`. The
/// certificate is judged against the trust policy's `fido-u2f` anchors. The type is reported
/// as ``AttestationType/basic``.
///
/// U2F signs neither the flags, the signature counter nor the AAGUID; they are not bound by
/// this statement.
package enum FIDOU2FAttestationVerifier: AttestationFormatVerifier {
    /// `fido-u2f`.
    package static let format = "fido-u2f"

    /// Verifies a fido-u2f statement in `context`.
    ///
    /// - Throws: `WebAuthnError`: `invalidAttestationStatement` when `x5c` does not hold
    ///   exactly one certificate; `attestationCertificateInvalid` for a certificate that does
    ///   not parse or has no P-256 key; `attestationAlgorithmMismatch` for a credential key
    ///   that is not ES256 on P-256; `attestationSignatureInvalid`;
    ///   `attestationTrustPathInvalid` (step `§7.1 step 24`) or a revocation code (see
    ///   ``AttestationVerificationContext/evaluateTrustPath(_:format:step:)``).
    package static func verify(
        _ statement: AttestationStatement, in context: AttestationVerificationContext
    ) throws -> AttestationVerificationResult {
        guard case .fidoU2F(let u2f) = statement else {
            throw CoreFormatSupport.wrongStatement(statement, expected: format)
        }
        guard u2f.certificates.count == 1 else {
            throw WebAuthnError(
                .invalidAttestationStatement,
                "x5c holds \(u2f.certificates.count) certificates; fido-u2f has exactly one",
                field: "attStmt.x5c")
        }
        let certificates = try CoreFormatSupport.parse(u2f.certificates, in: context)
        let key = try CoreFormatSupport.publicKey(of: certificates[0])
        guard key.kind == .p256 else {
            throw WebAuthnError(
                .attestationCertificateInvalid,
                "the fido-u2f attestation key is \(key.kind), not P-256", field: "attStmt.x5c[0]")
        }
        let credentialKey = context.credentialPublicKey
        guard credentialKey.algorithm == .es256, credentialKey.publicKey.kind == .p256 else {
            throw WebAuthnError(
                .attestationAlgorithmMismatch,
                "fido-u2f attests P-256 ES256 credentials, not \(credentialKey.algorithm)",
                field: "authData.attestedCredentialData.credentialPublicKey")
        }
        let signedBytes = try FIDOU2FAttestationStatement.signedBytes(
            authenticatorData: context.authenticatorData, clientDataHash: context.clientDataHash)
        let valid: Bool
        do {
            valid = try key.isValidSignature(u2f.signature, for: signedBytes, algorithm: .es256)
        } catch {
            throw WebAuthnError(crypto: error, .attestationSignatureInvalid, field: "attStmt.sig")
        }
        guard valid else {
            throw WebAuthnError(
                .attestationSignatureInvalid,
                "sig does not verify over the U2F registration data with the certificate key",
                field: "attStmt.sig")
        }
        let trustPath = try context.evaluateTrustPath(
            certificates, format: format, step: CeremonyStep.Registration.trust)
        return AttestationVerificationResult(
            format: format, type: .basic, certificates: certificates, trustPath: trustPath)
    }
}
