/// Whether, and how far along a path, ``CertificateChainVerifier`` checks revocation, and the
/// certificate revocation lists (CRLs) it checks against. Nothing is fetched: the caller
/// supplies the CRLs (no CRL distribution points, no OCSP).
///
/// With ``leaf(_:)`` or ``chain(_:)``, OpenSSL's CRL support (`X509_V_FLAG_CRL_CHECK`, with
/// `X509_V_FLAG_CRL_CHECK_ALL` for ``chain(_:)``) judges each certificate in scope against
/// the CRLs whose issuer name is that certificate's issuer name. The CRL in use must verify
/// with the issuer's key found in the path (the issuer needs keyUsage cRLSign when it has
/// keyUsage) and be current at the validation time: thisUpdate not after it, nextUpdate (when
/// stated) not before it. Then:
///
/// - a certificate listed in that CRL fails with
///   ``CryptoError/Code-swift.struct/certificateRevoked``;
/// - a certificate in scope with no usable CRL (none from its issuer among the lists, or the
///   only one expired, not yet valid, wrongly signed, or otherwise refused by OpenSSL) fails
///   with ``CryptoError/Code-swift.struct/revocationStatusUnknown``: revocation checking fails
///   closed, and a CA that has revoked nothing must still supply its (empty) CRL.
///
/// Both set ``CryptoError/depth`` to the certificate concerned (0 is the leaf). The trust
/// anchor that ends the path is never in scope (as in RFC 5280 §6.1, where the anchor is an
/// input to path validation, not part of the path): its status is neither required nor
/// checked, even by a CRL that lists it; to distrust an anchor, remove it. Supply one current
/// CRL per issuer: OpenSSL picks one CRL per certificate by
/// issuer name, validity and scope, not by signature, so a wrongly signed CRL next to a good
/// one from the same issuer may be the one picked. Delta CRLs and indirect CRLs are not used.
public enum RevocationCheck: Sendable, Hashable {
    /// No revocation checking (the default).
    case none
    /// Checks the leaf (the first certificate of the path) only, against the CRL of its issuer.
    case leaf([CertificateRevocationList])
    /// Checks every certificate of the path but the trust anchor that ends it, each against
    /// the CRL of its issuer.
    case chain([CertificateRevocationList])

    /// The CRLs supplied (empty for ``none``).
    public var revocationLists: [CertificateRevocationList] {
        switch self {
        case .none: []
        case .leaf(let lists), .chain(let lists): lists
        }
    }
}
