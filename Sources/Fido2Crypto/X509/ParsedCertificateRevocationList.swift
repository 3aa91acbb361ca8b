/// The fields of a certificate revocation list as the strict DER reader finds them
/// (RFC 5280 §5.1).
struct ParsedCertificateRevocationList: Sendable {
    /// The largest CRL accepted, in bytes: room for tens of thousands of entries, while a
    /// hostile input cannot make the parser allocate without bound.
    static let maximumSize = 16 << 20

    var version = 1
    var signatureAlgorithm = ASN1ObjectIdentifier.ecdsaWithSHA256
    var issuer = DistinguishedName(attributes: [], derEncoded: [0x30, 0x00])
    var thisUpdate: Int64 = 0
    var nextUpdate: Int64?
    var revoked: [RevokedCertificate] = []
    var extensions: [CertificateExtension] = []
    var tbsCertList: [UInt8] = []
    var signature: [UInt8] = []

    /// Parses a whole CRL.
    ///
    /// CertificateList ::= SEQUENCE { tbsCertList, signatureAlgorithm, signatureValue BIT STRING }
    init(der: [UInt8]) throws(CryptoError) {
        let limits = DERReader.Limits(maximumSize: Self.maximumSize)
        // Every element must be DER, opaque ones too (as for certificates).
        try DERReader.validate(der[...], limits: limits)
        var reader = try DERReader(der, limits: limits)
        var outerAlgorithm: ArraySlice<UInt8> = []
        var innerAlgorithm: ArraySlice<UInt8> = []
        try reader.readSequence { (list) throws(CryptoError) in
            let tbs = try list.readElement(.sequence)
            tbsCertList = Array(tbs.encoded)
            var fields = try list.nestedReader(tbs)
            innerAlgorithm = try parseTBS(&fields)
            try fields.finish()
            let algorithm = try list.readElement(.sequence)
            outerAlgorithm = algorithm.encoded
            let bits = try list.readBitString()
            guard bits.unusedBitCount == 0 else {
                throw CryptoError(
                    .invalidRevocationList, "signature BIT STRING has unused bits",
                    offset: algorithm.offset)
            }
            signature = Array(bits.bytes)
        }
        try reader.finish()
        // RFC 5280 §5.1.1.2: the two AlgorithmIdentifiers must be identical.
        guard outerAlgorithm.elementsEqual(innerAlgorithm) else {
            throw CryptoError(
                .invalidRevocationList,
                "signatureAlgorithm differs from the TBSCertList's signature field")
        }
    }

    /// Reads the TBSCertList fields; returns the signature AlgorithmIdentifier's DER.
    private mutating func parseTBS(
        _ fields: inout DERReader
    ) throws(CryptoError) -> ArraySlice<UInt8> {
        // version Version OPTIONAL: absent for v1, and when present it must be v2 (1).
        if try fields.peekTag() == .integer {
            let start = fields.offset
            let raw = try fields.readInt64()
            guard raw == 1 else {
                throw CryptoError(
                    .invalidRevocationList, "CRL version field is \(raw), not 1 (v2)",
                    offset: start)
            }
            version = 2
        }
        let algorithm = try fields.readElement(.sequence)
        var algorithmReader = try fields.nestedReader(algorithm)
        signatureAlgorithm = try algorithmReader.readObjectIdentifier()
        issuer = try fields.readDistinguishedName()
        thisUpdate = try fields.readTime()
        if let tag = try fields.peekTag(), tag == .utcTime || tag == .generalizedTime {
            nextUpdate = try fields.readTime()
        }
        if try fields.peekTag() == .sequence {
            revoked = try fields.readSequence { (entries) throws(CryptoError) in
                var revoked: [RevokedCertificate] = []
                while !entries.isAtEnd { revoked.append(try Self.readEntry(&entries)) }
                return revoked
            }
        }
        if let list = try fields.readOptionalExplicit(
            0, { (reader) throws(CryptoError) in try Self.extensions(&reader) })
        {
            extensions = list
        }
        return algorithm.encoded
    }

    /// SEQUENCE { userCertificate INTEGER, revocationDate Time, crlEntryExtensions OPTIONAL }.
    private static func readEntry(
        _ entries: inout DERReader
    ) throws(CryptoError) -> RevokedCertificate {
        try entries.readSequence { (entry) throws(CryptoError) in
            let serial = Array(try entry.readInteger())
            let date = try entry.readTime()
            let extensions = entry.isAtEnd ? [] : try Self.extensions(&entry)
            return RevokedCertificate(
                serialNumber: serial, revocationDate: date, extensions: extensions)
        }
    }

    /// Extensions, with a repeated identifier or an empty list reported as a CRL fault.
    private static func extensions(
        _ reader: inout DERReader
    ) throws(CryptoError) -> [CertificateExtension] {
        do {
            return try ParsedCertificate.readExtensions(&reader)
        } catch  where error.code == .invalidCertificate {
            throw CryptoError(.invalidRevocationList, error.reason, offset: error.offset)
        }
    }
}
