import Fido2Authenticator
@_spi(Fido2Internals) import Fido2Crypto
import Fido2WebAuthn
import Fido2WebAuthnTestSupport
import Fido2WebAuthnWire
import Testing

/// Revocation of attestation certificates through `AttestationTrustPolicy.revocation`: packed
/// (and fido-u2f) registrations made with the test PKI, judged by `RelyingParty` against CRLs
/// the test root issues.
@Suite struct AttestationRevocationTests {
    static let expectations = RegistrationExpectations(challenge: SyntheticCeremony.challenge)
    /// 2025-07-02T00:00:00Z: inside the test PKI's validity and the CRLs' update window.
    static let validationTime: Int64 = 1_751_414_400
    static let thisUpdate: Int64 = 1_735_689_600  // 2025-01-01
    static let nextUpdate: Int64 = 1_767_225_600  // 2026-01-01

    /// The root's CRL revoking `serials`, current at ``validationTime``.
    static func crl(
        _ pki: TestAttestationPKI, revoking serials: [[UInt8]] = []
    ) throws -> CertificateRevocationList {
        try pki.root.issueRevocationList(
            revoking: serials, thisUpdate: thisUpdate, nextUpdate: nextUpdate)
    }

    /// `pki`'s policy for `format`, at ``validationTime``, checking revocation as `revocation`.
    static func policy(
        _ pki: TestAttestationPKI, _ revocation: RevocationCheck, format: String = "packed"
    ) -> AttestationTrustPolicy {
        var policy = pki.policy(format: format)
        policy.validationTime = validationTime
        policy.revocation = revocation
        return policy
    }

    func register(
        _ ceremony: SyntheticCeremony, trusting policy: AttestationTrustPolicy
    ) throws -> VerifiedRegistration {
        try SyntheticCeremony.relyingParty(trustPolicy: policy).verifyRegistration(
            try ceremony.registration(), expecting: Self.expectations)
    }

    /// The error registering `ceremony` under `policy` gives, expected at step 24.
    func rejection(
        _ ceremony: SyntheticCeremony, trusting policy: AttestationTrustPolicy,
        sourceLocation: SourceLocation = #_sourceLocation
    ) throws -> WebAuthnError? {
        let response = try ceremony.registration()
        let relyingParty = SyntheticCeremony.relyingParty(trustPolicy: policy)
        let error = webAuthnError(
            { () throws in
                try relyingParty.verifyRegistration(response, expecting: Self.expectations)
            }, sourceLocation: sourceLocation)
        #expect(
            error?.step == "§7.1 step 24", "\(String(describing: error))",
            sourceLocation: sourceLocation)
        #expect(error?.field == "attestationObject.attStmt.x5c", sourceLocation: sourceLocation)
        return error
    }

    @Test func acceptsAnAttestationCertificateThatIsNotRevoked() throws {
        let pki = try TestAttestationPKI()
        let ceremony = try SyntheticCeremony.packedFull(pki)
        let lists = [try Self.crl(pki, revoking: [[0x7f]])]
        for check in [RevocationCheck.leaf(lists), .chain(lists)] {
            let result = try register(ceremony, trusting: Self.policy(pki, check))
            guard case .verified(let path) = result.trustPath else {
                Issue.record("\(result.trustPath)")
                continue
            }
            #expect(path.last == pki.root.certificate)
        }
    }

    @Test func rejectsAPackedRegistrationWhoseAttestationCertificateIsRevoked() throws {
        let pki = try TestAttestationPKI()
        let ceremony = try SyntheticCeremony.packedFull(pki)
        let certificate = try pki.packedCertificate(aaguid: SyntheticCeremony.aaguid.bytes)
        let lists = [try Self.crl(pki, revoking: [certificate.serialNumber])]
        for check in [RevocationCheck.leaf(lists), .chain(lists)] {
            let error = try rejection(ceremony, trusting: Self.policy(pki, check))
            #expect(error?.code == .attestationCertificateRevoked, "\(String(describing: error))")
            #expect(error?.reason.contains("certificate 0 of the chain") == true)
        }
        // The default policy checks nothing: the same registration verifies.
        var unchecked = Self.policy(pki, .none)
        #expect(try register(ceremony, trusting: unchecked).attestationType == .basic)
        unchecked = AttestationTrustPolicy(
            anchors: ["packed": [pki.root.certificate]], validationTime: Self.validationTime)
        #expect(unchecked.revocation == .none)
        #expect(try register(ceremony, trusting: unchecked).attestationType == .basic)
    }

    @Test func rejectsWhenNoCRLVouchesForTheAttestationCertificate() throws {
        let pki = try TestAttestationPKI()
        let ceremony = try SyntheticCeremony.packedFull(pki)
        let missing = try rejection(ceremony, trusting: Self.policy(pki, .leaf([])))
        #expect(missing?.code == .attestationRevocationStatusUnknown)
        // A CRL of another CA with the same name does not verify with the root's key.
        let other = try TestAttestationPKI()
        let forged = try rejection(
            ceremony, trusting: Self.policy(pki, .leaf([Self.crl(other)])))
        #expect(forged?.code == .attestationRevocationStatusUnknown)
        // An expired CRL says nothing about the validation time.
        var late = Self.policy(pki, .leaf([try Self.crl(pki)]))
        late.validationTime = Self.nextUpdate + 86_400
        let expired = try rejection(ceremony, trusting: late)
        #expect(expired?.code == .attestationRevocationStatusUnknown)
        #expect(expired?.reason.contains("CRL has expired") == true)
    }

    @Test func checksEveryFormatWithTheSameCRLs() throws {
        let pki = try TestAttestationPKI()
        var ceremony = try SyntheticCeremony.p256()
        ceremony.flags = [.userPresent]
        ceremony.aaguid = .zero
        let leaf = try pki.certificate(subject: try DistinguishedName([.commonName("U2F")]))
        ceremony.attestation = .fidoU2F(key: pki.attestationKey, certificates: [leaf.derEncoded])
        let revoked = Self.policy(
            pki, .leaf([try Self.crl(pki, revoking: [leaf.serialNumber])]), format: "fido-u2f")
        let error = try rejection(ceremony, trusting: revoked)
        #expect(error?.code == .attestationCertificateRevoked)
        let good = Self.policy(pki, .leaf([try Self.crl(pki)]), format: "fido-u2f")
        #expect(try register(ceremony, trusting: good).format == "fido-u2f")
    }

    @Test func leavesChainsWithoutAnchorsUnjudged() throws {
        let pki = try TestAttestationPKI()
        let ceremony = try SyntheticCeremony.packedFull(pki)
        // Revocation is part of judging the path: with no anchors for packed there is none.
        var policy = AttestationTrustPolicy(validationTime: Self.validationTime)
        policy.revocation = .leaf([])
        guard case .notEvaluated = try register(ceremony, trusting: policy).trustPath else {
            Issue.record("trust path judged without anchors")
            return
        }
    }
}
