@_spi(Fido2Internals) import Fido2Crypto
import Fido2Vectors
import Testing

/// Revocation checking in `CertificateChainVerifier` with CRLs from the test PKI: a root, an
/// intermediate CA and a leaf it issues, judged at a pinned time inside every validity period.
@Suite struct CertificateRevocationTests {
    static let year2024: Int64 = 1_704_067_200  // 2024-01-01T00:00:00Z
    static let year2025: Int64 = 1_735_689_600  // 2025-01-01T00:00:00Z
    static let year2026: Int64 = 1_767_225_600  // 2026-01-01T00:00:00Z
    static let year2034: Int64 = 2_019_686_400  // 2034-01-01T00:00:00Z
    /// The validation time: 2025-07-02, between the CRLs' thisUpdate and nextUpdate.
    static let now: Int64 = year2025 + 182 * 86_400

    /// A root (serial 01), an intermediate CA (serial 02) and a leaf (serial 03).
    struct PKI {
        typealias Suite = CertificateRevocationTests

        let root: TestCertificateAuthority
        let intermediate: TestCertificateAuthority
        let leaf: Certificate

        init() throws {
            root = try TestCertificateAuthority(
                privateKey: Suite.key("root"), subject: Suite.name("root"), serialNumber: [1],
                notBefore: Suite.year2024, notAfter: Suite.year2034)
            intermediate = try root.issueIntermediateAuthority(
                privateKey: Suite.key("intermediate"), subject: Suite.name("intermediate"),
                serialNumber: [2], notBefore: Suite.year2024, notAfter: Suite.year2034)
            var builder = try intermediate.builder(
                subject: Suite.name("leaf"), subjectKey: Suite.key("leaf").publicKey,
                serialNumber: [3],
                notBefore: Suite.year2024, notAfter: Suite.year2034)
            builder.basicConstraints = BasicConstraints(isCertificateAuthority: false)
            builder.keyUsage = .digitalSignature
            leaf = try builder.sign(with: intermediate.privateKey)
        }

        /// A CRL of `authority` revoking `serials`, current at `now`.
        func crl(
            of authority: TestCertificateAuthority, revoking serials: [[UInt8]] = []
        ) throws -> CertificateRevocationList {
            try authority.issueRevocationList(
                revoking: serials, thisUpdate: Suite.year2025, nextUpdate: Suite.year2026)
        }

        func verifier(
            _ revocation: RevocationCheck, anchors: [Certificate]? = nil
        ) throws -> CertificateChainVerifier {
            try CertificateChainVerifier(
                trustAnchors: anchors ?? [root.certificate], revocation: revocation)
        }

        func verify(
            _ verifier: CertificateChainVerifier, at time: Int64 = Suite.now
        ) throws
            -> [Certificate]
        {
            try verifier.verify(leaf, intermediates: [intermediate.certificate], at: time)
        }

