import COpenSSL

/// An X.509 certificate (RFC 5280), parsed strictly and backed by an OpenSSL `X509`.
///
/// A value type over a private class that owns the `X509` and frees it when the last copy goes
/// away. The DER must be accepted by both this module's strict DER reader (definite minimal
/// lengths, no trailing bytes) and OpenSSL's `d2i_X509`. The extensions this type interprets
/// (basicConstraints, keyUsage, extKeyUsage, subjectAltName, key identifiers and the FIDO
/// AAGUID) are decoded at parse time, so a malformed one is a parse error; unknown extensions,
/// critical or not, are kept as they are.
///
/// Two certificates are equal when their DER is equal.
public struct Certificate: Sendable, Hashable, CustomStringConvertible {
    let box: CertificateBox

    init(box: CertificateBox) { self.box = box }

    // MARK: Parsing

    /// Parses a DER certificate; the input must be exactly one certificate.
    ///
    /// - Throws: the reader's `der…` codes (with the ``CryptoError/offset``) for DER that is
    ///   malformed, not minimal or followed by bytes;
    ///   ``CryptoError/Code-swift.struct/invalidCertificate`` when the structure is not a
    ///   certificate, the two signature algorithm fields differ, an interpreted extension is
    ///   malformed or appears twice, or OpenSSL refuses the certificate.
    @inlinable
    public init<C: Collection<UInt8>>(derEncoded: C) throws {
        self = try Certificate(derBytes: Array(derEncoded))
    }

    @usableFromInline
    init(derBytes: [UInt8]) throws(CryptoError) {
        box = try CertificateBox.make(der: derBytes)
    }

    /// Parses a DER certificate as ``init(derEncoded:)`` does, but accepts the encodings of
    /// `leniency` that OpenSSL reads and DER forbids, listing each one met in
    /// ``toleratedDeviations``.
    ///
    /// A certificate that is valid DER costs what the strict parse costs: the lenient reading
    /// runs only after the strict one fails.
    ///
    /// - Throws: as ``init(derEncoded:)`` for anything `leniency` does not cover.
    public init<C: Collection<UInt8>>(
        derEncoded: C, tolerating leniency: CertificateLeniency
    ) throws {
        let der = Array(derEncoded)
        do {
            box = try CertificateBox.make(der: der)
        } catch {
            guard !leniency.isEmpty else { throw error }
            box = try CertificateBox.make(der: der, leniency: leniency)
        }
    }

    /// Parses the first `CERTIFICATE` block of PEM text.
    ///
    /// - Throws: ``CryptoError/Code-swift.struct/invalidPEM`` when there is no PEM block or it
    ///   has another label; otherwise as ``init(derEncoded:)``.
    public init(pemEncoded: String) throws {
        let der = try PEMReader.withFirstBlock(pemEncoded, label: "CERTIFICATE") {
            (buffer) throws(CryptoError) in Array(buffer)
        }
        try self.init(derBytes: der)
    }

    /// Parses every `CERTIFICATE` block of PEM text (a bundle), in order.
    ///
    /// - Throws: ``CryptoError/Code-swift.struct/invalidPEM`` when there is no block, a block
    ///   has another label or headers, or the text is larger than 1 MiB; otherwise as
    ///   ``init(derEncoded:)``.
    public static func certificates(pemEncoded text: String) throws -> [Certificate] {
        try PEMReader.blocks(text, label: "CERTIFICATE").map { (der) throws(CryptoError) in
            try Certificate(derBytes: der)
        }
    }

    // MARK: Encodings

    /// What ``init(derEncoded:tolerating:)`` tolerated in this certificate, in words; empty for
    /// a certificate that is valid DER.
    public var toleratedDeviations: [String] { box.parsed.deviations }

    /// The DER encoding, exactly as parsed or built.
    public var derEncoded: [UInt8] { box.der }

    /// The certificate as a PEM `CERTIFICATE` block.
    ///
    /// - Throws: ``CryptoError/Code-swift.struct/openSSLFailure`` if OpenSSL cannot encode.
    public var pemEncoded: String {
        get throws {
            try KeyEncoding.pem(box.der, label: "CERTIFICATE", secret: false)
        }
    }

    /// The DER of the TBSCertificate, the part the issuer signed.
    public var tbsCertificateDER: [UInt8] { box.parsed.tbsCertificate }

    // MARK: Fields

    /// The version: 1, 2 or 3.
    public var version: Int { box.parsed.version }

    /// The serial number's INTEGER contents: two's-complement big-endian octets as encoded, so a
    /// positive serial whose first octet is 0x80 or more starts with a 0x00 octet.
    public var serialNumber: [UInt8] { box.parsed.serialNumber }

    /// The signature algorithm's identifier (``ASN1ObjectIdentifier/ecdsaWithSHA256``, …).
    public var signatureAlgorithm: ASN1ObjectIdentifier { box.parsed.signatureAlgorithm }

    /// The signature octets (for ECDSA, a DER Ecdsa-Sig-Value).
    public var signature: [UInt8] { box.parsed.signature }

    /// The issuer's name.
    public var issuer: DistinguishedName { box.parsed.issuer }

