/// What building a certificate and building a CRL share: the `Extensions` sequence and the
/// signed envelope (`SEQUENCE { tbs, signatureAlgorithm, signatureValue }`, RFC 5280 §4.1 and
/// §5.1), signed with deterministic nonces so a rebuild gives the same bytes.
enum X509Signing {
    /// `algorithm`, or the usual algorithm for `key` when nil.
    ///
    /// - Throws: ``CryptoError/Code-swift.struct/unsupportedKeyType`` for an EdDSA key without
    ///   an algorithm (see ``CertificateSignatureAlgorithm/default(for:)``).
    static func algorithm(
        _ algorithm: CertificateSignatureAlgorithm?, for key: PrivateKey
    ) throws -> CertificateSignatureAlgorithm {
        if let algorithm { return algorithm }
        return try CertificateSignatureAlgorithm.default(for: key.kind)
    }

    /// The DER of `tbs` signed by `key` with `algorithm`.
    ///
    /// - Throws: ``CryptoError/Code-swift.struct/algorithmKeyMismatch`` when `algorithm` does
    ///   not fit `key`; as ``PrivateKey/signature(for:algorithm:nonce:)``.
    static func signedStructure(
        _ tbs: [UInt8], key: PrivateKey, algorithm: CertificateSignatureAlgorithm
    ) throws -> [UInt8] {
        let signature = try key.signature(
            for: tbs, algorithm: algorithm.coseAlgorithm, nonce: .deterministic)
        var writer = DERWriter()
        writer.appendSequence { structure in
            structure.appendTrustedEncoded(tbs)
            algorithm.appendAlgorithmIdentifier(to: &structure)
            structure.appendElement(.bitString, contents: [0] + signature)
        }
        return writer.bytes
    }

    /// Appends `Extensions ::= SEQUENCE OF Extension` (criticality written only when true, as
    /// DER requires for a DEFAULT FALSE field).
    static func appendExtensions(_ extensions: [CertificateExtension], to writer: inout DERWriter) {
        writer.appendSequence { list in
            for item in extensions {
                list.appendSequence { entry in
                    entry.appendObjectIdentifier(item.oid)
                    if item.isCritical { entry.appendBoolean(true) }
                    entry.appendOctetString(item.value)
                }
            }
        }
    }
}
