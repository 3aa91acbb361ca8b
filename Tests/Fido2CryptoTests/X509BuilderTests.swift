@_spi(Fido2Internals) import Fido2Crypto
import Fido2Encoding
import Fido2TestSupport
import Fido2Vectors
import Foundation
import Testing

/// Building certificates: byte-identical output for identical inputs, the W3C vectors' own
/// certificates rebuilt from their keys, WebAuthn §8.2.1 packed attestation certificates, and
/// the builder's refusals.
@Suite struct X509BuilderTests {
    static let year2024: Int64 = 1_704_067_200
    static let year2025: Int64 = 1_735_689_600
    static let year3024: Int64 = 33_260_976_000
    static let aaguid = Hex.bytes("f1d0f1d0f1d0f1d0f1d0f1d0f1d0f1d0")

    static func key(_ label: String, kind: KeyKind = .p256) throws -> PrivateKey {
        let digest: DigestAlgorithm = kind == .p256 ? .sha256 : kind == .p384 ? .sha384 : .sha512
        var scalar = digest.hash(Array(label.utf8))
        if kind == .p521 { scalar = [0x00, 0x01] + scalar }  // 66 bytes, below n
        return try PrivateKey(rawScalar: scalar, kind: kind)
    }

    static func makeRootAndLeaf(
        rootKind: KeyKind = .p256
    ) throws -> (
        TestCertificateAuthority, Certificate
    ) {
        let root = try TestCertificateAuthority(
            privateKey: key("root", kind: rootKind),
            subject: DistinguishedName([
                .country("AA"), .organization("fido2kit"), .commonName("fido2kit test root"),
            ]),
            serialNumber: Hex.bytes("8001020304050607"), notBefore: year2024,
            notAfter: year3024)
        let leaf = try root.issuePackedAttestationCertificate(
            subjectKey: key("attestation").publicKey, country: "AA", organization: "fido2kit",
            commonName: "fido2kit packed attestation", aaguid: aaguid, serialNumber: [0x2a],
            notBefore: year2024, notAfter: year3024)
        return (root, leaf)
    }

    @Test func buildsByteIdenticalCertificatesFromIdenticalInputs() throws {
        for kind in [KeyKind.p256, .p384, .p521] {
            let (firstRoot, firstLeaf) = try Self.makeRootAndLeaf(rootKind: kind)
            let (secondRoot, secondLeaf) = try Self.makeRootAndLeaf(rootKind: kind)
            #expect(firstRoot.certificate.derEncoded == secondRoot.certificate.derEncoded)
            #expect(firstLeaf.derEncoded == secondLeaf.derEncoded)
            let algorithm = try CertificateSignatureAlgorithm.default(for: kind)
            #expect(firstRoot.certificate.signatureAlgorithm == algorithm.objectIdentifier)
        }
    }

