import Fido2Crypto
@_spi(Fido2Internals) import Fido2WebAuthnWire

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
    /// How literally statements are read: certificate encodings that OpenSSL reads and DER
    /// forbids, and a missing basicConstraints, are accepted and reported under
    /// ``VerificationProfile/compatible``.
    public let profile: VerificationProfile
    /// The formats the relying party verifies: the `compound` verifier verifies its entries
    /// with them. ``AttestationFormatRegistry/standard`` unless the relying party set its own.
    var formats: AttestationFormatRegistry = .standard

    /// Creates a context.
    public init(
        authenticatorData: AuthenticatorData, clientDataHash: [UInt8],
        credentialPublicKey: COSEKey, policy: AttestationTrustPolicy,
        profile: VerificationProfile = .compatible
    ) {
        self.authenticatorData = authenticatorData
        self.clientDataHash = clientDataHash
        self.credentialPublicKey = credentialPublicKey
        self.policy = policy
        self.profile = profile
    }

    /// Parses the DER certificate at `field` under the profile's `CertificateLeniency`.
    ///
    /// - Throws: `WebAuthnError.Code.attestationCertificateInvalid` naming
    ///   `field`; under the strict profile, the reason says when the compatible profile would
    ///   have read the certificate.
    public func certificate<DER: Collection<UInt8>>(
        _ der: DER, field: String, step: VerificationStep? = nil
    ) throws -> Certificate {
        do {
            return try Certificate(derEncoded: der, tolerating: profile.certificateLeniency)
        } catch {
            let readable =
                profile == .strict
                && (try? Certificate(derEncoded: der, tolerating: .all)) != nil
            let hint =
                readable
                ? " (the compatible profile reads it: VerificationProfile.compatible; command line: without --strict)"
                : ""
            throw WebAuthnError(
                .attestationCertificateInvalid, "not a certificate: \(error)\(hint)", field: field,
                step: step)
        }
    }

    /// The deviation a certificate without basicConstraints is, when the profile reads it as
    /// an end-entity certificate (RFC 5280 §4.2.1.9: cA defaults to FALSE).
    ///
    /// - Throws: `WebAuthnError.Code.attestationCertificateInvalid` under the
    ///   strict profile, where §8.2.1 and §8.3.1 ask for the extension.
    func missingBasicConstraints(
        field: String, prefix: String, step: VerificationStep? = nil
    ) throws(WebAuthnError) -> ToleratedDeviation {
        guard profile == .compatible else {
            throw WebAuthnError(
                .attestationCertificateInvalid,
                "\(prefix)basicConstraints is missing (the compatible profile reads it as an end-entity certificate, RFC 5280 §4.2.1.9: VerificationProfile.compatible; command line: without --strict)",
                field: field, step: step)
        }
        return ToleratedDeviation(
            kind: .certificateWithoutBasicConstraints, field: field,
            detail:
                "no basicConstraints extension; read as an end-entity certificate (RFC 5280 §4.2.1.9)"
        )
    }

    /// Judges `chain` (attestation certificate first) against the anchors configured for
    /// `format`: ``TrustPathEvaluation/notEvaluated(reason:)`` when there are none, the
    /// verified path when it verifies. With ``AttestationTrustPolicy/metadata``, the anchors
    /// are the roots of the authenticator's metadata entry instead, after its statuses pass
    /// (see ``MetadataTrustPolicy``).
    ///
    /// - Throws: `WebAuthnError.Code.attestationTrustPathInvalid` when anchors
    ///   are configured and the chain does not verify to one of them at the policy's time;
    ///   under the policy's ``AttestationTrustPolicy/revocation`` check,
    ///   `WebAuthnError.Code.attestationCertificateRevoked` for a revoked
    ///   certificate and `WebAuthnError.Code.attestationRevocationStatusUnknown`
    ///   for one without a usable CRL; with metadata,
    ///   `WebAuthnError.Code.authenticatorStatusRefused` for a refused status or
    ///   too low a certification level and
    ///   `WebAuthnError.Code.authenticatorNotInMetadata` for an authenticator
    ///   the BLOB does not list (strict mode).
    public func evaluateTrustPath(
        _ chain: [Certificate], format: String, step: VerificationStep
    )
        throws -> TrustPathEvaluation
    {
        if let metadata = policy.metadata {
            let aaguid = authenticatorData.attestedCredentialData?.aaguid
            let entries = metadata.entries(aaguid: aaguid, chain: chain)
            if let entry = entries.first {
                // Statuses of every matching entry, first against the chain as sent, then
                // (after judging) against the verified path, whose anchor a compromise report
                // may name.
                try checkStatus(of: entries, path: chain, metadata: metadata, step: step)
                guard !entry.attestationRootCertificates.isEmpty else {
                    throw WebAuthnError(
                        .attestationTrustPathInvalid,
                        "the metadata entry \"\(entry.description)\" lists no readable attestation root",
                        field: "attStmt.x5c", step: step)
                }
                let evaluation = try judge(
                    chain, anchors: entry.attestationRootCertificates,
                    what:
                        "\(format) certificate chain of \"\(entry.description)\" (metadata roots)",
                    step: step)
                if case .verified(let path) = evaluation {
                    try checkStatus(of: entries, path: path, metadata: metadata, step: step)
                }
                return evaluation
            }
            if metadata.mode == .strict {
                let name = aaguid.map { $0 == .zero ? "" : " AAGUID \($0)" } ?? ""
                let keyIdentifier = chain.first.flatMap { MetadataBLOB.keyIdentifier(of: $0) }
                let key = keyIdentifier.map { " attestation key identifier \($0)" } ?? ""
                throw WebAuthnError(
                    .authenticatorNotInMetadata,
                    "the metadata BLOB (no \(metadata.blob.number)) lists no authenticator with\(name)\(name.isEmpty || key.isEmpty ? "" : " or")\(key)",
                    field: "attStmt.x5c", step: step)
            }
        }
        let anchors = policy.anchors(for: format)
        guard !anchors.isEmpty else {
            return .notEvaluated(reason: "no trust anchors configured for \(format)")
        }
        return try judge(chain, anchors: anchors, what: "\(format) certificate chain", step: step)
    }

    /// ``MetadataTrustPolicy/checkStatus(of:path:)``, its error at `attStmt.x5c` and `step`.
    private func checkStatus(
        of entries: [MetadataEntry], path: [Certificate], metadata: MetadataTrustPolicy,
        step: VerificationStep
    ) throws(WebAuthnError) {
        do {
            try metadata.checkStatus(of: entries, path: path)
        } catch {
            let failure = WebAuthnError(wrapping: error)
            throw WebAuthnError(failure.code, failure.reason, field: "attStmt.x5c", step: step)
        }
    }

    /// The verified path of `chain` to `anchors`, with the policy's time, critical extensions
    /// and revocation check.
    private func judge(
        _ chain: [Certificate], anchors: [Certificate], what: String, step: VerificationStep
    ) throws(WebAuthnError) -> TrustPathEvaluation {
        do {
            let verifier = try CertificateChainVerifier(
                trustAnchors: anchors, allowedCriticalExtensions: policy.allowedCriticalExtensions,
                revocation: policy.revocation)
            return .verified(path: try verifier.verify(chain: chain, at: policy.validationTime))
        } catch {
            let failure = error as? CryptoError
            let code: WebAuthnError.Code =
                switch failure?.code {
                case .certificateRevoked: .attestationCertificateRevoked
                case .revocationStatusUnknown: .attestationRevocationStatusUnknown
                default: .attestationTrustPathInvalid
                }
            let depth = failure?.depth.map { " (certificate \($0) of the chain)" } ?? ""
            throw WebAuthnError(
                code, "the \(what) does not verify\(depth): \(error)",
                field: "attStmt.x5c", step: step)
        }
    }
}
