import Fido2Crypto
import Fido2Encoding
@_spi(Fido2Internals) import Fido2WebAuthnWire

/// Verifies `android-safetynet` attestation statements (WebAuthn Level 3 §8.5, and the
/// SafetyNet documentation's response checks): attestation type ``AttestationType/basic``,
/// trust path the JWS header's `x5c`.
///
/// In order, each failure its own error: `ver` is not empty; the JWS `alg` is one this library
/// implements (`RS256` and `ES256` in practice; `none` and MAC algorithms are refused); the JWS
/// signature verifies with the first `x5c` certificate's key (ES256 signatures are raw
/// `r ‖ s`); that certificate was issued to `attest.android.com` (a subjectAltName dNSName, or
/// the subject commonName when the certificate has no dNSName); the payload's `nonce` is the
/// standard base64 of SHA-256(authenticatorData ‖ clientDataHash); `ctsProfileMatch` is true
/// (or, under ``AndroidSafetyNetAttestationOptions/acceptsCTSProfileMismatch``,
/// `basicIntegrity` is); `timestampMs` lies within
/// ``AndroidSafetyNetAttestationOptions/timestampToleranceMilliseconds`` of the validation
/// time; then the chain is judged against the `android-safetynet` anchors (the GlobalSign
/// roots, see ``WellKnownAttestationRoots``).
///
/// Revocation is checked, as for every format, only against the CRLs the relying party puts in
/// ``AttestationTrustPolicy/revocation`` (nothing is fetched; no OCSP).
@_spi(Fido2Internals) public enum AndroidSafetyNetAttestationVerifier: AttestationFormatVerifier {
    /// `android-safetynet`.
    @_spi(Fido2Internals) public static let format = "android-safetynet"
    /// The host name SafetyNet's signing certificate is issued to.
    @_spi(Fido2Internals) public static let signingHostName = "attest.android.com"

    static let step: VerificationStep = "§8.5"

    /// Verifies an `android-safetynet` statement; any other statement is an
    /// `invalidAttestationStatement`.
    ///
    /// - Throws: as ``verify(safetyNet:in:)``.
    @_spi(Fido2Internals) public static func verify(
        _ statement: AttestationStatement, in context: AttestationVerificationContext
    ) throws -> AttestationVerificationResult {
        guard case .androidSafetyNet(let safetyNet) = statement else {
            throw AttestationFormatVerifiers.deviceWrongStatement(statement, expected: format)
        }
        return try verify(safetyNet: safetyNet, in: context)
    }

    /// Verifies a parsed `android-safetynet` statement, with the options of
    /// `context.policy.androidSafetyNet`.
    ///
    /// - Throws: `WebAuthnError` naming the failed check: `invalidAttestationStatement`
    ///   (empty `ver`); `invalidJWS` (no `x5c`, or a payload member missing or mistyped);
    ///   `unsupportedAlgorithm` or `attestationAlgorithmMismatch` (the JWS `alg`);
    ///   `attestationSignatureInvalid`; `attestationCertificateInvalid` (a certificate that
    ///   does not parse, the host name); `attestationNonceMismatch`;
    ///   `attestationIntegrityVerdictFailed`; `attestationTimestampOutOfRange`;
    ///   `attestationTrustPathInvalid` or a revocation code (see
    ///   ``AttestationVerificationContext/evaluateTrustPath(_:format:step:)``).
    @_spi(Fido2Internals) public static func verify(
        safetyNet statement: AndroidSafetyNetAttestationStatement,
        in context: AttestationVerificationContext
    ) throws -> AttestationVerificationResult {
        let options = context.policy.androidSafetyNet
        guard !statement.version.isEmpty else {
            throw WebAuthnError(
                .invalidAttestationStatement, "ver is empty", field: "attStmt.ver", step: step)
        }
        let jws = statement.jws
        guard let algorithm = COSEAlgorithm(joseName: jws.algorithm) else {
            throw WebAuthnError(
                .unsupportedAlgorithm, "JWS algorithm \"\(jws.algorithm)\" is not supported",
                field: "attStmt.response.header.alg", step: step)
        }
        guard !jws.certificates.isEmpty else {
            throw WebAuthnError(
                .invalidJWS, "the JWS header has no x5c certificate chain",
                field: "attStmt.response.header.x5c", step: step)
        }
        let leaf = try AttestationFormatVerifiers.deviceLeaf(
            jws.certificates, field: "attStmt.response.header.x5c", step: step, in: context)
        let leafKey = try AttestationFormatVerifiers.devicePublicKey(
            of: leaf, field: "attStmt.response.header.x5c[0]", step: step)
        try checkSignature(jws, algorithm: algorithm, key: leafKey)
        try checkHostName(leaf)

        let expectedNonce = Base64.encode(
            DigestAlgorithm.sha256.hash(context.authenticatorData.bytes, context.clientDataHash))
        guard let nonce = statement.nonce else {
            throw WebAuthnError(
                .invalidJWS, "nonce is missing or not a string",
                field: "attStmt.response.payload.nonce", step: step)
        }
        guard nonce.utf8.elementsEqual(expectedNonce.utf8) else {
            throw WebAuthnError(
                .attestationNonceMismatch,
                "nonce is not base64(SHA-256(authenticatorData ‖ clientDataHash))",
                field: "attStmt.response.payload.nonce", step: step)
        }
        var deviations = try checkIntegrityVerdict(statement, options: options)
        deviations += try checkTimestamp(statement, options: options, policy: context.policy)

        let chain = try AttestationFormatVerifiers.deviceChain(
            leaf: leaf, jws.certificates, field: "attStmt.response.header.x5c", step: step,
            in: context)
        let trustPath = try context.evaluateTrustPath(chain, format: format, step: step)
        return AttestationVerificationResult(
            format: format, type: .basic, certificates: chain, trustPath: trustPath,
            deviations: deviations)
    }

