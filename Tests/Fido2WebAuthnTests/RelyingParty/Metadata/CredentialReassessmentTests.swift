import Fido2Crypto
import Fido2Vectors
import Fido2WebAuthn
import Fido2WebAuthnTestSupport
import Fido2WebAuthnWire
import Testing

/// `MetadataTrustPolicy.reassess`: records registered under one BLOB, judged by a newer one.
@Suite struct CredentialReassessmentTests {
    @Test func aNewerBLOBRevokingTheModelRefusesTheRecord() throws {
        let pki = try TestAttestationPKI()
        let service = try TestMetadataService()
        let good = try service.verified(
            number: 5,
            entries: [
                TestMetadataService.entry(
                    aaguid: SyntheticCeremony.aaguid, roots: [pki.root.certificate])
            ])
        let registration = try MetadataTrustTests.register(
            try SyntheticCeremony.packedFull(pki), metadata: MetadataTrustPolicy(blob: good))
        let record = registration.credentialRecord()
        let before = MetadataTrustPolicy(blob: good).reassess(record)
        #expect(before.verdict == .accepted)
        #expect(before.aaguid == SyntheticCeremony.aaguid)
        #expect(!before.keyIdentifiers.isEmpty)

        for status in ["REVOKED", "ATTESTATION_KEY_COMPROMISE", "USER_KEY_REMOTE_COMPROMISE"] {
            let newer = try service.verified(
                number: 6,
                entries: [
                    TestMetadataService.entry(
                        aaguid: SyntheticCeremony.aaguid, roots: [pki.root.certificate],
                        statuses: [status, "FIDO_CERTIFIED_L1"])
                ])
            let after = MetadataTrustPolicy(blob: newer).reassess([record])
            #expect(after.count == 1)
            guard case .refused(.status(let refused, _)) = after.first?.verdict else {
                Issue.record("\(String(describing: after.first?.verdict))")
                continue
            }
            #expect(refused.rawValue == status)
            #expect(after.first?.blobNumber == 6)
        }

        // Listed only by the attestation certificate's key identifier: found and refused too.
        let keyIdentifier = try #require(before.keyIdentifiers.first)
        let byKey = try service.verified(
            number: 7,
            entries: [
                TestMetadataService.entry(
                    keyIdentifiers: [keyIdentifier], roots: [pki.root.certificate],
                    statuses: ["REVOKED"])
            ])
        #expect(MetadataTrustPolicy(blob: byKey).reassess(record).isRefused)

        // Not listed; no attestation object kept.
        let empty = try service.verified(number: 8, entries: [])
        #expect(MetadataTrustPolicy(blob: empty).reassess(record).verdict == .notListed)
        var bare = record
        bare.attestationObject = nil
        guard case .notAssessable = MetadataTrustPolicy(blob: good).reassess(bare).verdict else {
            Issue.record("a record without an attestation object was assessed")
            return
        }
        var garbled = record
        garbled.attestationObject = [0xff]
        #expect(!MetadataTrustPolicy(blob: good).reassess(garbled).isRefused)
    }

    /// A `compound` statement is judged by each entry's chain, as registration verified each
    /// entry: a status reported only for the second chain's key refuses the record.
    @Test func aCompoundStatementIsJudgedByEachOfItsChains() throws {
        let parts = try CompoundAttestationVerifierTests.parts()
        let other = try TestAttestationPKI()
        let hash = DigestAlgorithm.sha256.hash(try parts.ceremony.clientDataJSON)
        let second = AttestationStatement.packed(
            try .fullAttestation(
                authenticatorData: parts.authenticatorData, clientDataHash: hash,
                attestationKey: other.attestationKey,
                certificates: [
                    try other.packedCertificate(aaguid: SyntheticCeremony.aaguid.bytes).derEncoded
                ]))
        let secondLeaf = try other.packedCertificate(aaguid: SyntheticCeremony.aaguid.bytes)
        let secondKey = try #require(MetadataBLOB.keyIdentifier(of: secondLeaf))
        var ceremony = parts.ceremony
        ceremony.attestation = .raw(
            format: "compound",
            statement: CompoundAttestationVerifierTests.compound(
                [parts.fullStatement, second].map {
                    (
                        $0.format,
                        CompoundAttestationVerifierTests.encoded($0, parts.authenticatorData)
                    )
                }))
        let record = try SyntheticCeremony.relyingParty().verifyRegistration(
            try ceremony.registration(),
            expecting: RegistrationExpectations(challenge: SyntheticCeremony.challenge)
        ).credentialRecord()

        let service = try TestMetadataService()
        let revoked = try service.verified(
            number: 9,
            entries: [
                TestMetadataService.entry(
                    keyIdentifiers: [secondKey], roots: [other.root.certificate],
                    statuses: ["ATTESTATION_KEY_COMPROMISE"])
            ])
        let assessment = MetadataTrustPolicy(blob: revoked).reassess(record)
        guard case .refused(.status(let status, _)) = assessment.verdict else {
            Issue.record("\(assessment.verdict)")
            return
        }
        #expect(status.rawValue == "ATTESTATION_KEY_COMPROMISE")
        #expect(assessment.keyIdentifiers.count == 2)
        #expect(assessment.keyIdentifiers.last == secondKey)
    }
}
