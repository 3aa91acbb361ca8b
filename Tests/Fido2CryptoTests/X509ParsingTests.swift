@_spi(Fido2Internals) import Fido2Crypto
import Fido2Encoding
import Fido2TestSupport
import Fido2Vectors
import Foundation
import Testing

/// Parsing certificates: every certificate of the shared vectors, the fields and extensions
/// the attestation formats need, PEM, and rejection of malformed certificates.
@Suite struct X509ParsingTests {
    @Test func parsesEveryVectorCertificate() throws {
        let w3c = try X509TestVectors.w3cChains()
        let real = try X509TestVectors.realChains()
        var parsed: [Certificate] = [try Certificate(derEncoded: X509TestVectors.w3cRoot())]
        for chain in w3c + real {
            for der in chain.certificates {
                let certificate = try Certificate(derEncoded: der)
                #expect(certificate.derEncoded == der)
                #expect(certificate.version == 3, "\(chain.caseID): \(certificate)")
                parsed.append(certificate)
            }
        }
        // W3C: the root and ten x5c leaves (6 packed, tpm, android-key, apple, fido-u2f).
        #expect(w3c.count == 10)
        #expect(w3c.reduce(0) { $0 + $1.certificates.count } == 10)
        // Real registrations: 63 certificates in 34 attStmt.x5c arrays, 16 in 6 SafetyNet JWS
        // headers (cases that share an attestation object each count).
        let statements = real.filter { $0.source == "attStmt.x5c" }
        let jws = real.filter { $0.source == "JWS x5c" }
        #expect(statements.count == 34)
        #expect(statements.reduce(0) { $0 + $1.certificates.count } == 63)
        #expect(jws.count == 6)
        #expect(jws.reduce(0) { $0 + $1.certificates.count } == 16)
        #expect(parsed.count == 1 + 10 + 63 + 16)
        #expect(Set(parsed).count == 60)
    }

