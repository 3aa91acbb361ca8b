/// The fields of a certificate as the strict DER reader finds them (RFC 5280 §4.1), with the
/// extensions this module interprets already decoded.
struct ParsedCertificate: Sendable {
    var version = 1
    var serialNumber: [UInt8] = []
    var signatureAlgorithm = ASN1ObjectIdentifier.ecdsaWithSHA256
    var issuer = DistinguishedName(attributes: [], derEncoded: [0x30, 0x00])
    var subject = DistinguishedName(attributes: [], derEncoded: [0x30, 0x00])
    var notBefore: Int64 = 0
    var notAfter: Int64 = 0
    var subjectPublicKeyInfo: [UInt8] = []
    var extensions: [CertificateExtension] = []
    var tbsCertificate: [UInt8] = []
    var signature: [UInt8] = []
    /// The unused-bit count the signature BIT STRING declares (0 unless tolerated).
    var signatureUnusedBitCount = 0

    var basicConstraints: BasicConstraints?
    var keyUsage: KeyUsage?
    var extendedKeyUsage: [ASN1ObjectIdentifier]?
    var subjectAlternativeNames: [GeneralName]?
    var subjectKeyIdentifier: [UInt8]?
    var authorityKeyIdentifier: [UInt8]?
    var aaguid: [UInt8]?

    /// What was tolerated under a ``CertificateLeniency``, in words; empty for a strict parse.
    var deviations: [String] = []

    /// Parses a whole certificate, accepting the encodings of `leniency` and recording each one
    /// met in ``deviations``.
    ///
    /// Certificate ::= SEQUENCE { tbsCertificate, signatureAlgorithm, signatureValue BIT STRING }
    init(der: [UInt8], leniency: CertificateLeniency = []) throws(CryptoError) {
        // Every element must be DER, opaque ones too (an attribute value of type ANY, an
        // extension's value, algorithm parameters): OpenSSL keeps those as raw bytes and
        // accepts a malformed inside, which the field walk below does not enter either.
        do {
            try DERReader.validate(der[...])
        } catch {
            guard leniency.contains(.opaqueElementsNotDER) else { throw error }
            deviations.append("an element is not DER: \(error)")
        }
        var reader = try DERReader(der)
        var outerAlgorithm: ArraySlice<UInt8> = []
        var innerAlgorithm: ArraySlice<UInt8> = []
        try reader.readSequence { (certificate) throws(CryptoError) in
            let tbs = try certificate.readElement(.sequence)
            tbsCertificate = Array(tbs.encoded)
            var fields = try certificate.nestedReader(tbs)
            innerAlgorithm = try parseTBS(&fields, leniency: leniency)
            try fields.finish()
            let algorithm = try certificate.readElement(.sequence)
            outerAlgorithm = algorithm.encoded
            let bits = try certificate.readBitString()
            if bits.unusedBitCount != 0 {
                guard leniency.contains(.unusedSignatureBits) else {
                    throw CryptoError(
                        .invalidCertificate, "signature BIT STRING has unused bits",
                        offset: algorithm.offset)
                }
                deviations.append(
                    "the signature BIT STRING declares \(bits.unusedBitCount) unused bits")
                signatureUnusedBitCount = Int(bits.unusedBitCount)
            }
            signature = Array(bits.bytes)
        }
        try reader.finish()
        // RFC 5280 §4.1.1.2: the two AlgorithmIdentifiers must be identical.
        guard outerAlgorithm.elementsEqual(innerAlgorithm) else {
            throw CryptoError(
                .invalidCertificate,
                "signatureAlgorithm differs from the TBSCertificate's signature field")
        }
    }

    /// Reads the TBSCertificate fields; returns the signature AlgorithmIdentifier's DER.
    private mutating func parseTBS(
        _ fields: inout DERReader, leniency: CertificateLeniency
    ) throws(CryptoError) -> ArraySlice<UInt8> {
        // version [0] EXPLICIT INTEGER DEFAULT v1 (an explicit v1 is tolerated).
        if let raw = try fields.readOptionalExplicit(
            0,
            { (reader) throws(CryptoError) in
                try reader.readInt64()
            })
        {
            guard (0...2).contains(raw) else {
                throw CryptoError(
                    .invalidCertificate, "unknown certificate version field \(raw)",
                    offset: fields.offset)
            }
            version = Int(raw) + 1
        }
        serialNumber = Array(try fields.readInteger())
        let algorithm = try fields.readElement(.sequence)
        var algorithmReader = try fields.nestedReader(algorithm)
        signatureAlgorithm = try algorithmReader.readObjectIdentifier()
        issuer = try fields.readDistinguishedName()
        (notBefore, notAfter) = try fields.readSequence { (validity) throws(CryptoError) in
            (try validity.readTime(), try validity.readTime())
        }
        subject = try fields.readDistinguishedName()
        subjectPublicKeyInfo = Array(try fields.readElement(.sequence).encoded)
        _ = try fields.readOptionalElement(.contextSpecific(1, constructed: false))
        _ = try fields.readOptionalElement(.contextSpecific(2, constructed: false))
        if let list = try fields.readOptionalExplicit(
            3, { (reader) throws(CryptoError) in try Self.readExtensions(&reader) })
        {
            extensions = list
            try decodeKnownExtensions(leniency: leniency)
        }
        return algorithm.encoded
    }

