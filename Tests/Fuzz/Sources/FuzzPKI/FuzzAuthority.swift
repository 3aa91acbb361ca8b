@_spi(Fido2Internals) import Fido2Crypto

/// The certificate authority of the X.509 and CRL fuzz targets, made at start-up with the
/// public `CertificateBuilder` and `CertificateRevocationListBuilder` (the root package's test
/// PKI lives in a target that is not a product): a self-signed root, the end-entity
/// certificates it signs and the revocation lists it issues, all valid over the root's
/// validity.
public struct FuzzAuthority: Sendable {
    /// The CA's signing key.
    public let key: PrivateKey
    /// The CA's self-signed certificate: CA:TRUE, keyCertSign and cRLSign.
    public let certificate: Certificate

    /// A new P-256 root called `name`, valid from `notBefore` to `notAfter`.
    public init(
        name: DistinguishedName, serial: [UInt8], notBefore: Int64, notAfter: Int64
    )
        throws
    {
        key = try PrivateKey(generating: .p256)
        var root = CertificateBuilder(
            serialNumber: serial, issuer: name, subject: name, notBefore: notBefore,
            notAfter: notAfter, subjectPublicKey: try key.publicKey)
        root.basicConstraints = BasicConstraints(isCertificateAuthority: true)
        root.keyUsage = [.keyCertSign, .cRLSign]
        certificate = try root.sign(with: key)
    }

    /// An end-entity certificate (CA:FALSE, digitalSignature) for `subjectKey`.
    public func issue(
        to subject: DistinguishedName, key subjectKey: PublicKey, serial: [UInt8]
    )
        throws -> Certificate
    {
        var leaf = CertificateBuilder(
            serialNumber: serial, issuer: certificate.subject, subject: subject,
            notBefore: certificate.notBefore, notAfter: certificate.notAfter,
            subjectPublicKey: subjectKey)
        leaf.basicConstraints = BasicConstraints(isCertificateAuthority: false)
        leaf.keyUsage = .digitalSignature
        return try leaf.sign(with: key)
    }

    /// A CRL revoking `serials` as of `thisUpdate`.
    public func revocationList(
        revoking serials: [[UInt8]], thisUpdate: Int64, nextUpdate: Int64?
    )
        throws -> CertificateRevocationList
    {
        var list = CertificateRevocationListBuilder(
            issuer: certificate.subject, thisUpdate: thisUpdate, nextUpdate: nextUpdate,
            revokedCertificates: serials.map {
                RevokedCertificate(serialNumber: $0, revocationDate: thisUpdate)
            })
        list.crlNumber = [1]
        return try list.sign(with: key)
    }
}
