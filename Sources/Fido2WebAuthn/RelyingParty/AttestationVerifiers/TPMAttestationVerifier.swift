import Fido2Crypto
@_spi(Fido2Internals) import Fido2WebAuthnWire

/// Verifies `tpm` attestation statements (WebAuthn Level 3 §8.3): attestation type
/// ``AttestationType/attestationCA``, trust path `x5c`.
///
/// In order, each failure its own error: `ver` is "2.0"; the key in `pubArea` is the credential
/// public key (RSA modulus and exponent, or ECC curve and point); `certInfo` has magic
/// `TPM_GENERATED_VALUE` and type `TPM_ST_ATTEST_CERTIFY`; its `extraData` is the digest of
/// authenticatorData ‖ clientDataHash with the hash of `alg` (RS1 hashes with SHA-1: the one
/// place this library accepts SHA-1 signatures); its attested name is `pubArea`'s name (the
/// `nameAlg` identifier then the `nameAlg` digest of `pubArea`); `sig` verifies over `certInfo`
/// with the AIK certificate's key and `alg`; the AIK certificate meets §8.3.1 (version 3, an
/// empty subject, a critical subjectAltName whose directoryName holds the TPM manufacturer
/// (`id:` and eight hex digits), model and version, extendedKeyUsage tcg-kp-AIKCertificate,
/// basicConstraints with cA false, and the FIDO AAGUID extension, when present, equal to
/// authenticatorData's); then the chain is judged against the `tpm` anchors (Microsoft's TPM
/// root for Windows Hello, see ``WellKnownAttestationRoots``). The manufacturer is not checked
/// against the TCG vendor registry.
///
/// ## How strict it is about `clockInfo.safe`
///
/// Not at all, as §8.3 says: `qualifiedSigner`, `clockInfo` and `firmwareVersion` "are ignored"
/// (they may feed a risk engine). TPM 2.0 types `safe` as a TPMI_YES_NO (0 or 1), but a correctly
/// signed statement whose `safe` byte holds anything else, such as the W3C test vector's 0x33,
/// verifies. The byte is covered by `sig`, so it cannot be altered without failing the
/// signature check; a relying party that wants to act on it reads
/// `certInfo.clockInfo.safe` (the raw byte) from the parsed statement.
///
/// ## Critical extensions
///
/// The AIK certificate's subjectAltName is critical (its subject is empty). OpenSSL processes
/// subjectAltName itself, so the chain verifier needs no allowance for it; this verifier checks
/// its TPM content (manufacturer, model, version) on top.
@_spi(Fido2Internals) public enum TPMAttestationVerifier: AttestationFormatVerifier {
    /// `tpm`.
    @_spi(Fido2Internals) public static let format = "tpm"

    static let step: VerificationStep = "§8.3"
    static let certificateStep: VerificationStep = "§8.3.1"

    /// Verifies a `tpm` statement; any other statement is an `invalidAttestationStatement`.
    ///
    /// - Throws: as ``verify(tpm:in:)``.
    @_spi(Fido2Internals) public static func verify(
        _ statement: AttestationStatement, in context: AttestationVerificationContext
    ) throws -> AttestationVerificationResult {
        guard case .tpm(let tpm) = statement else {
            throw AttestationFormatVerifiers.deviceWrongStatement(statement, expected: format)
        }
        return try verify(tpm: tpm, in: context)
    }

