import COpenSSL

/// An X.509 certificate revocation list (RFC 5280 §5), parsed strictly and backed by an
/// OpenSSL `X509_CRL`: the revocation data a relying party supplies to
/// ``CertificateChainVerifier`` through ``RevocationCheck``.
///
/// A value type over a private class that owns the `X509_CRL` and frees it when the last copy
/// goes away. The DER must be accepted by both this module's strict DER reader (definite
/// minimal lengths, no trailing bytes, at most 16 MiB) and OpenSSL's `d2i_X509_CRL`. Parsing
/// does not check the signature: the verifier does, with the issuer it finds in the path (or
/// call ``isSignatureValid(issuerKey:)``).
///
/// Two CRLs are equal when their DER is equal.
public struct CertificateRevocationList: Sendable, Hashable, CustomStringConvertible {
    let box: CertificateRevocationListBox

    init(box: CertificateRevocationListBox) { self.box = box }

    // MARK: Parsing

    /// Parses a DER CRL; the input must be exactly one CertificateList.
    ///
    /// - Throws: the reader's `der…` codes (with the ``CryptoError/offset``) for DER that is
    ///   malformed, truncated, not minimal, larger than 16 MiB or followed by bytes;
    ///   ``CryptoError/Code-swift.struct/invalidRevocationList`` when the structure is not a
    ///   CRL (a version other than v2, differing signature algorithm fields, a repeated
    ///   extension) or OpenSSL refuses it.
    @inlinable
    public init<C: Collection<UInt8>>(derEncoded: C) throws {
        self = try CertificateRevocationList(derBytes: Array(derEncoded))
    }

    @usableFromInline
    init(derBytes: [UInt8]) throws(CryptoError) {
        box = try CertificateRevocationListBox.make(der: derBytes)
    }

    /// Parses the first `X509 CRL` block of PEM text.
    ///
    /// - Throws: ``CryptoError/Code-swift.struct/invalidPEM`` when there is no PEM block, it
    ///   has another label or headers, or the text is larger than 1 MiB; otherwise as
    ///   ``init(derEncoded:)``.
    public init(pemEncoded: String) throws {
        let der = try PEMReader.withFirstBlock(pemEncoded, label: Self.pemLabel) {
            (buffer) throws(CryptoError) in Array(buffer)
        }
        try self.init(derBytes: der)
    }

    /// Parses every `X509 CRL` block of PEM text (a bundle), in order.
    ///
    /// - Throws: ``CryptoError/Code-swift.struct/invalidPEM`` when there is no block, a block
    ///   has another label or headers, or the text is larger than 1 MiB; otherwise as
    ///   ``init(derEncoded:)``.
    public static func revocationLists(
        pemEncoded text: String
    ) throws -> [CertificateRevocationList] {
        try PEMReader.blocks(text, label: pemLabel).map { (der) throws(CryptoError) in
            try CertificateRevocationList(derBytes: der)
        }
    }

    static let pemLabel = "X509 CRL"

    // MARK: Encodings

    /// The DER encoding, exactly as parsed or built.
    public var derEncoded: [UInt8] { box.der }

    /// The CRL as a PEM `X509 CRL` block.
    ///
    /// - Throws: ``CryptoError/Code-swift.struct/openSSLFailure`` if OpenSSL cannot encode.
    public var pemEncoded: String {
        get throws {
            try KeyEncoding.pem(box.der, label: Self.pemLabel, secret: false)
        }
    }

    /// The DER of the TBSCertList, the part the issuer signed.
    public var tbsCertListDER: [UInt8] { box.parsed.tbsCertList }

    // MARK: Fields

    /// The version: 1 (no version field) or 2.
    public var version: Int { box.parsed.version }

    /// The signature algorithm's identifier (``ASN1ObjectIdentifier/ecdsaWithSHA256``, …).
    public var signatureAlgorithm: ASN1ObjectIdentifier { box.parsed.signatureAlgorithm }

    /// The signature octets (for ECDSA, a DER Ecdsa-Sig-Value).
    public var signature: [UInt8] { box.parsed.signature }

    /// The name of the CA that issued the CRL (the issuer of the certificates it covers).
    public var issuer: DistinguishedName { box.parsed.issuer }

    /// When the CRL was issued, in seconds since the Unix epoch.
    public var thisUpdate: Int64 { box.parsed.thisUpdate }

    /// When the next CRL will be issued, in seconds since the Unix epoch, if stated. After it
    /// the verifier no longer accepts the CRL (``CryptoError/Code-swift.struct/revocationStatusUnknown``).
    public var nextUpdate: Int64? { box.parsed.nextUpdate }

    /// The revoked certificates' entries, in encoded order.
    public var revokedCertificates: [RevokedCertificate] { box.parsed.revoked }

    /// The revoked certificates' serial numbers, in the form of ``Certificate/serialNumber``.
    public var revokedSerialNumbers: [[UInt8]] { box.parsed.revoked.map(\.serialNumber) }

    /// Whether `certificate`'s serial number is listed. This compares serial numbers only:
    /// whether the CRL is the certificate issuer's, authentic and current is the verifier's
    /// question (``CertificateChainVerifier`` with a ``RevocationCheck``).
    public func lists(_ certificate: Certificate) -> Bool {
        box.parsed.revoked.contains { $0.serialNumber == certificate.serialNumber }
    }

    /// The CRL extensions (crlExtensions), in encoded order.
    public var extensions: [CertificateExtension] { box.parsed.extensions }

    // MARK: Signature

    /// Whether the CRL's signature verifies with `issuerKey` (OpenSSL's `X509_CRL_verify`).
    /// False for a wrong key, a bad signature, or an algorithm OpenSSL does not support.
    public func isSignatureValid(issuerKey: PublicKey) -> Bool {
        guard let key = try? issuerKey.box.pointer else { return false }
        let valid = X509_CRL_verify(box.pointer, key) == 1
        OpenSSLErrorQueue.clear()
        return valid
    }

    // MARK: Equality and description

    /// Equal when the DER is equal.
    public static func == (lhs: CertificateRevocationList, rhs: CertificateRevocationList) -> Bool {
        lhs.box === rhs.box || lhs.box.der == rhs.box.der
    }

    /// Hashes the DER.
    public func hash(into hasher: inout Hasher) { hasher.combine(box.der) }

    /// `"CertificateRevocationList(issuer: …, entries: n)"`.
    public var description: String {
        "CertificateRevocationList(issuer: \(issuer), entries: \(box.parsed.revoked.count))"
    }
}
