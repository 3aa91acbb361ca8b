/// A signature algorithm for building certificates: ECDSA with SHA-256, SHA-384 or SHA-512
/// (P-256, P-384 and P-521 keys respectively) or RSASSA-PKCS1-v1_5 with SHA-256.
///
/// All of them sign deterministically here (ECDSA with RFC 6979 nonces), so a certificate
/// built twice from the same inputs has the same bytes.
public struct CertificateSignatureAlgorithm: Hashable, Sendable, CustomStringConvertible {
    /// The AlgorithmIdentifier's OID.
    public let objectIdentifier: ASN1ObjectIdentifier
    /// The COSE algorithm that produces the signature (and names the key it needs).
    public let coseAlgorithm: COSEAlgorithm

    private init(_ oid: ASN1ObjectIdentifier, _ algorithm: COSEAlgorithm) {
        objectIdentifier = oid
        coseAlgorithm = algorithm
    }

    /// ecdsa-with-SHA256 with a P-256 key.
    public static let ecdsaWithSHA256 = CertificateSignatureAlgorithm(.ecdsaWithSHA256, .es256)
    /// ecdsa-with-SHA384 with a P-384 key.
    public static let ecdsaWithSHA384 = CertificateSignatureAlgorithm(.ecdsaWithSHA384, .es384)
    /// ecdsa-with-SHA512 with a P-521 key.
    public static let ecdsaWithSHA512 = CertificateSignatureAlgorithm(.ecdsaWithSHA512, .es512)
    /// sha256WithRSAEncryption (PKCS#1 v1.5) with an RSA key.
    public static let sha256WithRSAEncryption = CertificateSignatureAlgorithm(
        .sha256WithRSAEncryption, .rs256)

    /// The usual algorithm for a signing key: ECDSA with the curve's matching hash, SHA-256
    /// with RSA.
    ///
    /// - Throws: ``CryptoError/Code-swift.struct/unsupportedKeyType`` for EdDSA keys.
    public static func `default`(
        for kind: KeyKind
    ) throws
        -> CertificateSignatureAlgorithm
    {
        switch kind {
        case .p256, .secp256k1: return .ecdsaWithSHA256
        case .p384: return .ecdsaWithSHA384
        case .p521: return .ecdsaWithSHA512
        default:
            guard kind.isRSA else {
                throw CryptoError(
                    .unsupportedKeyType, "no certificate signature algorithm for \(kind)")
            }
            return .sha256WithRSAEncryption
        }
    }

    /// Appends the AlgorithmIdentifier: parameters absent for ECDSA (RFC 5758), NULL for RSA
    /// (RFC 4055).
    func appendAlgorithmIdentifier(to writer: inout DERWriter) {
        writer.appendSequence { algorithm in
            algorithm.appendObjectIdentifier(objectIdentifier)
            if coseAlgorithm == .rs256 { algorithm.appendNull() }
        }
    }

    /// The OID's dotted form.
    public var description: String { objectIdentifier.dotted }
}
