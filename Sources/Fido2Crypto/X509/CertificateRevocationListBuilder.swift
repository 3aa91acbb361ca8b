/// Builds v2 certificate revocation lists deterministically: the same fields, key and
/// algorithm always give the same bytes (ECDSA signs with RFC 6979 nonces).
///
/// CRL extensions are written in this order: authorityKeyIdentifier, cRLNumber, then
/// ``additionalExtensions`` as given. Nothing checks that the signing key is the issuer's: a
/// CRL signed by another key is how tests make a forged one.
@_spi(Fido2Internals) public struct CertificateRevocationListBuilder: Sendable {
    /// The issuing CA's name (the subject of its certificate).
    public var issuer: DistinguishedName
    /// When the CRL is issued, seconds since the Unix epoch.
    public var thisUpdate: Int64
    /// When the next CRL is due, seconds since the Unix epoch; nil leaves the field out.
    public var nextUpdate: Int64?
    /// The revoked certificates, written in this order.
    public var revokedCertificates: [RevokedCertificate]
    /// The keyIdentifier of authorityKeyIdentifier (the issuer's subjectKeyIdentifier), when it
    /// is to be present.
    public var authorityKeyIdentifier: [UInt8]?
    /// The cRLNumber as a big-endian unsigned integer, when it is to be present.
    public var crlNumber: [UInt8]?
    /// Further CRL extensions, written after the others in the given order.
    public var additionalExtensions: [CertificateExtension] = []

    /// A builder with the mandatory fields and no extensions.
    public init(
        issuer: DistinguishedName, thisUpdate: Int64, nextUpdate: Int64?,
        revokedCertificates: [RevokedCertificate] = []
    ) {
        self.issuer = issuer
        self.thisUpdate = thisUpdate
        self.nextUpdate = nextUpdate
        self.revokedCertificates = revokedCertificates
    }

    /// The CRL extensions in the order they are written.
    ///
    /// - Throws: ``CryptoError/Code-swift.struct/invalidArgument`` for two extensions with the
    ///   same identifier.
    public func extensions() throws -> [CertificateExtension] {
        var list: [CertificateExtension] = []
        if let authorityKeyIdentifier {
            var writer = DERWriter()
            writer.appendSequence { sequence in
                sequence.appendOctetString(
                    authorityKeyIdentifier, tag: .contextSpecific(0, constructed: false))
            }
            list.append(
                CertificateExtension(
                    oid: .authorityKeyIdentifier, isCritical: false, value: writer.bytes))
        }
        if let crlNumber {
            var writer = DERWriter()
            writer.appendInteger(unsignedBigEndian: crlNumber)
            list.append(
                CertificateExtension(oid: .crlNumber, isCritical: false, value: writer.bytes))
        }
        list.append(contentsOf: additionalExtensions)
        var seen: Set<ASN1ObjectIdentifier> = []
        for item in list where !seen.insert(item.oid).inserted {
            throw CryptoError(
                .invalidArgument, "extension \(item.oid) is given twice", field: item.oid.dotted)
        }
        return list
    }

    /// The DER TBSCertList for `algorithm`.
    ///
    /// - Throws: ``CryptoError/Code-swift.struct/invalidArgument`` for a revoked serial number
    ///   that is zero, empty or longer than 20 octets, a nextUpdate before thisUpdate, or bad
    ///   extensions (see ``extensions()``); ``CryptoError/Code-swift.struct/derInvalidValue``
    ///   for times outside the years 0–9999.
    public func tbsCertList(
        algorithm: CertificateSignatureAlgorithm
    ) throws -> [UInt8] {
        if let nextUpdate, nextUpdate < thisUpdate {
            throw CryptoError(
                .invalidArgument, "nextUpdate is before thisUpdate", field: "nextUpdate")
        }
        let extensions = try extensions()
        var writer = DERWriter()
        try writer.appendSequence { (tbs) throws(CryptoError) in
            tbs.appendInteger(1)  // v2
            algorithm.appendAlgorithmIdentifier(to: &tbs)
            tbs.appendTrustedEncoded(issuer.derEncoded)
            try tbs.appendTime(thisUpdate)
            if let nextUpdate { try tbs.appendTime(nextUpdate) }
            if !revokedCertificates.isEmpty {
                try tbs.appendSequence { (list) throws(CryptoError) in
                    for entry in revokedCertificates {
                        try Self.appendEntry(entry, to: &list)
                    }
                }
            }
            if !extensions.isEmpty {
                tbs.appendExplicit(0) { wrapper in
                    X509Signing.appendExtensions(extensions, to: &wrapper)
                }
            }
        }
        return writer.bytes
    }

    /// Builds the CRL and signs it with `key` (normally the issuer's private key) using
    /// `algorithm` (by default the usual one for the key, see
    /// ``CertificateSignatureAlgorithm/default(for:)``). The result is parsed back and its
    /// signature checked with OpenSSL before it is returned.
    ///
    /// - Throws: ``CryptoError/Code-swift.struct/algorithmKeyMismatch`` when `algorithm` does
    ///   not fit `key`; ``CryptoError/Code-swift.struct/unsupportedKeyType`` for an EdDSA key
    ///   without an algorithm; as ``tbsCertList(algorithm:)``; and as
    ///   ``CertificateRevocationList/init(derEncoded:)`` should the result not parse.
    public func sign(
        with key: PrivateKey, algorithm: CertificateSignatureAlgorithm? = nil
    ) throws -> CertificateRevocationList {
        let algorithm = try X509Signing.algorithm(algorithm, for: key)
        let built = try CertificateRevocationList(
            derEncoded: X509Signing.signedStructure(
                tbsCertList(algorithm: algorithm), key: key, algorithm: algorithm))
        guard built.isSignatureValid(issuerKey: try key.publicKey) else {
            throw CryptoError(.openSSLFailure, "OpenSSL does not verify the built CRL")
        }
        return built
    }

    private static func appendEntry(
        _ entry: RevokedCertificate, to list: inout DERWriter
    ) throws(CryptoError) {
        let serial = entry.serialNumber.drop { $0 == 0 }
        guard !serial.isEmpty, serial.count <= 20 else {
            throw CryptoError(
                .invalidArgument, "a revoked serial number must be 1–20 non-zero octets",
                field: "revokedCertificates")
        }
        try list.appendSequence { (item) throws(CryptoError) in
            item.appendInteger(unsignedBigEndian: serial)
            try item.appendTime(entry.revocationDate)
            if !entry.extensions.isEmpty {
                X509Signing.appendExtensions(entry.extensions, to: &item)
            }
        }
    }
}
