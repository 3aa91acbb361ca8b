@_spi(Fido2Internals) import Fido2Crypto
import Fido2Encoding
import Fido2TestSupport
import Fido2Vectors
import Foundation
import Testing

/// Chain verification with OpenSSL's X509_STORE: the W3C vectors against their attestation
/// root, the real registrations as far as the roots in the file allow, and one test per way a
/// chain can fail, each with its typed error.
@Suite struct X509ChainVerificationTests {
    static let year2024: Int64 = 1_704_067_200  // 2024-01-01T00:00:00Z
    static let year2025: Int64 = 1_735_689_600  // 2025-01-01T00:00:00Z
    static let year2026: Int64 = 1_767_225_600  // 2026-01-01T00:00:00Z
    static let year2034: Int64 = 2_019_686_400  // 2034-01-01T00:00:00Z

    /// A P-256 key whose scalar is SHA-256 of `label`.
    static func key(_ label: String) throws -> PrivateKey {
        try PrivateKey(rawScalar: DigestAlgorithm.sha256.hash(Array(label.utf8)), kind: .p256)
    }

    static func name(_ commonName: String) throws -> DistinguishedName {
        try DistinguishedName([.organization("fido2kit tests"), .commonName(commonName)])
    }

    static func root(
        _ label: String = "root", pathLength: Int? = nil
    ) throws
        -> TestCertificateAuthority
    {
        try TestCertificateAuthority(
            privateKey: key(label), subject: name(label), serialNumber: [1], notBefore: year2024,
            notAfter: year2034, pathLengthConstraint: pathLength)
    }

    static func leaf(
        of issuer: TestCertificateAuthority, notAfter: Int64 = year2034,
        extensions: [CertificateExtension] = []
    ) throws -> Certificate {
        var builder = try issuer.builder(
            subject: name("leaf"), subjectKey: key("leaf").publicKey, serialNumber: [3],
            notBefore: year2024, notAfter: notAfter)
        builder.basicConstraints = BasicConstraints(isCertificateAuthority: false)
        builder.keyUsage = .digitalSignature
        builder.additionalExtensions = extensions
        return try builder.sign(with: issuer.privateKey)
    }

    // MARK: W3C vectors