        /// The error `verifier` throws for the chain at `time`.
        func failure(
            _ verifier: CertificateChainVerifier, at time: Int64 = Suite.now,
            sourceLocation: SourceLocation = #_sourceLocation
        ) throws -> CryptoError {
            try #require(throws: CryptoError.self, sourceLocation: sourceLocation) {
                try verify(verifier, at: time)
            }
        }
    }

    static func key(_ label: String) throws -> PrivateKey {
        try PrivateKey(rawScalar: DigestAlgorithm.sha256.hash(Array(label.utf8)), kind: .p256)
    }

    static func name(_ commonName: String) throws -> DistinguishedName {
        try DistinguishedName([.organization("fido2kit revocation tests"), .commonName(commonName)])
    }

    // MARK: Verdicts

    @Test func acceptsAChainWhoseCertificatesAreNotRevoked() throws {
        let pki = try PKI()
        let full = [pki.leaf, pki.intermediate.certificate, pki.root.certificate]
        let lists = [try pki.crl(of: pki.intermediate), try pki.crl(of: pki.root)]
        #expect(try pki.verify(pki.verifier(.leaf(lists))) == full)
        #expect(try pki.verify(pki.verifier(.chain(lists))) == full)
        // Other serials listed do not matter.
        let others = [
            try pki.crl(of: pki.intermediate, revoking: [[4], [0x80, 0x01]]),
            try pki.crl(of: pki.root, revoking: [[3], [5]]),
        ]
        #expect(try pki.verify(pki.verifier(.chain(others))) == full)
    }

    @Test func checksNothingByDefault() throws {
        let pki = try PKI()
        let revoked = [
            try pki.crl(of: pki.intermediate, revoking: [pki.leaf.serialNumber]),
            try pki.crl(of: pki.root, revoking: [pki.intermediate.certificate.serialNumber]),
        ]
        let verifier = try CertificateChainVerifier(trustAnchors: [pki.root.certificate])
        #expect(verifier.revocation == .none)
        #expect(try pki.verify(verifier).count == 3)
        #expect(try pki.verify(pki.verifier(.none)).count == 3)
        #expect(RevocationCheck.none.revocationLists.isEmpty)
        #expect(RevocationCheck.chain(revoked).revocationLists == revoked)
    }

    @Test func rejectsARevokedLeafAtDepthZero() throws {
        let pki = try PKI()
        let lists = [
            try pki.crl(of: pki.intermediate, revoking: [pki.leaf.serialNumber]),
            try pki.crl(of: pki.root),
        ]
        for check in [RevocationCheck.leaf(lists), .chain(lists)] {
            let error = try pki.failure(try pki.verifier(check))
            #expect(error.code == .certificateRevoked, "\(error)")
            #expect(error.depth == 0)
            #expect(error.openSSLErrors.first == "certificate revoked")
        }
        #expect(lists[0].lists(pki.leaf))
        #expect(!lists[1].lists(pki.leaf))
    }

    @Test func rejectsARevokedIntermediateOnlyWhenTheWholeChainIsChecked() throws {
        let pki = try PKI()
        let lists = [
            try pki.crl(of: pki.intermediate),
            try pki.crl(of: pki.root, revoking: [pki.intermediate.certificate.serialNumber]),
        ]
        let error = try pki.failure(try pki.verifier(.chain(lists)))
        #expect(error.code == .certificateRevoked, "\(error)")
        #expect(error.depth == 1)
        #expect(try pki.verify(pki.verifier(.leaf(lists))).count == 3)
    }

    @Test func failsClosedWhenTheIssuersCRLIsMissing() throws {
        let pki = try PKI()
        let none = try pki.failure(try pki.verifier(.leaf([])))
        #expect(none.code == .revocationStatusUnknown, "\(none)")
        #expect(none.depth == 0)
        #expect(none.openSSLErrors.first == "unable to get certificate CRL")
        // The root's CRL does not vouch for the leaf, which the intermediate issued.
        let wrongIssuer = try pki.failure(try pki.verifier(.leaf([pki.crl(of: pki.root)])))
        #expect(wrongIssuer.code == .revocationStatusUnknown)
        #expect(wrongIssuer.depth == 0)
        // Under .chain the intermediate needs the root's CRL.
        let chain = try pki.failure(try pki.verifier(.chain([pki.crl(of: pki.intermediate)])))
        #expect(chain.code == .revocationStatusUnknown, "\(chain)")
        #expect(chain.depth == 1)
    }

    @Test func leavesTheTrustAnchorOutOfScope() throws {
        let pki = try PKI()
        // Anchored at the intermediate: under .chain only the leaf is in scope, and nothing
        // need vouch for the intermediate, whose issuer is not in the path.
        let anchored = try pki.verifier(
            .chain([pki.crl(of: pki.intermediate)]), anchors: [pki.intermediate.certificate])
        #expect(try pki.verify(anchored) == [pki.leaf, pki.intermediate.certificate])
        // Nor does a CRL listing the anchor matter (RFC 5280 §6.1: the anchor is not part of
        // the path); to distrust an anchor, remove it.
        let revokedIntermediate = try pki.crl(
            of: pki.root, revoking: [pki.intermediate.certificate.serialNumber])
        let listed = try pki.verifier(
            .chain([pki.crl(of: pki.intermediate), revokedIntermediate]),
            anchors: [pki.intermediate.certificate])
        #expect(try pki.verify(listed).count == 2)
        // Anchored at the root, the same CRL revokes the intermediate, now in scope.
        let rooted = try pki.verifier(.chain([pki.crl(of: pki.intermediate), revokedIntermediate]))
        let error = try pki.failure(rooted)
        #expect(error.code == .certificateRevoked)
        #expect(error.depth == 1)
        // The self-signed root needs no CRL of its own beyond the one it issues.
        let root = try pki.verifier(.chain([pki.crl(of: pki.intermediate), pki.crl(of: pki.root)]))
        #expect(try pki.verify(root).count == 3)
    }

    @Test func rejectsACRLSignedByAnotherKey() throws {
        let pki = try PKI()
        let forged = try pki.intermediate.revocationListBuilder(
            thisUpdate: Self.year2025, nextUpdate: Self.year2026
        ).sign(with: Self.key("impostor"))
        #expect(forged.issuer == pki.intermediate.certificate.subject)
        #expect(!forged.isSignatureValid(issuerKey: try pki.intermediate.certificate.publicKey))
        let error = try pki.failure(try pki.verifier(.leaf([forged])))
        #expect(error.code == .revocationStatusUnknown, "\(error)")
        #expect(error.depth == 0)
        #expect(error.openSSLErrors.first == "CRL signature failure")
    }

    @Test func rejectsACRLOutsideItsValidityAtThePinnedTime() throws {
        let pki = try PKI()
        let lists = [try pki.crl(of: pki.intermediate)]
        let verifier = try pki.verifier(.leaf(lists))
        #expect(try pki.verify(verifier, at: Self.year2026 - 1).count == 3)
        let expired = try pki.failure(verifier, at: Self.year2026 + 1)
        #expect(expired.code == .revocationStatusUnknown, "\(expired)")
        #expect(expired.depth == 0)
        #expect(expired.openSSLErrors.first == "CRL has expired")
        let early = try pki.failure(verifier, at: Self.year2025 - 1)
        #expect(early.code == .revocationStatusUnknown, "\(early)")
        #expect(early.openSSLErrors.first == "CRL is not yet valid")
    }

    @Test func acceptsACRLWithoutNextUpdateAfterItIsIssued() throws {
        let pki = try PKI()
        let open = try pki.intermediate.issueRevocationList(
            revoking: [], thisUpdate: Self.year2025, nextUpdate: nil)
        #expect(open.nextUpdate == nil)
        #expect(try pki.verify(pki.verifier(.leaf([open])), at: Self.year2034 - 1).count == 3)
    }

    @Test func rejectsACRLFromAnIssuerWithoutCRLSign() throws {
        let pki = try PKI()
        var builder = try pki.root.builder(
            subject: Self.name("no cRLSign"), subjectKey: Self.key("no crl sign").publicKey,
            serialNumber: [6], notBefore: Self.year2024, notAfter: Self.year2034)
        builder.basicConstraints = BasicConstraints(isCertificateAuthority: true)
        builder.keyUsage = .keyCertSign
        let authority = try TestCertificateAuthority(
            privateKey: Self.key("no crl sign"),
            certificate: builder.sign(with: pki.root.privateKey))
        var leafBuilder = try authority.builder(
            subject: Self.name("leaf"), subjectKey: Self.key("leaf").publicKey, serialNumber: [7],
            notBefore: Self.year2024, notAfter: Self.year2034)
        leafBuilder.basicConstraints = BasicConstraints(isCertificateAuthority: false)
        let leaf = try leafBuilder.sign(with: authority.privateKey)
        let verifier = try CertificateChainVerifier(
            trustAnchors: [pki.root.certificate],
            revocation: .leaf([pki.crl(of: authority)]))
        let error = try #require(throws: CryptoError.self) {
            try verifier.verify(leaf, intermediates: [authority.certificate], at: Self.now)
        }
        #expect(error.code == .revocationStatusUnknown, "\(error)")
        #expect(error.depth == 0)
    }

    @Test func reportsTheChainFailureBeforeRevocation() throws {
        let pki = try PKI()
        let lists = [try pki.crl(of: pki.intermediate, revoking: [pki.leaf.serialNumber])]
        // Without the intermediate no path exists: revocation is never reached.
        let verifier = try pki.verifier(.leaf(lists))
        let error = try #require(throws: CryptoError.self) {
            try verifier.verify(pki.leaf, at: Self.now)
        }
        #expect(error.code == .untrustedCertificate)
    }

    @Test func checksRevocationConcurrently() async throws {
        let pki = try PKI()
        let good = try pki.verifier(
            .chain([pki.crl(of: pki.intermediate), pki.crl(of: pki.root)]))
        let bad = try pki.verifier(
            .chain([pki.crl(of: pki.intermediate, revoking: [[3]]), pki.crl(of: pki.root)]))
        let verdicts = await withTaskGroup(of: (Bool, CryptoError.Code?).self) { group in
            for index in 0..<32 {
                group.addTask {
                    let revoked = index % 2 == 1
                    do {
                        _ = try pki.verify(revoked ? bad : good)
                        return (revoked, nil)
                    } catch {
                        return (revoked, (error as? CryptoError)?.code)
                    }
                }
            }
            var verdicts: [(Bool, CryptoError.Code?)] = []
            for await verdict in group { verdicts.append(verdict) }
            return verdicts
        }
        #expect(verdicts.count == 32)
        for (revoked, code) in verdicts {
            #expect(code == (revoked ? .certificateRevoked : nil))
        }
    }
}
