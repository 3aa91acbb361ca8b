import Fido2Crypto
@_spi(Fido2Internals) import Fido2WebAuthnWire

/// What the `none`, `packed` and `fido-u2f` verifiers do alike: `x5c` certificates and
/// authenticatorData ‖ clientDataHash signatures.
enum CoreFormatSupport {
    /// The error for a statement handed to the verifier of another format.
    static func wrongStatement(
        _ statement: AttestationStatement, expected: String
    ) -> WebAuthnError {
        WebAuthnError(
            .invalidAttestationStatement,
            "a \(statement.format) statement given to the \(expected) verifier", field: "attStmt")
    }

    /// Every `x5c` certificate, parsed under the context's profile.
    static func parse(
        _ x5c: [ArraySlice<UInt8>], in context: AttestationVerificationContext
    ) throws -> [Certificate] {
        var certificates: [Certificate] = []
        certificates.reserveCapacity(x5c.count)
        for (index, der) in x5c.enumerated() {
            certificates.append(try context.certificate(der, field: "attStmt.x5c[\(index)]"))
        }
        return certificates
    }

    /// The attestation certificate's public key.
    static func publicKey(of certificate: Certificate) throws(WebAuthnError) -> PublicKey {
        do {
            return try certificate.publicKey
        } catch {
            throw WebAuthnError(
                .attestationCertificateInvalid, "the attestation key cannot be used: \(error)",
                field: "attStmt.x5c[0]")
        }
    }

    /// `signature` is `key`'s `algorithm` signature over authenticatorData ‖ clientDataHash.
    static func checkSignature(
        _ signature: ArraySlice<UInt8>, by key: PublicKey, algorithm: COSEAlgorithm,
        in context: AttestationVerificationContext
    ) throws(WebAuthnError) {
        let valid: Bool
        do {
            valid = try key.isValidSignature(
                signature, for: context.authenticatorData.bytes, context.clientDataHash,
                algorithm: algorithm)
        } catch {
            let code: WebAuthnError.Code =
                (error as? CryptoError)?.code == .algorithmKeyMismatch
                ? .attestationAlgorithmMismatch : .attestationSignatureInvalid
            throw WebAuthnError(crypto: error, code, field: "attStmt.alg")
        }
        guard valid else {
            throw WebAuthnError(
                .attestationSignatureInvalid,
                "sig does not verify over authenticatorData ‖ clientDataHash with alg \(algorithm)",
                field: "attStmt.sig")
        }
    }

    /// An AAGUID extension (1.3.6.1.4.1.45724.1.1.4), when present, is non-critical and
    /// carries authData's AAGUID.
    static func checkAAGUID(
        of certificate: Certificate, in context: AttestationVerificationContext
    ) throws(WebAuthnError) {
        guard let extensionEntry = certificate.findExtension(.fidoAAGUID) else { return }
        guard !extensionEntry.isCritical else {
            throw WebAuthnError(
                .attestationCertificateInvalid, "the AAGUID extension is marked critical",
                field: "attStmt.x5c[0]")
        }
        let attested = context.authenticatorData.attestedCredentialData?.aaguid ?? .zero
        guard let aaguid = certificate.fidoAAGUID, aaguid == attested.bytes else {
            throw WebAuthnError(
                .attestationAAGUIDMismatch,
                "the certificate's AAGUID extension (\(ASN1ObjectIdentifier.fidoAAGUID)) is not authData's AAGUID \(attested)",
                field: "attStmt.x5c[0]")
        }
    }
}
