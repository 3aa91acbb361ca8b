/// Builds X.509 v3 certificates deterministically: the same fields, keys and algorithm always
/// give the same bytes (ECDSA signs with RFC 6979 nonces; PKCS#1 v1.5 is deterministic).
///
/// For test CAs and attestation certificates, such as the ones `fido2kit vectors generate`
/// writes. Extensions are written in this order: basicConstraints, keyUsage,
/// subjectKeyIdentifier, authorityKeyIdentifier, the FIDO AAGUID extension, then
/// ``additionalExtensions`` as given.
@_spi(Fido2Internals) public struct CertificateBuilder: Sendable {
    /// The serial number as a big-endian unsigned integer (1–20 octets once leading zeros are
    /// dropped; not zero).
    public var serialNumber: [UInt8]
    /// The issuer's name (the subject of the signing CA).
    public var issuer: DistinguishedName
    /// The subject's name (may be empty).
    public var subject: DistinguishedName
    /// The start of the validity period, seconds since the Unix epoch.
    public var notBefore: Int64
    /// The end of the validity period, seconds since the Unix epoch.
    public var notAfter: Int64
    /// The key being certified.
    public var subjectPublicKey: PublicKey
    /// basicConstraints, when it is to be present.
    public var basicConstraints: BasicConstraints?
    /// Whether basicConstraints is marked critical (RFC 5280 requires it for CAs).
    public var basicConstraintsIsCritical = true
    /// keyUsage, when it is to be present (always marked critical).
    public var keyUsage: KeyUsage?
    /// subjectKeyIdentifier, when it is to be present (see
    /// ``keyIdentifier(of:)``).
    public var subjectKeyIdentifier: [UInt8]?
    /// The keyIdentifier of authorityKeyIdentifier, when it is to be present (the issuer's
    /// subjectKeyIdentifier).
    public var authorityKeyIdentifier: [UInt8]?
    /// The 16-byte AAGUID for the FIDO extension 1.3.6.1.4.1.45724.1.1.4 (non-critical), when
    /// it is to be present.
    public var aaguid: [UInt8]?
    /// Further extensions, written after the others in the given order.
    public var additionalExtensions: [CertificateExtension] = []

    /// A builder with the mandatory fields and no extensions.
    public init(
        serialNumber: [UInt8], issuer: DistinguishedName, subject: DistinguishedName,
        notBefore: Int64, notAfter: Int64, subjectPublicKey: PublicKey
    ) {
        self.serialNumber = serialNumber
        self.issuer = issuer
        self.subject = subject
        self.notBefore = notBefore
        self.notAfter = notAfter
        self.subjectPublicKey = subjectPublicKey
    }

    /// The RFC 5280 §4.2.1.2 method 1 key identifier: SHA-1 of the subjectPublicKey BIT
    /// STRING's octets (what OpenSSL writes for `subjectKeyIdentifier=hash`).
    ///
    /// - Throws: ``CryptoError/Code-swift.struct/openSSLFailure`` if the key cannot be encoded.
    public static func keyIdentifier(of key: PublicKey) throws -> [UInt8] {
        let spki = try key.spkiDER
        var reader = try DERReader(spki)
        let bits = try reader.readSequence { (sequence) throws(CryptoError) in
            _ = try sequence.readElement(.sequence)
            return try sequence.readBitString()
        }
        return DigestAlgorithm.sha1.hash(bits.bytes)
    }

