@_spi(Fido2Internals) import Fido2WebAuthnWire

/// Verifies the `none` attestation statement format (WebAuthn Level 3 §8.7): an empty map, no
/// attestation. That the map is empty is checked when the attestation object is read (a member
/// fails it with `WebAuthnError.Code.invalidAttestationStatement`).
package enum NoneAttestationVerifier: AttestationFormatVerifier {
    /// `none`.
    package static let format = "none"

    /// Returns attestation type ``AttestationType/none`` with no trust path.
    ///
    /// - Throws: `WebAuthnError` `invalidAttestationStatement` when `statement` is not a
    ///   `none` statement.
    package static func verify(
        _ statement: AttestationStatement, in context: AttestationVerificationContext
    ) throws(WebAuthnError) -> AttestationVerificationResult {
        guard case .none = statement else {
            throw CoreFormatSupport.wrongStatement(statement, expected: format)
        }
        return AttestationVerificationResult(format: format, type: .none, trustPath: .notApplicable)
    }
}
