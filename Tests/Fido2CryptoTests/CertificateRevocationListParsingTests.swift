@_spi(Fido2Internals) import Fido2Crypto
import Fido2Encoding
import Fido2TestSupport
import Fido2Vectors
import Testing

/// `CertificateRevocationList` from DER and PEM: the fields of CRLs the test CA issues, and a
/// typed error (never a trap) for every malformed input.
@Suite struct CertificateRevocationListParsingTests {
    static let year2025: Int64 = 1_735_689_600  // 2025-01-01T00:00:00Z
    static let year2026: Int64 = 1_767_225_600  // 2026-01-01T00:00:00Z
    static let year2060: Int64 = 2_840_140_800  // 2060-01-01T00:00:00Z (GeneralizedTime)

    static func authority() throws -> TestCertificateAuthority {
        try TestCertificateAuthority(
            privateKey: PrivateKey(
                rawScalar: DigestAlgorithm.sha256.hash(Array("crl root".utf8)), kind: .p256),
            subject: DistinguishedName([.commonName("fido2kit CRL root")]), serialNumber: [1],
            notBefore: year2025, notAfter: year2060)
    }

    static func sample() throws -> CertificateRevocationList {
        try authority().issueRevocationList(
            revoking: [[0x03], [0x00, 0x80, 0x01], Array(repeating: 0x7f, count: 20)],
            thisUpdate: year2025, nextUpdate: year2026)
    }

    // MARK: Fields