    /// The extensions in the order they are written.
    ///
    /// - Throws: ``CryptoError/Code-swift.struct/invalidArgument`` for an AAGUID that is not
    ///   16 bytes or two extensions with the same identifier.
    public func extensions() throws -> [CertificateExtension] {
        var list: [CertificateExtension] = []
        if let basicConstraints {
            list.append(
                CertificateExtension(
                    oid: .basicConstraints, isCritical: basicConstraintsIsCritical,
                    value: basicConstraints.derEncoded))
        }
        if let keyUsage {
            list.append(
                CertificateExtension(oid: .keyUsage, isCritical: true, value: keyUsage.derEncoded))
        }
        if let subjectKeyIdentifier {
            var writer = DERWriter()
            writer.appendOctetString(subjectKeyIdentifier)
            list.append(
                CertificateExtension(
                    oid: .subjectKeyIdentifier, isCritical: false, value: writer.bytes))
        }
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
        if let aaguid {
            guard aaguid.count == 16 else {
                throw CryptoError(
                    .invalidArgument, "AAGUID must be 16 bytes, not \(aaguid.count)",
                    field: "aaguid")
            }
            var writer = DERWriter()
            writer.appendOctetString(aaguid)
            list.append(
                CertificateExtension(oid: .fidoAAGUID, isCritical: false, value: writer.bytes))
        }
        list.append(contentsOf: additionalExtensions)
        var seen: Set<ASN1ObjectIdentifier> = []
        for item in list where !seen.insert(item.oid).inserted {
            throw CryptoError(
                .invalidArgument, "extension \(item.oid) is given twice", field: item.oid.dotted)
        }
        return list
    }

    /// The DER TBSCertificate for `algorithm`.
    ///
    /// - Throws: ``CryptoError/Code-swift.struct/invalidArgument`` for a zero, empty or
    ///   over-long serial number, a validity period that ends before it starts, or bad
    ///   extensions (see ``extensions()``); ``CryptoError/Code-swift.struct/derInvalidValue``
    ///   for times outside the years 0–9999.
    public func tbsCertificate(
        algorithm: CertificateSignatureAlgorithm
    ) throws -> [UInt8] {
        let serial = serialNumber.drop { $0 == 0 }
        guard !serial.isEmpty, serial.count <= 20 else {
            throw CryptoError(
                .invalidArgument, "serial number must be 1–20 octets and not zero",
                field: "serialNumber")
        }
        guard notBefore <= notAfter else {
            throw CryptoError(
                .invalidArgument, "validity ends before it starts", field: "notAfter")
        }
        let spki = try subjectPublicKey.spkiDER
        let extensions = try extensions()
        var writer = DERWriter()
        try writer.appendSequence { (tbs) throws(CryptoError) in
            tbs.appendExplicit(0) { version in version.appendInteger(2) }
            tbs.appendInteger(unsignedBigEndian: serial)
            algorithm.appendAlgorithmIdentifier(to: &tbs)
            tbs.appendTrustedEncoded(issuer.derEncoded)
            try tbs.appendSequence { (validity) throws(CryptoError) in
                try validity.appendTime(notBefore)
                try validity.appendTime(notAfter)
            }
            tbs.appendTrustedEncoded(subject.derEncoded)
            tbs.appendTrustedEncoded(spki)
            if !extensions.isEmpty {
                tbs.appendExplicit(3) { wrapper in
                    X509Signing.appendExtensions(extensions, to: &wrapper)
                }
            }
        }
        return writer.bytes
    }

    /// Builds the certificate and signs it with `issuerKey` (the issuer's private key, or the
    /// subject's own for a self-signed certificate) using `algorithm` (by default the usual
    /// one for the key, see ``CertificateSignatureAlgorithm/default(for:)``). The result is
    /// parsed back and its signature checked with OpenSSL before it is returned.
    ///
    /// - Throws: ``CryptoError/Code-swift.struct/algorithmKeyMismatch`` when `algorithm` does
    ///   not fit `issuerKey`; ``CryptoError/Code-swift.struct/unsupportedKeyType`` for an
    ///   EdDSA issuer key without an algorithm; as ``tbsCertificate(algorithm:)``; and as
    ///   ``Certificate/init(derEncoded:)`` should the result not parse.
    public func sign(
        with issuerKey: PrivateKey, algorithm: CertificateSignatureAlgorithm? = nil
    ) throws -> Certificate {
        let algorithm = try X509Signing.algorithm(algorithm, for: issuerKey)
        let built = try Certificate(
            derEncoded: X509Signing.signedStructure(
                tbsCertificate(algorithm: algorithm), key: issuerKey, algorithm: algorithm))
        guard built.isSignatureValid(issuerKey: try issuerKey.publicKey) else {
            throw CryptoError(.openSSLFailure, "OpenSSL does not verify the built certificate")
        }
        return built
    }
}