    @Test func buildsAnRSARootDeterministically() throws {
        // The W3C vectors' RSA key (p = 2^1279 − 1, q = 2^2203 − 1).
        let values = try X509TestVectors.w3cRegistrationValues("packed-rs256")
        let rsa = try PrivateKey(
            rsaPrimeP: Hex.bytes(try #require(values["private_key_p"])),
            primeQ: Hex.bytes(try #require(values["private_key_q"])),
            publicExponent: [0x01, 0x00, 0x01])
        let make = { () throws -> TestCertificateAuthority in
            try TestCertificateAuthority(
                privateKey: rsa, subject: DistinguishedName([.commonName("RSA root")]),
                serialNumber: [7], notBefore: Self.year2024, notAfter: Self.year3024)
        }
        let first = try make()
        #expect(try make().certificate.derEncoded == first.certificate.derEncoded)
        #expect(first.certificate.signatureAlgorithm == .sha256WithRSAEncryption)
        let leaf = try first.issuePackedAttestationCertificate(
            subjectKey: Self.key("attestation").publicKey, country: "AA", organization: "o",
            commonName: "cn", aaguid: nil, serialNumber: [8], notBefore: Self.year2024,
            notAfter: Self.year3024)
        let verifier = try CertificateChainVerifier(trustAnchors: [first.certificate])
        #expect(try verifier.verify(leaf, at: Self.year2025) == [leaf, first.certificate])
    }

    /// The W3C attestation root rebuilt from its published key, serial, names and validity:
    /// the TBSCertificate matches byte for byte, and so does the whole certificate when the
    /// spec's signature is RFC 6979's.
    @Test func rebuildsTheW3CAttestationRoot() throws {
        let published = try Certificate(derEncoded: X509TestVectors.w3cRoot())
        let key = try X509TestVectors.w3cRootPrivateKey()
        let root = try TestCertificateAuthority(
            privateKey: key,
            subject: DistinguishedName([
                .commonName("WebAuthn test vectors"), .organization("W3C"),
                .organizationalUnit("Authenticator Attestation CA"), .country("AA"),
            ]),
            serialNumber: Hex.bytes("ed7f905d8bd0b414d1784913170a90b6"),
            notBefore: Self.year2024, notAfter: Self.year3024)
        #expect(root.certificate.tbsCertificateDER == published.tbsCertificateDER)
        #expect(root.certificate.subjectKeyIdentifier == published.subjectKeyIdentifier)
        #expect(root.certificate.derEncoded == published.derEncoded)
    }

    /// Every W3C attestation certificate (packed ×6, tpm, android-key, apple, fido-u2f)
    /// rebuilt under the published root from its subject, key, serial number and validity, with
    /// the format's own extensions (EKU and SAN for tpm, KeyDescription for android-key, the
    /// nonce for apple) passed as caller extensions: byte for byte the published certificate.
    @Test func rebuildsEveryW3CAttestationCertificate() throws {
        let rootCertificate = try Certificate(derEncoded: X509TestVectors.w3cRoot())
        let root = try TestCertificateAuthority(
            privateKey: X509TestVectors.w3cRootPrivateKey(), certificate: rootCertificate)
        let standard: Set<ASN1ObjectIdentifier> = [
            .basicConstraints, .keyUsage, .subjectKeyIdentifier, .authorityKeyIdentifier,
        ]
        var rebuiltCount = 0
        for chain in try X509TestVectors.w3cChains() {
            let published = try Certificate(derEncoded: try #require(chain.certificates.first))
            let values = try X509TestVectors.w3cRegistrationValues(chain.caseID)
            var builder = try root.builder(
                subject: published.subject, subjectKey: published.publicKey,
                serialNumber: Hex.bytes(try #require(values["attestation_cert_serial_number"])),
                notBefore: published.notBefore, notAfter: published.notAfter)
            builder.basicConstraints = BasicConstraints(isCertificateAuthority: false)
            builder.keyUsage = .digitalSignature
            builder.additionalExtensions = published.extensions.filter {
                !standard.contains($0.oid)
            }
            let rebuilt = try builder.sign(with: root.privateKey)
            #expect(rebuilt.tbsCertificateDER == published.tbsCertificateDER, "\(chain.caseID)")
            #expect(rebuilt.derEncoded == published.derEncoded, "\(chain.caseID)")
            rebuiltCount += 1
        }
        #expect(rebuiltCount == 10)
    }

    @Test func issuesAPackedAttestationCertificateMeetingSection821() throws {
        let (root, leaf) = try Self.makeRootAndLeaf()
        #expect(leaf.version == 3)
        #expect(leaf.subject.country == "AA")
        #expect(leaf.subject.attributes.first?.valueTag == .printableString)
        #expect(leaf.subject.organization == "fido2kit")
        #expect(leaf.subject.organizationalUnit == "Authenticator Attestation")
        #expect(leaf.subject.commonName == "fido2kit packed attestation")
        #expect(leaf.issuer == root.certificate.subject)
        #expect(leaf.basicConstraints == BasicConstraints(isCertificateAuthority: false))
        #expect(try #require(leaf.findExtension(.basicConstraints)).isCritical)
        #expect(!leaf.isCertificateAuthority)
        #expect(leaf.keyUsage == .digitalSignature)
        let aaguidExtension = try #require(leaf.findExtension(.fidoAAGUID))
        #expect(!aaguidExtension.isCritical)
        #expect(aaguidExtension.value == [0x04, 0x10] + Self.aaguid)
        #expect(leaf.fidoAAGUID == Self.aaguid)
        #expect(leaf.authorityKeyIdentifier == root.certificate.subjectKeyIdentifier)
        #expect(
            leaf.subjectKeyIdentifier
                == (try CertificateBuilder.keyIdentifier(of: leaf.publicKey)))
        #expect(try leaf.publicKey == Self.key("attestation").publicKey)
        #expect(leaf.isIssued(by: root.certificate))
        #expect(root.certificate.isIssued(by: root.certificate))
        #expect(root.certificate.keyUsage == [.keyCertSign, .cRLSign])
        #expect(root.certificate.notAfter == Self.year3024)
        let verifier = try CertificateChainVerifier(trustAnchors: [root.certificate])
        #expect(try verifier.verify(leaf) == [leaf, root.certificate])
        #expect(try verifier.verify(leaf, at: Self.year2025) == [leaf, root.certificate])
        // PEM round trip of a built certificate.
        #expect(try Certificate(pemEncoded: leaf.pemEncoded) == leaf)
    }

    @Test func issuesAnIntermediateChain() throws {
        let (root, _) = try Self.makeRootAndLeaf()
        let intermediate = try root.issueIntermediateAuthority(
            privateKey: Self.key("intermediate"),
            subject: DistinguishedName([.commonName("intermediate")]), serialNumber: [2],
            notBefore: Self.year2024, notAfter: Self.year3024, pathLengthConstraint: 0)
        #expect(intermediate.certificate.basicConstraints?.pathLengthConstraint == 0)
        let leaf = try intermediate.issuePackedAttestationCertificate(
            subjectKey: Self.key("attestation").publicKey, country: "DE", organization: "o",
            commonName: "cn", aaguid: nil, serialNumber: [3], notBefore: Self.year2024,
            notAfter: Self.year3024)
        #expect(leaf.findExtension(.fidoAAGUID) == nil)
        let verifier = try CertificateChainVerifier(trustAnchors: [root.certificate])
        #expect(
            try verifier.verify(leaf, intermediates: [intermediate.certificate])
                == [leaf, intermediate.certificate, root.certificate])
    }

    @Test func writesCallerExtensionsAndEmptySubjects() throws {
        let (root, _) = try Self.makeRootAndLeaf()
        var builder = try root.builder(
            subject: DistinguishedName([]), subjectKey: Self.key("aik").publicKey,
            serialNumber: [9], notBefore: Self.year2024, notAfter: Self.year3024)
        let tpm = try DistinguishedName([
            DistinguishedName.Attribute(type: .tcgTPMManufacturer, value: "id:FFFFF1D0"),
            DistinguishedName.Attribute(type: .tcgTPMModel, value: "fido2kit"),
            DistinguishedName.Attribute(type: .tcgTPMVersion, value: "id:00000002"),
        ])
        var san = DERWriter()
        san.appendSequence { names in
            names.appendExplicit(4) { $0.appendTrustedEncodedForTests(tpm.derEncoded) }
        }
        var eku = DERWriter()
        eku.appendSequence { $0.appendObjectIdentifier(.tcgKPAIKCertificate) }
        builder.basicConstraints = BasicConstraints(isCertificateAuthority: false)
        builder.additionalExtensions = [
            CertificateExtension(oid: .subjectAltName, isCritical: true, value: san.bytes),
            CertificateExtension(oid: .extendedKeyUsage, isCritical: false, value: eku.bytes),
        ]
        let aik = try builder.sign(with: root.privateKey)
        #expect(aik.subject.isEmpty)
        #expect(aik.subjectAlternativeNames == [.directoryName(tpm)])
        #expect(aik.extendedKeyUsage == [.tcgKPAIKCertificate])
        let verifier = try CertificateChainVerifier(trustAnchors: [root.certificate])
        #expect(try verifier.verify(aik, at: Self.year2025).count == 2)
    }

    @Test func refusesBadInputs() throws {
        let (root, _) = try Self.makeRootAndLeaf()
        let subjectKey = try Self.key("leaf").publicKey
        let base = try root.builder(
            subject: DistinguishedName([.commonName("leaf")]), subjectKey: subjectKey,
            serialNumber: [1], notBefore: Self.year2024, notAfter: Self.year3024)

        var builder = base
        builder.aaguid = [1, 2, 3]
        expectCryptoError(.invalidArgument, field: "aaguid") {
            try builder.sign(with: root.privateKey)
        }
        builder = base
        builder.additionalExtensions = [
            CertificateExtension(oid: .subjectKeyIdentifier, isCritical: false, value: [4, 0])
        ]
        expectCryptoError(.invalidArgument, field: "2.5.29.14") {
            try builder.sign(with: root.privateKey)
        }
        for serial in [[], [0, 0], [UInt8](repeating: 1, count: 21)] as [[UInt8]] {
            builder = base
            builder.serialNumber = serial
            expectCryptoError(.invalidArgument, field: "serialNumber") {
                try builder.sign(with: root.privateKey)
            }
        }
        builder = base
        builder.notAfter = Self.year2024 - 1
        expectCryptoError(.invalidArgument, field: "notAfter") {
            try builder.sign(with: root.privateKey)
        }
        builder = base
        builder.notAfter = 253_402_300_800  // year 10000
        expectCryptoError(.derInvalidValue) { try builder.sign(with: root.privateKey) }
        expectCryptoError(.algorithmKeyMismatch) {
            try base.sign(with: root.privateKey, algorithm: .ecdsaWithSHA384)
        }
        expectCryptoError(.unsupportedKeyType) {
            try base.sign(with: PrivateKey(generating: .ed25519))
        }
        expectCryptoError(.invalidArgument, field: "country") {
            try root.issuePackedAttestationCertificate(
                subjectKey: subjectKey, country: "usa", organization: "o", commonName: "c",
                aaguid: nil, serialNumber: [1], notBefore: Self.year2024,
                notAfter: Self.year3024)
        }
        expectCryptoError(.invalidArgument) {
            try TestCertificateAuthority(
                privateKey: Self.key("other"), certificate: root.certificate)
        }
        let leaf = try base.sign(with: root.privateKey)
        expectCryptoError(.invalidArgument) {
            try TestCertificateAuthority(privateKey: Self.key("leaf"), certificate: leaf)
        }
        expectCryptoError(.derInvalidValue) { try DistinguishedName.Attribute.country("A@") }
    }

    @Test func computesRFC5280KeyIdentifiers() throws {
        let published = try Certificate(derEncoded: X509TestVectors.w3cRoot())
        #expect(
            try CertificateBuilder.keyIdentifier(of: published.publicKey)
                == published.subjectKeyIdentifier)
    }
}

extension DERWriter {
    /// Appends DER the test already has (a Name) through the public, checking entry point.
    mutating func appendTrustedEncodedForTests(_ bytes: [UInt8]) {
        #expect(throws: Never.self) { try appendEncoded(bytes) }
    }
}
