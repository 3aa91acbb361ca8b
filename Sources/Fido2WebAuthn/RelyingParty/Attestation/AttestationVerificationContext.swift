import Fido2Crypto

/// Everything a format verifier needs besides its statement: what was attested, the hash of the
/// client data it was attested with, the credential public key, and the trust policy.
public struct AttestationVerificationContext: Sendable {
    /// The authenticator data of the registration.
    public let authenticatorData: AuthenticatorData
    /// SHA-256 of the raw clientDataJSON.
    public let clientDataHash: [UInt8]
    /// The credential public key from the attested credential data.
    public let credentialPublicKey: COSEKey
    /// Which anchors to trust, and when.
    public let policy: AttestationTrustPolicy

    /// Creates a context.
    public init(
        authenticatorData: AuthenticatorData, clientDataHash: [UInt8],
        credentialPublicKey: COSEKey, policy: AttestationTrustPolicy
    ) {
        self.authenticatorData = authenticatorData
        self.clientDataHash = clientDataHash
        self.credentialPublicKey = credentialPublicKey
        self.policy = policy
    }

    /// Judges `chain` (attestation certificate first) against the anchors configured for
    /// `format`: ``TrustPathEvaluation/notEvaluated(reason:)`` when there are none, the
    /// verified path when it verifies.
    ///
    /// - Throws: ``WebAuthnError/Code-swift.struct/attestationTrustPathInvalid`` when anchors
    ///   are configured and the chain does not verify to one of them at the policy's time;
    ///   under the policy's ``AttestationTrustPolicy/revocation`` check,
    ///   ``WebAuthnError/Code-swift.struct/attestationCertificateRevoked`` for a revoked
    ///   certificate and ``WebAuthnError/Code-swift.struct/attestationRevocationStatusUnknown``
    ///   for one without a usable CRL.
    public func evaluateTrustPath(
        _ chain: [Certificate], format: String, step: String
    )
        throws(WebAuthnError) -> TrustPathEvaluation
    {
        let anchors = policy.anchors(for: format)
        guard !anchors.isEmpty else {
            return .notEvaluated(reason: "no trust anchors configured for \(format)")
        }
        do {
            let verifier = try CertificateChainVerifier(
                trustAnchors: anchors, allowedCriticalExtensions: policy.allowedCriticalExtensions,
                revocation: policy.revocation)
            return .verified(path: try verifier.verify(chain: chain, at: policy.validationTime))
        } catch {
            let code: WebAuthnError.Code =
                switch error.code {
                case .certificateRevoked: .attestationCertificateRevoked
                case .revocationStatusUnknown: .attestationRevocationStatusUnknown
                default: .attestationTrustPathInvalid
                }
            let depth = error.depth.map { " (certificate \($0) of the chain)" } ?? ""
            throw WebAuthnError(
                code, "the \(format) certificate chain does not verify\(depth): \(error)",
                field: "attStmt.x5c", step: step)
        }
    }
}