    /// Verifies a parsed `tpm` statement.
    ///
    /// - Throws: `WebAuthnError` naming the failed check: `invalidAttestationStatement` (`ver`);
    ///   `unsupportedAlgorithm` or `attestationAlgorithmMismatch` (`alg` unknown, without a
    ///   hash, or not fitting the AIK key); `attestationKeyMismatch` (`pubArea` is not the
    ///   credential key, or the attested name is not `pubArea`'s); `invalidTPMStructure`
    ///   (magic, type, an unknown `nameAlg`); `attestationNonceMismatch` (`extraData`);
    ///   `attestationSignatureInvalid` (`sig`); `attestationCertificateInvalid` (§8.3.1);
    ///   `attestationAAGUIDMismatch`; `attestationTrustPathInvalid` or a revocation code (see
    ///   ``AttestationVerificationContext/evaluateTrustPath(_:format:step:)``).
    @_spi(Fido2Internals) public static func verify(
        tpm statement: TPMAttestationStatement, in context: AttestationVerificationContext
    ) throws -> AttestationVerificationResult {
        guard statement.version == "2.0" else {
            throw WebAuthnError(
                .invalidAttestationStatement,
                "ver must be \"2.0\", not \"\(statement.version)\"", field: "attStmt.ver",
                step: step)
        }
        let algorithm = statement.algorithm
        guard algorithm.isSupported else {
            throw WebAuthnError(
                .unsupportedAlgorithm, "\(algorithm) is not supported", field: "attStmt.alg",
                step: step)
        }
        guard let digest = algorithm.digest else {
            throw WebAuthnError(
                .attestationAlgorithmMismatch, "\(algorithm) names no hash for extraData",
                field: "attStmt.alg", step: step)
        }

        var deviations: [ToleratedDeviation] = []
        if statement.pubArea.omitsSchemeDetails {
            let reason = "pubArea's scheme names an algorithm but has no details (TPMU_ASYM_SCHEME)"
            guard context.profile == .compatible else {
                throw WebAuthnError(
                    .invalidTPMStructure,
                    "\(reason) (the compatible profile reads it as deployed relying parties do: VerificationProfile.compatible; command line: without --strict)",
                    field: "attStmt.pubArea.parameters.scheme", step: step)
            }
            deviations.append(
                ToleratedDeviation(
                    kind: .tpmStructure, field: "attStmt.pubArea.parameters.scheme",
                    detail: reason + ", read as deployed relying parties read it"))
        }
        try checkPublicArea(statement.pubArea, matches: context.credentialPublicKey.publicKey)

        let certInfo = statement.certInfo
        guard certInfo.magic == TPMSAttest.generatedValue else {
            throw WebAuthnError(
                .invalidTPMStructure, "magic is not TPM_GENERATED_VALUE",
                field: "attStmt.certInfo.magic", step: step)
        }
        guard certInfo.type == TPMSAttest.attestCertify, let name = certInfo.attestedName else {
            throw WebAuthnError(
                .invalidTPMStructure, "type is not TPM_ST_ATTEST_CERTIFY",
                field: "attStmt.certInfo.type", step: step)
        }
        let expectedExtraData = digest.hash(
            context.authenticatorData.bytes, context.clientDataHash)
        guard ConstantTime.equals(certInfo.extraData, expectedExtraData) else {
            throw WebAuthnError(
                .attestationNonceMismatch,
                "extraData is not the \(digest) of authenticatorData ‖ clientDataHash",
                field: "attStmt.certInfo.extraData", step: step)
        }
        let expectedName = try self.name(of: statement.pubArea)
        guard name.elementsEqual(expectedName) else {
            throw WebAuthnError(
                .attestationKeyMismatch, "the attested name is not the name of pubArea",
                field: "attStmt.certInfo.attested.name", step: step)
        }

        let aik = try AttestationFormatVerifiers.deviceLeaf(
            statement.certificates, field: "attStmt.x5c", step: step, in: context)
        let aikKey = try AttestationFormatVerifiers.devicePublicKey(
            of: aik, field: "attStmt.x5c[0]", step: step)
        try AttestationFormatVerifiers.deviceVerifySignature(
            statement.signature, over: certInfo.bytes, [UInt8](), key: aikKey,
            algorithm: algorithm, field: "attStmt.sig", step: step)
        deviations += try checkAIKCertificate(
            aik, aaguid: context.authenticatorData.attestedCredentialData?.aaguid, in: context)

        let chain = try AttestationFormatVerifiers.deviceChain(
            leaf: aik, statement.certificates, field: "attStmt.x5c", step: step, in: context)
        let trustPath = try context.evaluateTrustPath(chain, format: format, step: step)
        return AttestationVerificationResult(
            format: format, type: .attestationCA, certificates: chain, trustPath: trustPath,
            deviations: deviations)
    }

    /// The TPM name of `pubArea` (TPM 2.0 Part 1 §16): its `nameAlg` identifier, big-endian,
    /// then the `nameAlg` digest of the encoded `pubArea`.
    ///
    /// - Throws: `invalidTPMStructure` for a `nameAlg` other than SHA-1, SHA-256, SHA-384 or
    ///   SHA-512.
    static func name(of pubArea: TPMTPublic) throws(WebAuthnError) -> [UInt8] {
        let digest: DigestAlgorithm
        switch pubArea.nameAlgorithm {
        case .sha1: digest = .sha1
        case .sha256: digest = .sha256
        case .sha384: digest = .sha384
        case .sha512: digest = .sha512
        default:
            throw WebAuthnError(
                .invalidTPMStructure, "nameAlg \(pubArea.nameAlgorithm) is not a known hash",
                field: "attStmt.pubArea.nameAlg", step: step)
        }
        let identifier = pubArea.nameAlgorithm.rawValue
        do {
            return try digest.withHash(of: pubArea.bytes) { (hash) throws(CryptoError) in
                var name = [UInt8]()
                name.reserveCapacity(2 + hash.count)
                name.append(UInt8(identifier >> 8))
                name.append(UInt8(identifier & 0xff))
                name.append(contentsOf: hash)
                return name
            }
        } catch {
            throw WebAuthnError(.signingFailed, "hashing failed: \(error)", step: step)
        }
    }
}