    @Test func readsTheFieldsOfAnIssuedCRL() throws {
        let authority = try Self.authority()
        let crl = try Self.sample()
        #expect(crl.version == 2)
        #expect(crl.issuer == authority.certificate.subject)
        #expect(crl.thisUpdate == Self.year2025)
        #expect(crl.nextUpdate == Self.year2026)
        #expect(crl.signatureAlgorithm == .ecdsaWithSHA256)
        // Serial numbers in Certificate.serialNumber's form: minimal two's complement.
        #expect(
            crl.revokedSerialNumbers == [
                [0x03], [0x00, 0x80, 0x01], Array(repeating: 0x7f, count: 20),
            ])
        #expect(crl.revokedCertificates.allSatisfy { $0.revocationDate == Self.year2025 })
        #expect(crl.revokedCertificates.allSatisfy { $0.extensions.isEmpty })
        #expect(crl.extensions.map(\.oid) == [.authorityKeyIdentifier, .crlNumber])
        #expect(crl.extensions.allSatisfy { !$0.isCritical })
        #expect(crl.isSignatureValid(issuerKey: try authority.certificate.publicKey))
        #expect(!crl.isSignatureValid(issuerKey: try PrivateKey(generating: .p256).publicKey))
        #expect(crl.description.contains("entries: 3"))
        // Re-parsing the DER gives the same CRL.
        let again = try CertificateRevocationList(derEncoded: crl.derEncoded)
        #expect(again == crl)
        #expect(again.derEncoded == crl.derEncoded)
        #expect(again.tbsCertListDER == crl.tbsCertListDER)
        #expect(again.signature == crl.signature)
    }

    @Test func issuesTheSameBytesEveryTime() throws {
        #expect(try Self.sample().derEncoded == Self.sample().derEncoded)
    }

    @Test func readsAnEmptyCRLAndGeneralizedTimes() throws {
        let crl = try Self.authority().issueRevocationList(
            revoking: [], thisUpdate: Self.year2060, nextUpdate: nil)
        #expect(crl.revokedCertificates.isEmpty)
        #expect(crl.thisUpdate == Self.year2060)
        #expect(crl.nextUpdate == nil)
    }

    @Test func readsAVersionOneCRL() throws {
        // A v1 CRL has no version field and no extensions; signature checks are the verifier's.
        let crl = try Self.sample()
        let authority = try Self.authority()
        var tbs = DERWriter()
        tbs.appendSequence { fields in
            fields.appendSequence { $0.appendObjectIdentifier(.ecdsaWithSHA256) }
            try? fields.appendEncoded(authority.certificate.subject.derEncoded)
            try? fields.appendTime(Self.year2025)
        }
        let v1 = try CertificateRevocationList(
            derEncoded: Self.wrap(tbs: tbs.bytes, signature: crl.signature))
        #expect(v1.version == 1)
        #expect(v1.nextUpdate == nil)
        #expect(v1.extensions.isEmpty)
    }

    @Test func readsPEMAndBundles() throws {
        let crl = try Self.sample()
        let other = try Self.authority().issueRevocationList(
            revoking: [], thisUpdate: Self.year2025, nextUpdate: Self.year2026)
        let pem = try crl.pemEncoded
        #expect(pem.hasPrefix("-----BEGIN X509 CRL-----\n"))
        #expect(try CertificateRevocationList(pemEncoded: pem) == crl)
        let bundle = try CertificateRevocationList.revocationLists(
            pemEncoded: pem + other.pemEncoded)
        #expect(bundle == [crl, other])
    }

    @Test func revokedCertificateDescribesItself() {
        let entry = RevokedCertificate(serialNumber: [0x0a, 0x1b], revocationDate: 1)
        #expect(entry.description == "RevokedCertificate(serial: 0a1b, at: 1)")
    }

    // MARK: Malformed input

    @Test func rejectsEveryTruncationWithATypedError() throws {
        let der = try Self.sample().derEncoded
        for length in 0..<der.count {
            #expect(throws: CryptoError.self, "length \(length)") {
                try CertificateRevocationList(derEncoded: der[..<length])
            }
        }
    }

    @Test func rejectsGarbageAndTrailingBytes() throws {
        let der = try Self.sample().derEncoded
        expectCryptoError(.derTrailingBytes) {
            try CertificateRevocationList(derEncoded: der + [0])
        }
        expectCryptoError(.derTruncated) { try CertificateRevocationList(derEncoded: [0x30]) }
        expectCryptoError(.derUnexpectedTag) { try CertificateRevocationList(derEncoded: [4, 0]) }
        #expect(throws: CryptoError.self) {
            try CertificateRevocationList(derEncoded: Array("not a CRL".utf8))
        }
        expectCryptoError(.derLimitExceeded) {
            try CertificateRevocationList(derEncoded: [UInt8](repeating: 0, count: (16 << 20) + 1))
        }
        var generator = SplitMix(seed: 0x5eed)
        for _ in 0..<200 {
            var bytes = der
            for _ in 0..<4 {
                let index = Int(generator.next() % UInt64(bytes.count))
                bytes[index] = UInt8(truncatingIfNeeded: generator.next())
            }
            // Any outcome but a trap is fine; a mutated CRL that still parses must round-trip.
            if let parsed = try? CertificateRevocationList(derEncoded: bytes) {
                #expect(parsed.derEncoded == bytes)
            }
        }
    }

    @Test func rejectsACertificatePassedAsACRL() throws {
        let certificate = try Self.authority().certificate
        #expect(throws: CryptoError.self) {
            try CertificateRevocationList(derEncoded: certificate.derEncoded)
        }
        expectCryptoError(.invalidPEM) {
            try CertificateRevocationList(pemEncoded: try certificate.pemEncoded)
        }
        expectCryptoError(.invalidPEM) {
            try CertificateRevocationList.revocationLists(pemEncoded: try certificate.pemEncoded)
        }
    }

    @Test func rejectsAVersionOtherThanTwo() throws {
        let crl = try Self.sample()
        var tbs = crl.tbsCertListDER
        // 30 len 02 01 01 …: the version INTEGER's value octet.
        let index = try #require(tbs.firstIndex(of: 0x02)) + 2
        #expect(tbs[index] == 0x01)
        tbs[index] = 0x02
        expectCryptoError(.invalidRevocationList) {
            try CertificateRevocationList(derEncoded: Self.wrap(tbs: tbs, signature: crl.signature))
        }
    }

    @Test func rejectsDifferingSignatureAlgorithms() throws {
        let crl = try Self.sample()
        expectCryptoError(.invalidRevocationList) {
            try CertificateRevocationList(
                derEncoded: Self.wrap(
                    tbs: crl.tbsCertListDER, signature: crl.signature,
                    algorithm: .ecdsaWithSHA384))
        }
    }

    @Test func rejectsARepeatedExtension() throws {
        var builder = try Self.authority().revocationListBuilder(
            thisUpdate: Self.year2025, nextUpdate: Self.year2026)
        builder.additionalExtensions = [
            CertificateExtension(oid: .crlNumber, isCritical: false, value: [0x02, 0x01, 0x02])
        ]
        expectCryptoError(.invalidArgument) { try builder.extensions() }
        // Written by hand, the same list fails to parse.
        let number = CertificateExtension(
            oid: .crlNumber, isCritical: false, value: [0x02, 0x01, 0x02])
        var tbs = DERWriter()
        tbs.appendSequence { fields in
            fields.appendInteger(1)
            fields.appendSequence { $0.appendObjectIdentifier(.ecdsaWithSHA256) }
            try? fields.appendEncoded(builder.issuer.derEncoded)
            try? fields.appendTime(Self.year2025)
            fields.appendExplicit(0) { wrapper in
                wrapper.appendSequence { list in
                    for item in [number, number] {
                        list.appendSequence { entry in
                            entry.appendObjectIdentifier(item.oid)
                            entry.appendOctetString(item.value)
                        }
                    }
                }
            }
        }
        expectCryptoError(.invalidRevocationList) {
            try CertificateRevocationList(
                derEncoded: Self.wrap(tbs: tbs.bytes, signature: [0x30, 0x00]))
        }
    }

    @Test func rejectsMalformedPEM() throws {
        let pem = try Self.sample().pemEncoded
        expectCryptoError(.invalidPEM) { try CertificateRevocationList(pemEncoded: "") }
        expectCryptoError(.invalidPEM) { try CertificateRevocationList(pemEncoded: "garbage") }
        expectCryptoError(.invalidPEM) {
            try CertificateRevocationList(pemEncoded: String(pem.prefix(pem.count / 2)))
        }
        expectCryptoError(.invalidPEM) {
            try CertificateRevocationList.revocationLists(
                pemEncoded: pem + "-----BEGIN X509 CRL-----\n!!!!\n-----END X509 CRL-----\n")
        }
        // A well-formed PEM block around a truncated CRL: the DER error comes through.
        let truncated = try Self.sample().derEncoded.dropLast(3)
        let body = Base64.encode(truncated, lineLength: 64)
        #expect(throws: CryptoError.self) {
            try CertificateRevocationList(
                pemEncoded: "-----BEGIN X509 CRL-----\n\(body)-----END X509 CRL-----\n")
        }
        // Builders refuse nonsense instead of writing it.
        let authority = try Self.authority()
        expectCryptoError(.invalidArgument) {
            try authority.issueRevocationList(
                revoking: [], thisUpdate: Self.year2026, nextUpdate: Self.year2025)
        }
        expectCryptoError(.invalidArgument) {
            try authority.issueRevocationList(
                revoking: [[0, 0]], thisUpdate: Self.year2025, nextUpdate: Self.year2026)
        }
    }

    /// CertificateList { tbs, algorithm, BIT STRING signature }.
    static func wrap(
        tbs: [UInt8], signature: [UInt8], algorithm: ASN1ObjectIdentifier = .ecdsaWithSHA256
    ) throws -> [UInt8] {
        var writer = DERWriter()
        try writer.appendSequence { (list) throws in
            try list.appendEncoded(tbs)
            list.appendSequence { $0.appendObjectIdentifier(algorithm) }
            try list.appendBitString(signature)
        }
        return writer.bytes
    }
}