    /// The subject's name (empty in a TPM AIK certificate).
    public var subject: DistinguishedName { box.parsed.subject }

    /// The start of the validity period, in seconds since 1970-01-01T00:00:00Z.
    public var notBefore: Int64 { box.parsed.notBefore }

    /// The end of the validity period (inclusive), in seconds since the Unix epoch.
    public var notAfter: Int64 { box.parsed.notAfter }

    /// Whether `unixSeconds` falls within the validity period (both ends inclusive).
    public func isValid(at unixSeconds: Int64) -> Bool {
        notBefore <= unixSeconds && unixSeconds <= notAfter
    }

    /// Whether issuer and subject are the same name (as a self-signed root's are).
    public var isSelfIssued: Bool { issuer == subject }

    /// The DER SubjectPublicKeyInfo.
    public var subjectPublicKeyInfoDER: [UInt8] { box.parsed.subjectPublicKeyInfo }

    /// The subject's public key.
    ///
    /// - Throws: as ``PublicKey/init(spkiDER:)``: ``CryptoError/Code-swift.struct/unsupportedKeyType``
    ///   for algorithms or curves this library does not handle,
    ///   ``CryptoError/Code-swift.struct/keySizeNotAllowed`` for RSA outside 2048–4096 bits
    ///   (use ``subjectPublicKeyInfoDER`` with ``PublicKey/init(unsafeSPKIDER:)`` for legacy
    ///   keys).
    public var publicKey: PublicKey {
        get throws { try PublicKey(spkiDER: box.parsed.subjectPublicKeyInfo) }
    }

    // MARK: Extensions

    /// Every extension, in encoded order.
    public var extensions: [CertificateExtension] { box.parsed.extensions }

    /// The extension with identifier `oid`, if present: its criticality and value DER.
    public func findExtension(_ oid: ASN1ObjectIdentifier) -> CertificateExtension? {
        box.parsed.extensions.first { $0.oid == oid }
    }

    /// The basicConstraints extension, if present.
    public var basicConstraints: BasicConstraints? { box.parsed.basicConstraints }

    /// Whether basicConstraints is present with cA TRUE.
    public var isCertificateAuthority: Bool {
        box.parsed.basicConstraints?.isCertificateAuthority ?? false
    }

    /// The keyUsage extension, if present.
    public var keyUsage: KeyUsage? { box.parsed.keyUsage }

    /// The extKeyUsage purposes, or nil when the extension is absent.
    public var extendedKeyUsage: [ASN1ObjectIdentifier]? { box.parsed.extendedKeyUsage }

    /// The subjectAltName entries (`directoryName` entries as attribute lists), or nil when
    /// the extension is absent.
    public var subjectAlternativeNames: [GeneralName]? { box.parsed.subjectAlternativeNames }

    /// The subjectKeyIdentifier, if present.
    public var subjectKeyIdentifier: [UInt8]? { box.parsed.subjectKeyIdentifier }

    /// The keyIdentifier of the authorityKeyIdentifier extension; nil when the extension is
    /// absent or has no `[0] IMPLICIT OCTET STRING` keyIdentifier (some TPM AIK certificates
    /// encode it as a constructed `[0]`, which OpenSSL refuses when building a chain).
    public var authorityKeyIdentifier: [UInt8]? { box.parsed.authorityKeyIdentifier }

    /// The 16-byte AAGUID of the FIDO extension 1.3.6.1.4.1.45724.1.1.4, if present.
    public var fidoAAGUID: [UInt8]? { box.parsed.aaguid }

    // MARK: Signature

    /// Whether the certificate's signature verifies with `issuerKey` (OpenSSL's `X509_verify`,
    /// which also requires the algorithm to fit the key). False for a wrong key, a bad
    /// signature, or an algorithm OpenSSL does not support.
    public func isSignatureValid(issuerKey: PublicKey) -> Bool {
        guard let key = try? issuerKey.box.pointer else { return false }
        let valid = X509_verify(box.pointer, key) == 1
        OpenSSLErrorQueue.clear()
        return valid
    }

    /// Whether `issuer`'s subject is this certificate's issuer and its key verifies this
    /// certificate's signature. The issuer's key is imported as
    /// ``PublicKey/init(unsafeSPKIDER:)`` does (RSA from 1024 bits, as legacy attestation CAs
    /// use); false when it cannot be imported at all.
    public func isIssued(by issuer: Certificate) -> Bool {
        guard self.issuer == issuer.subject else { return false }
        guard let key = try? PublicKey(unsafeSPKIDER: issuer.subjectPublicKeyInfoDER) else {
            return false
        }
        return isSignatureValid(issuerKey: key)
    }

    // MARK: Equality and description

    /// Equal when the DER is equal.
    public static func == (lhs: Certificate, rhs: Certificate) -> Bool {
        lhs.box === rhs.box || lhs.box.der == rhs.box.der
    }

    /// Hashes the DER.
    public func hash(into hasher: inout Hasher) { hasher.combine(box.der) }

    /// `"Certificate(subject: …, issuer: …)"`.
    public var description: String { "Certificate(subject: \(subject), issuer: \(issuer))" }
}