    /// The JWS signature over `header.payload` (RFC 7515 §5.2); ECDSA signatures arrive as raw
    /// `r ‖ s` (RFC 7518 §3.4) and are re-encoded as DER for OpenSSL.
    static func checkSignature(
        _ jws: CompactJWS, algorithm: COSEAlgorithm, key: PublicKey
    ) throws(WebAuthnError) {
        var signature = jws.signature
        if algorithm.keyType == .ec2 {
            do {
                signature = try ECDSASignature(rawRepresentation: jws.signature, kind: key.kind)
                    .derRepresentation
            } catch {
                guard key.kind.isECDSA else {
                    throw WebAuthnError(
                        .attestationAlgorithmMismatch,
                        "\(algorithm) cannot be used with a \(key.kind) key",
                        field: "attStmt.response.signature", step: step)
                }
                throw WebAuthnError(
                    .attestationSignatureInvalid, "the JWS signature is not a raw r ‖ s: \(error)",
                    field: "attStmt.response.signature", step: step)
            }
        }
        try AttestationFormatVerifiers.deviceVerifySignature(
            signature, over: jws.signingInput, [UInt8](), key: key, algorithm: algorithm,
            field: "attStmt.response.signature", step: step)
    }

    /// The leaf was issued to ``signingHostName``: one of its subjectAltName dNSNames when it
    /// has any (RFC 6125 §6.4.4), otherwise its subject commonName. ASCII case is ignored.
    static func checkHostName(_ leaf: Certificate) throws(WebAuthnError) {
        func matches(_ name: String) -> Bool {
            name.utf8.count == signingHostName.utf8.count
                && zip(name.utf8, signingHostName.utf8).allSatisfy { lower($0) == $1 }
        }
        var dnsNames: [String] = []
        for case .dnsName(let name) in leaf.subjectAlternativeNames ?? [] { dnsNames.append(name) }
        let issuedToHost =
            dnsNames.isEmpty
            ? leaf.subject.commonName.map(matches) ?? false : dnsNames.contains(where: matches)
        guard issuedToHost else {
            throw WebAuthnError(
                .attestationCertificateInvalid,
                "the signing certificate is not issued to \(signingHostName)",
                field: "attStmt.response.header.x5c[0]", step: step)
        }
    }

    private static func lower(_ byte: UInt8) -> UInt8 {
        (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte) ? byte | 0x20 : byte
    }

    /// `ctsProfileMatch` true, or `basicIntegrity` true when the policy accepts a CTS profile
    /// mismatch (then returned as a deviation).
    static func checkIntegrityVerdict(
        _ statement: AndroidSafetyNetAttestationStatement,
        options: AndroidSafetyNetAttestationOptions
    ) throws(WebAuthnError) -> [ToleratedDeviation] {
        let field = "attStmt.response.payload.ctsProfileMatch"
        guard let ctsProfileMatch = statement.ctsProfileMatch else {
            throw WebAuthnError(
                .invalidJWS, "ctsProfileMatch is missing or not a boolean", field: field,
                step: step)
        }
        if ctsProfileMatch { return [] }
        let relaxation = VerificationRelaxations.acceptsSafetyNetCTSProfileMismatch
        guard options.acceptsCTSProfileMismatch else {
            let hint =
                statement.basicIntegrity == true ? VerificationRelaxations.hint(relaxation) : ""
            throw WebAuthnError(
                .attestationIntegrityVerdictFailed, "ctsProfileMatch is false\(hint)",
                field: field, step: step)
        }
        guard statement.basicIntegrity == true else {
            throw WebAuthnError(
                .attestationIntegrityVerdictFailed,
                "ctsProfileMatch is false and basicIntegrity is not true",
                field: "attStmt.response.payload.basicIntegrity", step: step)
        }
        return [
            ToleratedDeviation(
                kind: .relaxedCheck, field: field,
                detail: "ctsProfileMatch is false (basicIntegrity is true)", relaxation: relaxation)
        ]
    }

    /// `timestampMs` within the tolerance of the validation time, unless the check is skipped;
    /// a skipped check the timestamp would have failed is returned as a deviation.
    static func checkTimestamp(
        _ statement: AndroidSafetyNetAttestationStatement,
        options: AndroidSafetyNetAttestationOptions, policy: AttestationTrustPolicy
    ) throws(WebAuthnError) -> [ToleratedDeviation] {
        let field = "attStmt.response.payload.timestampMs"
        let relaxation = VerificationRelaxations.skipsSafetyNetTimestampCheck
        guard let timestamp = statement.timestampMs else {
            guard !options.skipsTimestampCheck else { return [] }
            throw WebAuthnError(
                .invalidJWS, "timestampMs is missing or not an integer", field: field, step: step)
        }
        let now = AttestationFormatVerifiers.deviceValidationTimeMilliseconds(policy)
        let (difference, overflow) = now.subtractingReportingOverflow(timestamp)
        let tolerance = max(0, options.timestampToleranceMilliseconds)
        guard !overflow, difference.magnitude <= tolerance.magnitude else {
            let reason =
                "timestampMs \(timestamp) is more than \(tolerance) ms from the validation time \(now)"
            guard options.skipsTimestampCheck else {
                throw WebAuthnError(
                    .attestationTimestampOutOfRange,
                    reason + VerificationRelaxations.hint(relaxation), field: field, step: step)
            }
            return [
                ToleratedDeviation(
                    kind: .relaxedCheck, field: field, detail: reason, relaxation: relaxation)
            ]
        }
        return []
    }
}
