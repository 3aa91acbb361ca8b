/// Verifies one attestation statement format (WebAuthn Level 3 §8): its signatures, its
/// certificate requirements and its binding to the authenticator data and client data, then
/// judges its trust path with ``AttestationVerificationContext/evaluateTrustPath(_:format:step:)``.
public protocol AttestationFormatVerifier: Sendable {
    /// The format identifier it verifies, such as `packed`.
    static var format: String { get }

    /// Verifies `statement` (already parsed) in `context`.
    ///
    /// - Throws: ``WebAuthnError`` naming the failed check; never returns a failed result.
    static func verify(
        _ statement: AttestationStatement, in context: AttestationVerificationContext
    )
        throws -> AttestationVerificationResult
}

/// Every format verifier, by format identifier.
enum AttestationFormatVerifiers {
    /// The verifier for `format`, or nil when it is not implemented.
    static func verifier(for format: String) -> (any AttestationFormatVerifier.Type)? {
        (coreFormats + deviceFormats).first { $0.format == format }
    }
}
