@_spi(Fido2Internals) import Fido2Crypto

/// A certificate authority for tests and generated vectors: a private key and its CA
/// certificate, issuing certificates and CRLs deterministically (see ``CertificateBuilder``
/// and ``CertificateRevocationListBuilder``).
///
/// Every certificate it makes carries subjectKeyIdentifier and, below the root,
/// authorityKeyIdentifier; every CRL carries authorityKeyIdentifier and a cRLNumber. Validity
/// periods, update times and serial numbers are always the caller's, never the clock's or a
/// random source's, so output is reproducible.
package struct TestCertificateAuthority: Sendable {
    /// The CA's signing key.
    package let privateKey: PrivateKey
    /// The CA's certificate.
    package let certificate: Certificate

    /// A self-signed root CA: basicConstraints CA:TRUE (critical, with `pathLengthConstraint`
    /// when given), keyUsage keyCertSign and cRLSign (critical), subjectKeyIdentifier.
    ///
    /// - Throws: as ``CertificateBuilder/sign(with:algorithm:)``.
    package init(
        privateKey: PrivateKey, subject: DistinguishedName, serialNumber: [UInt8],
        notBefore: Int64, notAfter: Int64, pathLengthConstraint: Int? = nil
    ) throws {
        let publicKey = try privateKey.publicKey
        var builder = CertificateBuilder(
            serialNumber: serialNumber, issuer: subject, subject: subject, notBefore: notBefore,
            notAfter: notAfter, subjectPublicKey: publicKey)
        builder.basicConstraints = BasicConstraints(
            isCertificateAuthority: true, pathLengthConstraint: pathLengthConstraint)
        builder.keyUsage = [.keyCertSign, .cRLSign]
        builder.subjectKeyIdentifier = try CertificateBuilder.keyIdentifier(of: publicKey)
        self.privateKey = privateKey
        self.certificate = try builder.sign(with: privateKey)
    }

    /// An existing CA from its key and certificate.
    ///
    /// - Throws: ``CryptoError/Code-swift.struct/invalidArgument`` when the certificate is not
    ///   a CA's or does not certify `privateKey`'s public key.
    package init(privateKey: PrivateKey, certificate: Certificate) throws {
        guard certificate.isCertificateAuthority else {
            throw CryptoError(.invalidArgument, "certificate is not a CA certificate")
        }
        guard try privateKey.publicKey.spkiDER == certificate.subjectPublicKeyInfoDER else {
            throw CryptoError(.invalidArgument, "certificate does not certify the private key")
        }
        self.privateKey = privateKey
        self.certificate = certificate
    }

    /// A builder for a certificate this CA issues: issuer, authorityKeyIdentifier and the
    /// subject's subjectKeyIdentifier filled in.
    ///
    /// - Throws: ``CryptoError/Code-swift.struct/openSSLFailure`` if a key cannot be encoded.
    package func builder(
        subject: DistinguishedName, subjectKey: PublicKey, serialNumber: [UInt8],
        notBefore: Int64, notAfter: Int64
    ) throws -> CertificateBuilder {
        var builder = CertificateBuilder(
            serialNumber: serialNumber, issuer: certificate.subject, subject: subject,
            notBefore: notBefore, notAfter: notAfter, subjectPublicKey: subjectKey)
        builder.subjectKeyIdentifier = try CertificateBuilder.keyIdentifier(of: subjectKey)
        if let identifier = certificate.subjectKeyIdentifier {
            builder.authorityKeyIdentifier = identifier
        } else {
            builder.authorityKeyIdentifier = try CertificateBuilder.keyIdentifier(
                of: certificate.publicKey)
        }
        return builder
    }

    /// Issues an intermediate CA certificate for `privateKey` and returns the new CA.
    ///
    /// - Throws: as ``CertificateBuilder/sign(with:algorithm:)``.
    package func issueIntermediateAuthority(
        privateKey: PrivateKey, subject: DistinguishedName, serialNumber: [UInt8],
        notBefore: Int64, notAfter: Int64, pathLengthConstraint: Int? = nil
    ) throws -> TestCertificateAuthority {
        var builder = try builder(
            subject: subject, subjectKey: privateKey.publicKey, serialNumber: serialNumber,
            notBefore: notBefore, notAfter: notAfter)
        builder.basicConstraints = BasicConstraints(
            isCertificateAuthority: true, pathLengthConstraint: pathLengthConstraint)
        builder.keyUsage = [.keyCertSign, .cRLSign]
        return try TestCertificateAuthority(
            privateKey: privateKey, certificate: builder.sign(with: self.privateKey))
    }

    /// Issues a packed attestation certificate meeting WebAuthn §8.2.1: version 3; subject
    /// C (`country`, an ISO 3166 alpha-2 code, as PrintableString), O, OU "Authenticator
    /// Attestation" and CN; basicConstraints CA:FALSE (critical); keyUsage digitalSignature
    /// (critical); and, when `aaguid` is given, the FIDO AAGUID extension (non-critical).
    ///
    /// - Throws: ``CryptoError/Code-swift.struct/invalidArgument`` when `country` is not two
    ///   upper-case letters or `aaguid` is not 16 bytes; as
    ///   ``CertificateBuilder/sign(with:algorithm:)``.
    package func issuePackedAttestationCertificate(
        subjectKey: PublicKey, country: String, organization: String, commonName: String,
        aaguid: [UInt8]?, serialNumber: [UInt8], notBefore: Int64, notAfter: Int64
    ) throws -> Certificate {
        let letters = Array(country.utf8)
        guard letters.count == 2,
            letters.allSatisfy({ $0 >= UInt8(ascii: "A") && $0 <= UInt8(ascii: "Z") })
        else {
            throw CryptoError(
                .invalidArgument, "country must be an ISO 3166 alpha-2 code", field: "country")
        }
        let subject = try DistinguishedName([
            .country(country), .organization(organization),
            .organizationalUnit("Authenticator Attestation"), .commonName(commonName),
        ])
        var builder = try builder(
            subject: subject, subjectKey: subjectKey, serialNumber: serialNumber,
            notBefore: notBefore, notAfter: notAfter)
        builder.basicConstraints = BasicConstraints(isCertificateAuthority: false)
        builder.keyUsage = .digitalSignature
        builder.aaguid = aaguid
        return try builder.sign(with: privateKey)
    }

    // MARK: Revocation lists

    /// A builder for a CRL this CA issues, revoking the certificates with `serialNumbers`
    /// (big-endian; ``Certificate/serialNumber`` values as they are) as of `thisUpdate`:
    /// issuer, authorityKeyIdentifier and cRLNumber 1 filled in. Sign it with ``privateKey``,
    /// or with another key to make a CRL whose signature does not verify.
    ///
    /// - Throws: ``CryptoError/Code-swift.struct/openSSLFailure`` if the CA's key cannot be
    ///   encoded.
    package func revocationListBuilder(
        thisUpdate: Int64, nextUpdate: Int64?, revoking serialNumbers: [[UInt8]] = []
    ) throws -> CertificateRevocationListBuilder {
        var builder = CertificateRevocationListBuilder(
            issuer: certificate.subject, thisUpdate: thisUpdate, nextUpdate: nextUpdate,
            revokedCertificates: serialNumbers.map {
                RevokedCertificate(serialNumber: $0, revocationDate: thisUpdate)
            })
        if let identifier = certificate.subjectKeyIdentifier {
            builder.authorityKeyIdentifier = identifier
        } else {
            builder.authorityKeyIdentifier = try CertificateBuilder.keyIdentifier(
                of: certificate.publicKey)
        }
        builder.crlNumber = [1]
        return builder
    }

    /// A CRL signed by this CA revoking the certificates with `serialNumbers`, issued at
    /// `thisUpdate` and due for renewal at `nextUpdate`. An empty list makes a CRL that
    /// revokes nothing, which is what a verifier needs to know that a certificate is good.
    ///
    /// - Throws: as ``revocationListBuilder(thisUpdate:nextUpdate:revoking:)`` and
    ///   ``CertificateRevocationListBuilder/sign(with:algorithm:)``.
    package func issueRevocationList(
        revoking serialNumbers: [[UInt8]], thisUpdate: Int64, nextUpdate: Int64?
    ) throws -> CertificateRevocationList {
        try revocationListBuilder(
            thisUpdate: thisUpdate, nextUpdate: nextUpdate, revoking: serialNumbers
        ).sign(with: privateKey)
    }
}