    /// Extensions ::= SEQUENCE SIZE (1..MAX) OF Extension; identifiers must be unique (also
    /// read for CRLs and their entries, which map the error code to their own).
    static func readExtensions(
        _ reader: inout DERReader
    ) throws(CryptoError) -> [CertificateExtension] {
        try reader.readSequence { (list) throws(CryptoError) in
            var extensions: [CertificateExtension] = []
            var seen: Set<ASN1ObjectIdentifier> = []
            while !list.isAtEnd {
                let start = list.offset
                let item = try list.readSequence { (item) throws(CryptoError) in
                    let oid = try item.readObjectIdentifier()
                    // critical BOOLEAN DEFAULT FALSE: an explicit FALSE is tolerated.
                    let critical = try item.readOptionalElement(.boolean)?.decodeBoolean() ?? false
                    let value = try item.readOctetString()
                    return CertificateExtension(oid: oid, isCritical: critical, value: Array(value))
                }
                guard seen.insert(item.oid).inserted else {
                    throw CryptoError(
                        .invalidCertificate, "extension \(item.oid) appears twice", offset: start)
                }
                extensions.append(item)
            }
            guard !extensions.isEmpty else {
                throw CryptoError(.invalidCertificate, "empty extensions list")
            }
            return extensions
        }
    }

    /// Decodes the extensions the public API exposes; a malformed one makes the certificate
    /// invalid (OpenSSL would refuse to verify it too), except a key identifier under
    /// ``CertificateLeniency/malformedKeyIdentifiers``, which is then read as absent.
    private mutating func decodeKnownExtensions(
        leniency: CertificateLeniency
    ) throws(CryptoError) {
        for item in extensions {
            do throws {
                switch item.oid {
                case .basicConstraints:
                    basicConstraints = try BasicConstraints(derEncoded: item.value)
                case .keyUsage:
                    keyUsage = try KeyUsage(derEncoded: item.value)
                case .extendedKeyUsage:
                    extendedKeyUsage = try Self.sequenceOf(item.value) {
                        (reader) throws(CryptoError) in try reader.readObjectIdentifier()
                    }
                case .subjectAltName:
                    subjectAlternativeNames = try Self.sequenceOf(item.value) {
                        (reader) throws(CryptoError) in try reader.readGeneralName()
                    }
                case .subjectKeyIdentifier:
                    var reader = try DERReader(item.value)
                    subjectKeyIdentifier = Array(try reader.readOctetString())
                    try reader.finish()
                case .authorityKeyIdentifier:
                    var reader = try DERReader(item.value)
                    authorityKeyIdentifier = try reader.readSequence {
                        (sequence) throws(CryptoError) in
                        let identifier = try sequence.readOptionalElement(
                            .contextSpecific(0, constructed: false))
                        // authorityCertIssuer [1] and authorityCertSerialNumber [2] may follow; a
                        // mis-tagged keyIdentifier (constructed [0], seen in deployed TPM AIK
                        // certificates) is skipped, not refused, so the certificate still parses.
                        while !sequence.isAtEnd { _ = try sequence.readElement() }
                        return identifier.map { Array($0.contents) }
                    }
                    try reader.finish()
                case .fidoAAGUID:
                    var reader = try DERReader(item.value)
                    let value = try reader.readOctetString()
                    try reader.finish()
                    guard value.count == 16 else {
                        throw CryptoError(
                            .derInvalidValue, "AAGUID is \(value.count) bytes, not 16")
                    }
                    aaguid = Array(value)
                default:
                    break
                }
            } catch {
                let isKeyIdentifier =
                    item.oid == .authorityKeyIdentifier || item.oid == .subjectKeyIdentifier
                guard isKeyIdentifier, leniency.contains(.malformedKeyIdentifiers) else {
                    throw CryptoError(
                        .invalidCertificate, "malformed extension \(item.oid): \(error)",
                        field: item.oid.dotted)
                }
                deviations.append("malformed extension \(item.oid), read as absent: \(error)")
            }
        }
    }

    /// A non-empty SEQUENCE OF read with `element`.
    private static func sequenceOf<T>(
        _ der: [UInt8], _ element: (inout DERReader) throws(CryptoError) -> T
    ) throws(CryptoError) -> [T] {
        var reader = try DERReader(der)
        let items = try reader.readSequence { (sequence) throws(CryptoError) in
            var items: [T] = []
            while !sequence.isAtEnd { items.append(try element(&sequence)) }
            return items
        }
        try reader.finish()
        guard !items.isEmpty else { throw CryptoError(.derInvalidValue, "empty SEQUENCE OF") }
        return items
    }
}
