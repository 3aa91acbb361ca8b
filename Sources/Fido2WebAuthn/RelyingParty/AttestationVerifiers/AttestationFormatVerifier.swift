@_spi(Fido2Internals) import Fido2WebAuthnWire

/// Verifies one attestation statement format (WebAuthn Level 3 §8): its signatures, its
/// certificate requirements and its binding to the authenticator data and client data, then
/// judges its trust path with ``AttestationVerificationContext/evaluateTrustPath(_:format:step:)``.
///
/// fido2kit's own verifiers are registered in ``AttestationFormatRegistry/standard``; conform to
/// this protocol and ``AttestationFormatRegistry/register(_:)`` the type to verify a format
/// fido2kit does not.
public protocol AttestationFormatVerifier: Sendable {
    /// The format identifier it verifies, such as `packed`.
    static var format: String { get }

    /// Verifies `statement` (already parsed) in `context`.
    ///
    /// - Throws: `WebAuthnError` naming the failed check; never returns a failed result.
    static func verify(
        _ statement: AttestationStatement, in context: AttestationVerificationContext
    )
        throws -> AttestationVerificationResult
}

/// The built-in format verifiers, grouped for ``AttestationFormatRegistry/standard``.
enum AttestationFormatVerifiers {}