    @Test func verifiesEveryW3CChainToTheAttestationRoot() throws {
        let root = try Certificate(derEncoded: X509TestVectors.w3cRoot())
        let verifier = try CertificateChainVerifier(trustAnchors: [root])
        let chains = try X509TestVectors.w3cChains()
        #expect(
            chains.map(\.caseID).sorted()
                == [
                    "android-key-es256", "apple-es256", "fido-u2f-es256", "packed-ed448",
                    "packed-eddsa", "packed-es256", "packed-es384", "packed-es512",
                    "packed-rs256", "tpm-es256",
                ])
        for chain in chains {
            let certificates = try chain.certificates.map { try Certificate(derEncoded: $0) }
            for time in [Self.year2025, nil] {
                let path = try verifier.verify(chain: certificates, at: time)
                #expect(path == certificates + [root], "\(chain.caseID)")
            }
        }
    }

    @Test func verifiesTheW3CAttestationCertificateSerials() throws {
        for chain in try X509TestVectors.w3cChains() {
            let leaf = try Certificate(derEncoded: try #require(chain.certificates.first))
            let values = try X509TestVectors.w3cRegistrationValues(chain.caseID)
            let serial = Hex.bytes(try #require(values["attestation_cert_serial_number"]))
            #expect(Array(leaf.serialNumber.drop { $0 == 0 }) == serial, "\(chain.caseID)")
        }
    }

    // MARK: Real registrations

    /// The clock for cases without a pinned time, fixed so that the verdicts below do not
    /// change as certificates expire: 2026-11-01T00:00:00Z.
    static let referenceTime: Int64 = 1_793_491_200

    /// Every chain of `real-registrations.json` (attestation statements and SafetyNet JWS
    /// headers), verified at the case's pinned time, or at ``referenceTime``, with the top
    /// certificate of the chain as anchor. The file holds no vendor roots: only the
    /// android-key chains of reg-011, reg-025 and reg-026 end in a self-signed root (Google's
    /// hardware attestation root, serial f92009e853b6b045); for every other chain the anchor
    /// is the topmost certificate given (partial chain), which checks every signature below
    /// it but cannot establish trust, and the root it needs is listed here.
    @Test func verifiesRealRegistrationChainsAsFarAsTheFileAllows() throws {
        let chains = try X509TestVectors.realChains()
        var selfRooted: [String] = []
        var missingRoots: Set<String> = []
        var verified: [String] = []
        var failures: [String: CryptoError.Code] = [:]
        var inconsistent: [String] = []
        for chain in chains {
            let certificates = try chain.certificates.map { try Certificate(derEncoded: $0) }
            let top = try #require(certificates.last)
            if top.isIssued(by: top) {
                selfRooted.append(chain.caseID)
            } else {
                missingRoots.insert(top.issuer.commonName ?? top.issuer.description)
            }
            let verifier = try CertificateChainVerifier(trustAnchors: [top])
            do {
                let path = try verifier.verify(
                    chain: certificates, at: chain.pinnedTime ?? Self.referenceTime)
                #expect(path == certificates, "\(chain.caseID)")
                verified.append(chain.caseID)
            } catch let error as CryptoError {
                failures[chain.caseID] = error.code
            } catch {
                Issue.record("expected a CryptoError, got \(error)")
            }
            // Consistency whatever the clock: at the latest notBefore every certificate is
            // within its validity period.
            let start = try #require(certificates.map(\.notBefore).max())
            if (try? verifier.verify(chain: certificates, at: start)) == nil {
                inconsistent.append(chain.caseID)
            }
        }
        #expect(chains.count == 40)
        #expect(selfRooted == ["reg-011", "reg-025", "reg-026"])
        // Expired at the reference time (no pinned time): the Microsoft TPM intermediates of
        // reg-020..022 (2025), GTS CA 1O1 of reg-028 (2021, the case expects "has expired"),
        // Apple's one-day leaf of reg-030 (2020).
        // reg-035 and reg-036: the AIK certificate's authorityKeyIdentifier is malformed (a
        // constructed [0]); OpenSSL marks the certificate invalid and finds no issuer.
        #expect(
            failures == [
                "reg-020": .certificateExpired, "reg-021": .certificateExpired,
                "reg-022": .certificateExpired, "reg-028": .certificateExpired,
                "reg-030": .certificateExpired, "reg-035": .untrustedCertificate,
                "reg-036": .untrustedCertificate,
            ])
        #expect(verified.count == 33)
        #expect(inconsistent == ["reg-035", "reg-036"])
        #expect(
            missingRoots == [
                "Yubico U2F Root CA Serial 457200631", "FIDO2 TEST ROOT", "GlobalSign Root CA",
                "GlobalSign", "Apple WebAuthn Root CA",
                "Microsoft TPM Root Certificate Authority 2014",
                "FAKE Android Keystore Software Attestation Root FAKE",
                "FIDO Fake TPM Root Certificate Authority 2018", "Batch Certificate", "FIDOTEST",
            ])
    }

    /// reg-003's relying party trusts only GlobalSign R2 for packed (not in the file); any
    /// anchor set without the Yubico U2F root leaves the chain untrusted at the leaf.
    @Test func rejectsReg003WithoutTheYubicoRoot() throws {
        let chain = try #require(try X509TestVectors.realChains().first { $0.caseID == "reg-003" })
        let leaf = try Certificate(derEncoded: try #require(chain.certificates.first))
        let verifier = try CertificateChainVerifier(trustAnchorsDER: [X509TestVectors.w3cRoot()])
        let error = try #require(throws: CryptoError.self) { try verifier.verify(leaf) }
        #expect(error.code == .untrustedCertificate)
        #expect(error.depth == 0)
    }

    @Test func reportsTheMalformedAuthorityKeyIdentifierOfReg035() throws {
        let chain = try #require(try X509TestVectors.realChains().first { $0.caseID == "reg-035" })
        let certificates = try chain.certificates.map { try Certificate(derEncoded: $0) }
        #expect(certificates[0].findExtension(.authorityKeyIdentifier) != nil)
        #expect(certificates[0].authorityKeyIdentifier == nil)
        let verifier = try CertificateChainVerifier(trustAnchors: [certificates[1]])
        let error = try #require(throws: CryptoError.self) {
            try verifier.verify(chain: certificates, at: chain.pinnedTime)
        }
        #expect(error.code == .untrustedCertificate)
        #expect(error.openSSLErrors.contains { $0.contains("invalid certificate") }, "\(error)")
    }

    // MARK: Failures, one typed error each

    @Test func rejectsAnExpiredLeaf() throws {
        let root = try Self.root()
        let leaf = try Self.leaf(of: root, notAfter: Self.year2025)
        let verifier = try CertificateChainVerifier(trustAnchors: [root.certificate])
        #expect(try verifier.verify(leaf, at: Self.year2025 - 1) == [leaf, root.certificate])
        let error = try #require(throws: CryptoError.self) {
            try verifier.verify(leaf, at: Self.year2026)
        }
        #expect(error.code == .certificateExpired)
        #expect(error.depth == 0)
        #expect(error.openSSLErrors.first == "certificate has expired")
    }

    @Test func rejectsAChainBeforeItsValidity() throws {
        let root = try Certificate(derEncoded: X509TestVectors.w3cRoot())
        let chain = try #require(try X509TestVectors.w3cChains().first)
        let leaf = try Certificate(derEncoded: try #require(chain.certificates.first))
        let verifier = try CertificateChainVerifier(trustAnchors: [root])
        let error = try #require(throws: CryptoError.self) {
            try verifier.verify(leaf, at: Self.year2024 - 1)
        }
        #expect(error.code == .certificateNotYetValid)
        #expect(error.depth != nil)
        let expired = try #require(throws: CryptoError.self) {
            try verifier.verify(leaf, at: root.notAfter + 1)
        }
        #expect(expired.code == .certificateExpired)
    }

    @Test func rejectsAChainUnderTheWrongAnchor() throws {
        let chain = try #require(try X509TestVectors.w3cChains().first)
        let leaf = try Certificate(derEncoded: try #require(chain.certificates.first))
        let verifier = try CertificateChainVerifier(trustAnchors: [Self.root().certificate])
        let error = try #require(throws: CryptoError.self) {
            try verifier.verify(leaf, at: Self.year2025)
        }
        #expect(error.code == .untrustedCertificate)
        #expect(error.depth == 0)
        let empty = try CertificateChainVerifier(trustAnchors: [])
        #expect(throws: CryptoError.self) { try empty.verify(leaf, at: Self.year2025) }
    }

    @Test func rejectsATamperedSignatureByte() throws {
        let root = try Certificate(derEncoded: X509TestVectors.w3cRoot())
        let chain = try #require(
            try X509TestVectors.w3cChains().first { $0.caseID == "packed-es256" })
        var der = try #require(chain.certificates.first)
        der[der.count - 1] ^= 0x01  // the last octet of the ECDSA s value
        let leaf = try Certificate(derEncoded: der)
        #expect(!leaf.isSignatureValid(issuerKey: try root.publicKey))
        #expect(!leaf.isIssued(by: root))
        let verifier = try CertificateChainVerifier(trustAnchors: [root])
        let error = try #require(throws: CryptoError.self) {
            try verifier.verify(leaf, at: Self.year2025)
        }
        #expect(error.code == .certificateSignatureInvalid)
        #expect(error.depth == 0)
    }

    @Test func rejectsAnIntermediateThatIsNotACA() throws {
        let root = try Self.root()
        var builder = try root.builder(
            subject: Self.name("not a CA"), subjectKey: Self.key("intermediate").publicKey,
            serialNumber: [2], notBefore: Self.year2024, notAfter: Self.year2034)
        builder.basicConstraints = BasicConstraints(isCertificateAuthority: false)
        builder.keyUsage = [.keyCertSign, .digitalSignature]
        let intermediate = try TestCertificateAuthorityShim.make(
            key: Self.key("intermediate"), certificate: builder.sign(with: root.privateKey))
        let leaf = try Self.leaf(of: intermediate)
        let verifier = try CertificateChainVerifier(trustAnchors: [root.certificate])
        let error = try #require(throws: CryptoError.self) {
            try verifier.verify(leaf, intermediates: [intermediate.certificate], at: Self.year2025)
        }
        #expect(error.code == .certificateConstraintViolation)
        #expect(error.depth == 1)
    }

    @Test func rejectsAnExceededPathLength() throws {
        let root = try Self.root(pathLength: 0)
        let intermediate = try root.issueIntermediateAuthority(
            privateKey: Self.key("intermediate"), subject: Self.name("intermediate"),
            serialNumber: [2], notBefore: Self.year2024, notAfter: Self.year2034)
        let leaf = try Self.leaf(of: intermediate)
        let verifier = try CertificateChainVerifier(trustAnchors: [root.certificate])
        let error = try #require(throws: CryptoError.self) {
            try verifier.verify(leaf, intermediates: [intermediate.certificate], at: Self.year2025)
        }
        #expect(error.code == .certificateConstraintViolation)
        #expect(error.openSSLErrors.first == "path length constraint exceeded")
        // The same chain verifies when the intermediate itself is the anchor.
        let partial = try CertificateChainVerifier(trustAnchors: [intermediate.certificate])
        #expect(try partial.verify(leaf, at: Self.year2025) == [leaf, intermediate.certificate])
    }

    @Test func rejectsAnIssuerWithoutKeyCertSign() throws {
        let root = try Self.root()
        var builder = try root.builder(
            subject: Self.name("intermediate"), subjectKey: Self.key("intermediate").publicKey,
            serialNumber: [2], notBefore: Self.year2024, notAfter: Self.year2034)
        builder.basicConstraints = BasicConstraints(isCertificateAuthority: true)
        builder.keyUsage = .digitalSignature
        let intermediate = try TestCertificateAuthorityShim.make(
            key: Self.key("intermediate"), certificate: builder.sign(with: root.privateKey))
        let leaf = try Self.leaf(of: intermediate)
        let verifier = try CertificateChainVerifier(trustAnchors: [root.certificate])
        let error = try #require(throws: CryptoError.self) {
            try verifier.verify(leaf, intermediates: [intermediate.certificate], at: Self.year2025)
        }
        #expect(error.code == .certificateConstraintViolation)
        #expect(error.depth == 1)
    }

    @Test func rejectsUnknownCriticalExtensionsUnlessTheCallerHandlesThem() throws {
        let root = try Self.root()
        let private1 = try #require(ASN1ObjectIdentifier(dotted: "1.3.6.1.4.1.99999.1"))
        let private2 = try #require(ASN1ObjectIdentifier(dotted: "1.3.6.1.4.1.99999.2"))
        let leaf = try Self.leaf(
            of: root,
            extensions: [
                CertificateExtension(oid: private1, isCritical: true, value: [0x05, 0x00])
            ])
        let strict = try CertificateChainVerifier(trustAnchors: [root.certificate])
        let error = try #require(throws: CryptoError.self) {
            try strict.verify(leaf, at: Self.year2025)
        }
        #expect(error.code == .unhandledCriticalExtension)
        #expect(error.depth == 0)
        let other = try CertificateChainVerifier(
            trustAnchors: [root.certificate], allowedCriticalExtensions: [private2])
        #expect(throws: CryptoError.self) { try other.verify(leaf, at: Self.year2025) }
        let allowing = try CertificateChainVerifier(
            trustAnchors: [root.certificate], allowedCriticalExtensions: [private1, private2])
        #expect(try allowing.verify(leaf, at: Self.year2025) == [leaf, root.certificate])
        // A non-critical unknown extension never needs permission.
        let relaxed = try Self.leaf(
            of: root,
            extensions: [
                CertificateExtension(oid: private1, isCritical: false, value: [0x05, 0x00])
            ])
        #expect(try strict.verify(relaxed, at: Self.year2025) == [relaxed, root.certificate])
    }

    /// A violation without a code of its own (here a name constraint) is
    /// ``CryptoError/Code-swift.struct/certificateChainInvalid`` with OpenSSL's text.
    @Test func reportsOtherViolationsWithOpenSSLsText() throws {
        // nameConstraints: permittedSubtrees [0] { { dNSName "example.org" } }
        let constraints = Hex.bytes("3011a00f300d820b") + Array("example.org".utf8)
        let key = try Self.key("constrained")
        var rootBuilder = CertificateBuilder(
            serialNumber: [1], issuer: try Self.name("constrained"),
            subject: try Self.name("constrained"), notBefore: Self.year2024,
            notAfter: Self.year2034, subjectPublicKey: try key.publicKey)
        rootBuilder.basicConstraints = BasicConstraints(isCertificateAuthority: true)
        rootBuilder.keyUsage = [.keyCertSign]
        rootBuilder.additionalExtensions = [
            CertificateExtension(oid: .nameConstraints, isCritical: true, value: constraints)
        ]
        let root = try TestCertificateAuthority(
            privateKey: key, certificate: rootBuilder.sign(with: key))
        let verifier = try CertificateChainVerifier(trustAnchors: [root.certificate])
        for (host, allowed) in [("www.example.org", true), ("www.example.com", false)] {
            var san = DERWriter()
            san.appendSequence {
                $0.appendElement(
                    .contextSpecific(2, constructed: false), contents: Array(host.utf8))
            }
            let leaf = try Self.leaf(
                of: root,
                extensions: [
                    CertificateExtension(oid: .subjectAltName, isCritical: false, value: san.bytes)
                ])
            if allowed {
                #expect(try verifier.verify(leaf, at: Self.year2025).count == 2)
                continue
            }
            let error = try #require(throws: CryptoError.self) {
                try verifier.verify(leaf, at: Self.year2025)
            }
            #expect(error.code == .certificateChainInvalid)
            #expect(error.openSSLErrors.first == "permitted subtree violation")
        }
    }

    @Test func buildsThePathFromUnorderedIntermediates() throws {
        let root = try Self.root()
        let first = try root.issueIntermediateAuthority(
            privateKey: Self.key("first"), subject: Self.name("first"), serialNumber: [2],
            notBefore: Self.year2024, notAfter: Self.year2034)
        let second = try first.issueIntermediateAuthority(
            privateKey: Self.key("second"), subject: Self.name("second"), serialNumber: [3],
            notBefore: Self.year2024, notAfter: Self.year2034)
        let stranger = try Self.root("stranger").certificate
        let leaf = try Self.leaf(of: second)
        let verifier = try CertificateChainVerifier(trustAnchors: [stranger, root.certificate])
        let path = try verifier.verify(
            leaf, intermediates: [stranger, first.certificate, second.certificate],
            at: Self.year2025)
        #expect(path == [leaf, second.certificate, first.certificate, root.certificate])
        let missing = try #require(throws: CryptoError.self) {
            try verifier.verify(leaf, intermediates: [second.certificate], at: Self.year2025)
        }
        #expect(missing.code == .untrustedCertificate)
        #expect(missing.depth == 1)
    }

    @Test func rejectsAnEmptyChainAndBadAnchors() throws {
        let verifier = try CertificateChainVerifier(trustAnchors: [])
        expectCryptoError(.invalidArgument) { try verifier.verify(chain: []) }
        expectCryptoError(.derTruncated) {
            try CertificateChainVerifier(trustAnchorsDER: [[0x30, 0x03, 0x02, 0x01]])
        }
        #expect(verifier.trustAnchors.isEmpty)
    }

    @Test func verifiesConcurrentlyWithOneVerifier() async throws {
        let root = try Certificate(derEncoded: X509TestVectors.w3cRoot())
        let verifier = try CertificateChainVerifier(trustAnchors: [root])
        let leaves = try X509TestVectors.w3cChains().map {
            try Certificate(derEncoded: try #require($0.certificates.first))
        }
        let counts = try await withThrowingTaskGroup(of: Int.self) { group in
            for index in 0..<64 {
                let leaf = leaves[index % leaves.count]
                group.addTask { try verifier.verify(leaf, at: Self.year2025).count }
            }
            return try await group.reduce(into: []) { $0.append($1) }
        }
        #expect(counts == [Int](repeating: 2, count: 64))
    }
}

/// Wraps a key and a certificate that is deliberately not a proper CA certificate, so the
/// tests can issue from it (``TestCertificateAuthority`` refuses non-CA certificates).
struct TestCertificateAuthorityShim {
    let privateKey: PrivateKey
    let certificate: Certificate

    static func make(key: PrivateKey, certificate: Certificate) -> TestCertificateAuthorityShim {
        TestCertificateAuthorityShim(privateKey: key, certificate: certificate)
    }
}

extension X509ChainVerificationTests {
    static func leaf(of issuer: TestCertificateAuthorityShim) throws -> Certificate {
        let subjectKey = try key("leaf").publicKey
        var builder = CertificateBuilder(
            serialNumber: [3], issuer: issuer.certificate.subject, subject: try name("leaf"),
            notBefore: year2024, notAfter: year2034, subjectPublicKey: subjectKey)
        builder.basicConstraints = BasicConstraints(isCertificateAuthority: false)
        return try builder.sign(with: issuer.privateKey)
    }
}