    @Test func readsTheW3CAttestationRoot() throws {
        let root = try Certificate(derEncoded: X509TestVectors.w3cRoot())
        #expect(root.serialNumber == [0x00] + Hex.bytes("ed7f905d8bd0b414d1784913170a90b6"))
        #expect(root.signatureAlgorithm == .ecdsaWithSHA256)
        #expect(root.subject == root.issuer)
        #expect(root.isSelfIssued)
        #expect(root.subject.commonName == "WebAuthn test vectors")
        #expect(root.subject.organization == "W3C")
        #expect(root.subject.organizationalUnit == "Authenticator Attestation CA")
        #expect(root.subject.country == "AA")
        #expect(
            root.subject.attributes.map(\.type)
                == [.commonName, .organizationName, .organizationalUnitName, .countryName])
        #expect(
            root.subject.description
                == "CN=WebAuthn test vectors, O=W3C, OU=Authenticator Attestation CA, C=AA")
        #expect(root.subject.attributes.last?.valueTag == .printableString)
        // 2024-01-01T00:00:00Z (UTCTime) to 3024-01-01T00:00:00Z (GeneralizedTime).
        #expect(root.notBefore == 1_704_067_200)
        #expect(root.notAfter == 33_260_976_000)
        #expect(root.isCertificateAuthority)
        #expect(root.basicConstraints == BasicConstraints(isCertificateAuthority: true))
        #expect(root.keyUsage == [.keyCertSign, .cRLSign])
        #expect(root.subjectKeyIdentifier == Hex.bytes("45aff715b0dd786741fee996ebc16547a3931b1e"))
        #expect(root.extendedKeyUsage == nil)
        #expect(root.subjectAlternativeNames == nil)
        #expect(root.fidoAAGUID == nil)
        let constraints = try #require(root.findExtension(.basicConstraints))
        #expect(constraints.isCritical)
        #expect(constraints.value == [0x30, 0x03, 0x01, 0x01, 0xff])
        #expect(root.findExtension(.extendedKeyUsage) == nil)
        let key = try root.publicKey
        #expect(key.kind == .p256)
        #expect(try key == X509TestVectors.w3cRootPrivateKey().publicKey)
        #expect(root.isSignatureValid(issuerKey: key))
        #expect(root.isIssued(by: root))
    }

    @Test func readsTheTPMAttestationIdentityKeyCertificate() throws {
        let chain = try #require(try X509TestVectors.w3cChains().first { $0.format == "tpm" })
        let aik = try Certificate(derEncoded: try #require(chain.certificates.first))
        #expect(aik.subject.isEmpty)
        #expect(aik.subject.derEncoded == [0x30, 0x00])
        #expect(!aik.isCertificateAuthority)
        #expect(aik.basicConstraints == BasicConstraints(isCertificateAuthority: false))
        #expect(aik.extendedKeyUsage == [.tcgKPAIKCertificate])
        #expect(try #require(aik.findExtension(.subjectAltName)).isCritical)
        let names = try #require(aik.subjectAlternativeNames)
        #expect(names.count == 1)
        guard case .directoryName(let name) = names.first else {
            Issue.record("SAN is not a directoryName: \(names)")
            return
        }
        // One multi-valued RDN, attributes in DER SET OF order.
        #expect(
            name.attributes.map(\.type) == [.tcgTPMManufacturer, .tcgTPMVersion, .tcgTPMModel])
        #expect(name.first(.tcgTPMManufacturer) == "id:00000000")
        #expect(name.first(.tcgTPMModel) == "WebAuthn test vectors")
        #expect(name.first(.tcgTPMVersion) == "id:00000000")
        #expect(aik.isIssued(by: try Certificate(derEncoded: X509TestVectors.w3cRoot())))
    }

    @Test func readsRealTPMAndAndroidAndAppleExtensions() throws {
        let chains = try X509TestVectors.realChains()
        var tpmLeaves = 0
        for chain in chains where chain.format == "tpm" {
            let aik = try Certificate(derEncoded: try #require(chain.certificates.first))
            #expect(aik.subject.isEmpty, "\(chain.caseID)")
            #expect(aik.extendedKeyUsage?.contains(.tcgKPAIKCertificate) == true, "\(chain.caseID)")
            let directory = aik.subjectAlternativeNames?.compactMap { name -> DistinguishedName? in
                if case .directoryName(let name) = name { return name }
                return nil
            }.first
            let manufacturer = try #require(directory?.first(.tcgTPMManufacturer))
            #expect(manufacturer.hasPrefix("id:"), "\(chain.caseID): \(manufacturer)")
            #expect(directory?.first(.tcgTPMModel) != nil, "\(chain.caseID)")
            #expect(directory?.first(.tcgTPMVersion) != nil, "\(chain.caseID)")
            tpmLeaves += 1
        }
        #expect(tpmLeaves == 14)
        for chain in chains where chain.format == "android-key" {
            let leaf = try Certificate(derEncoded: try #require(chain.certificates.first))
            #expect(leaf.findExtension(.androidKeyAttestation)?.isCritical == false)
        }
        for chain in chains where chain.format == "apple" {
            let leaf = try Certificate(derEncoded: try #require(chain.certificates.first))
            let nonce = try #require(leaf.findExtension(.appleAttestationNonce))
            // SEQUENCE { nonce [1] EXPLICIT OCTET STRING (SIZE 32) }
            var reader = try DERReader(nonce.value)
            let value = try reader.readSequence { (sequence) throws(CryptoError) in
                try sequence.readExplicit(1) { (inner) throws(CryptoError) in
                    try inner.readOctetString()
                }
            }
            try reader.finish()
            #expect(value.count == 32, "\(chain.caseID)")
        }
    }

    /// The AAGUID extension of every leaf that has one against the AAGUID in the case's
    /// authenticator data: they agree except in reg-033 and reg-041, the two cases the vectors
    /// mark as carrying a mismatched certificate AAGUID.
    @Test func readsTheFIDOAAGUIDExtension() throws {
        var agreeing: [String] = []
        var differing: [String] = []
        // Only packed and tpm tie the extension to authData (§8.2.1, §8.3.1); U2F's authData
        // AAGUID is zero whatever the certificate says.
        for chain in try X509TestVectors.realChains()
        where chain.source == "attStmt.x5c" && ["packed", "tpm"].contains(chain.format) {
            let leaf = try Certificate(derEncoded: try #require(chain.certificates.first))
            guard let item = leaf.findExtension(.fidoAAGUID) else {
                #expect(leaf.fidoAAGUID == nil)
                continue
            }
            #expect(!item.isCritical, "\(chain.caseID)")
            let aaguid = try #require(leaf.fidoAAGUID)
            #expect(item.value == [0x04, 0x10] + aaguid)
            let expected = try #require(chain.authenticatorDataAAGUID)
            if Hex.encode(aaguid) == expected {
                agreeing.append(chain.caseID)
            } else {
                differing.append(chain.caseID)
            }
        }
        #expect(differing == ["reg-033", "reg-041"])
        #expect(agreeing == ["reg-003", "reg-018", "reg-019", "reg-032", "reg-040", "reg-044"])
    }

    @Test func acceptsAnExplicitlyEncodedFalseCAFlag() throws {
        // reg-031: a packed batch certificate whose basicConstraints encodes cA FALSE.
        let chain = try #require(try X509TestVectors.realChains().first { $0.caseID == "reg-031" })
        let certificate = try Certificate(derEncoded: try #require(chain.certificates.first))
        #expect(
            try #require(certificate.findExtension(.basicConstraints)).value == [
                0x30, 0x03, 0x01, 0x01, 0x00,
            ])
        #expect(certificate.basicConstraints == BasicConstraints(isCertificateAuthority: false))
        #expect(!certificate.isCertificateAuthority)
        // Issuer and subject are the same name, but another key signed it.
        #expect(certificate.isSelfIssued)
        #expect(!certificate.isIssued(by: certificate))
    }

    @Test func readsPEMAndBundles() throws {
        let root = try Certificate(derEncoded: X509TestVectors.w3cRoot())
        let pem = try root.pemEncoded
        #expect(pem.hasPrefix("-----BEGIN CERTIFICATE-----\n"))
        #expect(try Certificate(pemEncoded: pem) == root)
        let chain = try #require(try X509TestVectors.w3cChains().first)
        let leaf = try Certificate(derEncoded: try #require(chain.certificates.first))
        let bundle = try Certificate.certificates(pemEncoded: leaf.pemEncoded + pem)
        #expect(bundle == [leaf, root])
        expectCryptoError(.invalidPEM) {
            try Certificate(
                pemEncoded: pem.replacingOccurrences(of: "CERTIFICATE", with: "PUBLIC KEY"))
        }
        expectCryptoError(.invalidPEM) { try Certificate(pemEncoded: "no PEM here") }
        expectCryptoError(.invalidPEM) { try Certificate.certificates(pemEncoded: "") }
        expectCryptoError(.invalidPEM) {
            try Certificate.certificates(
                pemEncoded: pem + "-----BEGIN CERTIFICATE-----\n!!!!\n-----END CERTIFICATE-----\n")
        }
        expectCryptoError(.invalidPEM) {
            try Certificate.certificates(
                pemEncoded: pem
                    + (try Certificate(derEncoded: X509TestVectors.w3cRoot()).publicKey
                        .pemRepresentation))
        }
        let headers = pem.replacingOccurrences(
            of: "-----BEGIN CERTIFICATE-----\n",
            with:
                "-----BEGIN CERTIFICATE-----\nProc-Type: 4,ENCRYPTED\nDEK-Info: AES-128-CBC,00000000000000000000000000000000\n\n"
        )
        expectCryptoError(.invalidPEM) { try Certificate.certificates(pemEncoded: headers) }
        expectCryptoError(.invalidPEM) { try Certificate(pemEncoded: headers) }
    }

    @Test func rejectsTrailingBytesAfterACertificate() throws {
        let der = try X509TestVectors.w3cRoot()
        expectCryptoError(.derTrailingBytes) { try Certificate(derEncoded: der + [0x00]) }
    }

    @Test func rejectsTruncatedCertificates() throws {
        let der = try X509TestVectors.w3cRoot()
        for length in 0..<der.count {
            do {
                _ = try Certificate(derEncoded: der[..<length])
                Issue.record("a certificate cut to \(length) bytes parsed")
            } catch let error as CryptoError {
                #expect(
                    error.code == .derTruncated || error.code == .invalidCertificate, "\(error)")
            } catch {
                Issue.record("expected a CryptoError, got \(error)")
            }
        }
    }

    @Test func neverTrapsOnSingleBitFlips() throws {
        let der = try X509TestVectors.w3cRoot()
        var parsedCount = 0
        for index in der.indices {
            for bit in 0..<8 {
                var mutated = der
                mutated[index] ^= 1 << bit
                if (try? Certificate(derEncoded: mutated)) != nil { parsedCount += 1 }
            }
        }
        // Flips inside string values, the key, the serial or the signature still parse.
        #expect(parsedCount > 0)
        #expect(parsedCount < der.count * 8)
    }

    @Test func rejectsDifferingSignatureAlgorithmFields() throws {
        // Re-label the outer AlgorithmIdentifier as ecdsa-with-SHA384 (…04 03 02 → …04 03 03).
        var der = try X509TestVectors.w3cRoot()
        let outer = try #require(Self.lastRange(of: Hex.bytes("06082a8648ce3d040302"), in: der))
        der[outer.upperBound - 1] = 0x03
        expectCryptoError(.invalidCertificate) { try Certificate(derEncoded: der) }
    }

    /// A certificate signed by a fresh key whose TBSCertificate is what `fields` writes: for
    /// structures the builder refuses to make. `unusedBits` goes into the signature BIT
    /// STRING's first octet, `signatureTail` after the signature.
    static func handMade(
        unusedBits: UInt8 = 0, signatureTail: [UInt8] = [],
        _ fields: (inout DERWriter) throws -> Void
    ) throws -> [UInt8] {
        let key = try PrivateKey(generating: .p256)
        var tbs = DERWriter()
        try tbs.appendSequence { (writer) throws(CryptoError) in
            do { try fields(&writer) } catch let error as CryptoError { throw error } catch {
                throw CryptoError(.invalidArgument, "\(error)")
            }
        }
        let signature = try key.signature(for: tbs.bytes, algorithm: .es256)
        var certificate = DERWriter()
        try certificate.appendSequence { (outer) throws(CryptoError) in
            try outer.appendEncoded(tbs.bytes)
            outer.appendSequence { $0.appendObjectIdentifier(.ecdsaWithSHA256) }
            outer.appendElement(.bitString, contents: [unusedBits] + signature + signatureTail)
        }
        return certificate.bytes
    }

    /// Writes the fields of a minimal v3 TBSCertificate, with `name` as issuer and subject and
    /// the given extensions list contents (none when nil).
    static func standardFields(
        _ writer: inout DERWriter, version: Int64 = 2, name: [UInt8]? = nil,
        extensions: ((inout DERWriter) -> Void)? = nil
    ) throws {
        let key = try PrivateKey(generating: .p256)
        let name = try name ?? DistinguishedName([.commonName("hand made")]).derEncoded
        writer.appendExplicit(0) { $0.appendInteger(version) }
        writer.appendInteger(1)
        writer.appendSequence { $0.appendObjectIdentifier(.ecdsaWithSHA256) }
        try writer.appendEncoded(name)
        try writer.appendSequence { (validity) throws(CryptoError) in
            try validity.appendTime(1_704_067_200)
            try validity.appendTime(1_804_067_200)
        }
        try writer.appendEncoded(name)
        try writer.appendEncoded(key.publicKey.spkiDER)
        if let extensions {
            writer.appendExplicit(3) { wrapper in wrapper.appendSequence(extensions) }
        }
    }

    @Test func parsesAHandMadeCertificate() throws {
        let der = try Self.handMade { try Self.standardFields(&$0) }
        let certificate = try Certificate(derEncoded: der)
        #expect(certificate.extensions.isEmpty)
        #expect(certificate.subject.commonName == "hand made")
        #expect(certificate.basicConstraints == nil)
        #expect(!certificate.isCertificateAuthority)
    }

    @Test func rejectsDuplicateExtensions() throws {
        let der = try Self.handMade { writer in
            try Self.standardFields(&writer) { list in
                for _ in 0..<2 {
                    list.appendSequence { item in
                        item.appendObjectIdentifier(.subjectKeyIdentifier)
                        item.appendOctetString([0x04, 0x01, 0x01])
                    }
                }
            }
        }
        expectCryptoError(.invalidCertificate) { try Certificate(derEncoded: der) }
    }

    @Test func rejectsAnEmptyExtensionsList() throws {
        let der = try Self.handMade { writer in try Self.standardFields(&writer) { _ in } }
        expectCryptoError(.invalidCertificate) { try Certificate(derEncoded: der) }
    }

    @Test func rejectsUnknownVersions() throws {
        for version in [3, -1, Int64.max, Int64.min] {
            let der = try Self.handMade { writer in
                try Self.standardFields(&writer, version: version)
            }
            expectCryptoError(.invalidCertificate) { try Certificate(derEncoded: der) }
        }
    }

    @Test func rejectsASignatureWithUnusedBits() throws {
        // A zero octet after the signature keeps the padding bit zero, so the BIT STRING is
        // valid DER; a signature is whole octets, so the certificate is still refused.
        let der = try Self.handMade(unusedBits: 1, signatureTail: [0x00]) { writer in
            try Self.standardFields(&writer)
        }
        expectCryptoError(.invalidCertificate) { try Certificate(derEncoded: der) }
    }

    @Test func rejectsAnEmptyRelativeDistinguishedName() throws {
        expectCryptoError(.invalidCertificate) {
            try DistinguishedName(derEncoded: [0x30, 0x02, 0x31, 0x00])
        }
        expectCryptoError(.derTrailingBytes) {
            try DistinguishedName(derEncoded: [0x30, 0x00, 0x00])
        }
        let der = try Self.handMade { writer in
            try Self.standardFields(&writer, name: [0x30, 0x02, 0x31, 0x00])
        }
        expectCryptoError(.invalidCertificate) { try Certificate(derEncoded: der) }
    }

    /// A name attribute whose value is an INTEGER is well-formed DER (the strict reader keeps
    /// it, with no text) but not a certificate OpenSSL accepts.
    @Test func reportsWhatOnlyOpenSSLRefuses() throws {
        var name = DERWriter()
        try name.appendSequence { (sequence) throws(CryptoError) in
            try sequence.appendSet { (set) throws(CryptoError) in
                set.appendSequence { pair in
                    pair.appendObjectIdentifier(.commonName)
                    pair.appendInteger(5)
                }
            }
        }
        let parsed = try DistinguishedName(derEncoded: name.bytes)
        #expect(parsed.attributes.first?.value == nil)
        #expect(parsed.attributes.first?.valueTag == .integer)
        #expect(parsed.description == "CN=#020105")
        let der = try Self.handMade { writer in try Self.standardFields(&writer, name: name.bytes) }
        let error = try #require(throws: CryptoError.self) { try Certificate(derEncoded: der) }
        #expect(error.code == .invalidCertificate)
        #expect(!error.openSSLErrors.isEmpty)
    }

    @Test func readsEveryKindOfGeneralName() throws {
        let directory = try DistinguishedName([.commonName("dir")])
        var san = DERWriter()
        try san.appendSequence { (names) throws(CryptoError) in
            names.appendConstructed(.contextSpecific(0, constructed: true)) { other in
                other.appendObjectIdentifier(.tcgTPMModel)
                other.appendExplicit(0) { $0.appendNull() }
            }
            names.appendElement(
                .contextSpecific(1, constructed: false), contents: Array("a@b".utf8))
            names.appendElement(
                .contextSpecific(2, constructed: false), contents: Array("x.org".utf8))
            names.appendConstructed(.contextSpecific(3, constructed: true)) { $0.appendNull() }
            try names.appendExplicit(4) { (inner) throws(CryptoError) in
                try inner.appendEncoded(directory.derEncoded)
            }
            names.appendElement(
                .contextSpecific(6, constructed: false), contents: Array("u:x".utf8))
            names.appendElement(.contextSpecific(7, constructed: false), contents: [127, 0, 0, 1])
            names.appendObjectIdentifier(.fidoAAGUID, tag: .contextSpecific(8, constructed: false))
        }
        let der = try Self.handMade { writer in
            try Self.standardFields(&writer) { list in
                list.appendSequence { item in
                    item.appendObjectIdentifier(.subjectAltName)
                    item.appendOctetString(san.bytes)
                }
            }
        }
        let names = try #require(try Certificate(derEncoded: der).subjectAlternativeNames)
        #expect(
            names == [
                .otherName(type: .tcgTPMModel, value: [0x05, 0x00]), .rfc822Name("a@b"),
                .dnsName("x.org"),
                .other(
                    tag: .contextSpecific(3, constructed: true), encoded: [0xa3, 0x02, 0x05, 0x00]),
                .directoryName(directory), .uniformResourceIdentifier("u:x"),
                .ipAddress([127, 0, 0, 1]), .registeredID(.fidoAAGUID),
            ])
        #expect(names.map(\.description).contains("DirName:CN=dir"))
        for bad in [[0x30, 0x02, 0x05, 0x00], [0x30, 0x02, 0x89, 0x00]] as [[UInt8]] {
            let rejected = try Self.handMade { writer in
                try Self.standardFields(&writer) { list in
                    list.appendSequence { item in
                        item.appendObjectIdentifier(.subjectAltName)
                        item.appendOctetString(bad)
                    }
                }
            }
            expectCryptoError(.invalidCertificate, field: "2.5.29.17") {
                try Certificate(derEncoded: rejected)
            }
        }
    }

    @Test func rejectsANegativePathLength() {
        expectCryptoError(.derInvalidValue) {
            try BasicConstraints(derEncoded: [0x30, 0x06, 0x01, 0x01, 0xff, 0x02, 0x01, 0xff])
        }
        #expect(
            (try? BasicConstraints(derEncoded: [0x30, 0x06, 0x01, 0x01, 0xff, 0x02, 0x01, 0x02]))
                == BasicConstraints(isCertificateAuthority: true, pathLengthConstraint: 2))
    }

    @Test func refusesNamesLargerThanTheReaderLimit() throws {
        let huge = try DistinguishedName.Attribute(
            type: .commonName, value: String(repeating: "a", count: 1 << 20))
        expectCryptoError(.derLimitExceeded) { try DistinguishedName([huge]) }
    }

    @Test func rejectsMalformedKnownExtensions() throws {
        let root = try TestCertificateAuthority(
            privateKey: PrivateKey(rawScalar: [UInt8](repeating: 7, count: 32), kind: .p256),
            subject: DistinguishedName([.commonName("Root")]), serialNumber: [1],
            notBefore: 1_704_067_200, notAfter: 1_804_067_200)
        for (oid, value) in [
            (ASN1ObjectIdentifier.basicConstraints, [0x30, 0x03, 0x01, 0x01, 0x01]),  // BOOLEAN 01
            (.keyUsage, [0x03, 0x02, 0x08, 0x80]),  // 8 unused bits
            (.extendedKeyUsage, [0x30, 0x00]),  // empty SEQUENCE OF
            (.subjectAltName, [0x30, 0x03, 0x82, 0x01, 0x80]),  // dNSName not IA5
            (.fidoAAGUID, [0x04, 0x02, 0x01, 0x02]),  // AAGUID of 2 bytes
        ] as [(ASN1ObjectIdentifier, [UInt8])] {
            var builder = try root.builder(
                subject: DistinguishedName([.commonName("Leaf")]),
                subjectKey: PrivateKey(rawScalar: [UInt8](repeating: 9, count: 32), kind: .p256)
                    .publicKey,
                serialNumber: [2], notBefore: 1_704_067_200, notAfter: 1_804_067_200)
            builder.additionalExtensions = [
                CertificateExtension(oid: oid, isCritical: false, value: value)
            ]
            expectCryptoError(.invalidCertificate, field: oid.dotted) {
                try builder.sign(with: root.privateKey)
            }
        }
    }

    static func lastRange(of needle: [UInt8], in haystack: [UInt8]) -> Range<Int>? {
        guard haystack.count >= needle.count else { return nil }
        for start in stride(from: haystack.count - needle.count, through: 0, by: -1)
        where Array(haystack[start..<start + needle.count]) == needle {
            return start..<start + needle.count
        }
        return nil
    }
}
