import Fido2Crypto
@_spi(Fido2Internals) import Fido2WebAuthnWire

extension AttestationFormatVerifiers {
    /// `tpm`, `android-key`, `android-safetynet` and `apple`.
    static let deviceFormats: [any AttestationFormatVerifier.Type] = [
        TPMAttestationVerifier.self, AndroidKeyAttestationVerifier.self,
        AndroidSafetyNetAttestationVerifier.self, AppleAttestationVerifier.self,
    ]

    // MARK: Helpers shared by the device format verifiers

    /// Parses the first certificate of a DER chain (the attestation certificate); `field`
    /// names the chain (`attStmt.x5c`). The rest is parsed only once the statement's own
    /// checks pass (``deviceChain(leaf:_:field:step:in:)``), so a forged statement costs one
    /// certificate parse.
    static func deviceLeaf<Chain: Collection>(
        _ chain: Chain, field: String, step: VerificationStep,
        in context: AttestationVerificationContext
    ) throws -> Certificate where Chain.Element: Collection<UInt8> {
        guard let first = chain.first else {
            throw WebAuthnError(
                .invalidAttestationStatement, "the certificate chain is empty", field: field,
                step: step)
        }
        return try context.certificate(first, field: "\(field)[0]", step: step)
    }

    /// `leaf` followed by the other certificates of `chain` (whose first element is `leaf`'s
    /// DER), parsed.
    static func deviceChain<Chain: Collection>(
        leaf: Certificate, _ chain: Chain, field: String, step: VerificationStep,
        in context: AttestationVerificationContext
    ) throws -> [Certificate] where Chain.Element: Collection<UInt8> {
        var certificates = [leaf]
        certificates.reserveCapacity(chain.count)
        for (index, der) in chain.enumerated().dropFirst() {
            certificates.append(
                try context.certificate(der, field: "\(field)[\(index)]", step: step))
        }
        return certificates
    }

    /// The subject public key of `certificate` (RSA keys of 2048–4096 bits, EC and EdDSA keys).
    static func devicePublicKey(
        of certificate: Certificate, field: String, step: VerificationStep
    ) throws(WebAuthnError) -> PublicKey {
        do {
            return try certificate.publicKey
        } catch {
            throw WebAuthnError(
                .attestationCertificateInvalid, "unusable public key: \(error)", field: field,
                step: step)
        }
    }

    /// Checks that `signature` is a valid `algorithm` signature of `first ‖ second` under `key`.
    ///
    /// - Throws: `unsupportedAlgorithm` for an algorithm this library does not implement;
    ///   `attestationAlgorithmMismatch` when `algorithm` does not fit `key`;
    ///   `attestationSignatureInvalid` when the signature does not verify.
    static func deviceVerifySignature<
        S: Collection<UInt8>, A: Collection<UInt8>, B: Collection<UInt8>
    >(
        _ signature: S, over first: A, _ second: B, key: PublicKey, algorithm: COSEAlgorithm,
        field: String, step: VerificationStep
    ) throws(WebAuthnError) {
        let valid: Bool
        do {
            valid = try key.isValidSignature(signature, for: first, second, algorithm: algorithm)
        } catch {
            if (error as? CryptoError)?.code == .unsupportedAlgorithm {
                throw WebAuthnError(
                    .unsupportedAlgorithm, "\(algorithm) is not supported", field: field,
                    step: step)
            }
            throw WebAuthnError(
                .attestationAlgorithmMismatch, "\(algorithm) cannot be used with a \(key.kind) key",
                field: field, step: step)
        }
        guard valid else {
            throw WebAuthnError(
                .attestationSignatureInvalid, "the \(algorithm) signature does not verify",
                field: field, step: step)
        }
    }

    /// The policy's validation time in milliseconds since the Unix epoch, or the current time.
    static func deviceValidationTimeMilliseconds(_ policy: AttestationTrustPolicy) -> Int64 {
        if let seconds = policy.validationTime {
            let (milliseconds, overflow) = seconds.multipliedReportingOverflow(by: 1000)
            return overflow ? (seconds < 0 ? .min : .max) : milliseconds
        }
        return CeremonySupport.currentTimeMilliseconds()
    }

    /// The error for a statement handed to the verifier of another format.
    static func deviceWrongStatement(
        _ statement: AttestationStatement, expected format: String
    ) -> WebAuthnError {
        WebAuthnError(
            .invalidAttestationStatement,
            "the \(format) verifier was given a \(statement.format) statement", field: "fmt")
    }
}
