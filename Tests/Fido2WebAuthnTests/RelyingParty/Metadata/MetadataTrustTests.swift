import Fido2Authenticator
@_spi(Fido2Internals) import Fido2Crypto
import Fido2Encoding
import Fido2TestSupport
import Fido2Vectors
import Fido2WebAuthn
import Fido2WebAuthnTestSupport
import Fido2WebAuthnWire
import Testing

/// Attestation trust from metadata (`AttestationTrustPolicy.metadata`) with BLOBs signed by
/// the test PKI, and the refresh (rollback) rule.
@Suite struct MetadataTrustTests {
    static let expectations = RegistrationExpectations(challenge: SyntheticCeremony.challenge)

    static func register(
        _ ceremony: SyntheticCeremony, metadata: MetadataTrustPolicy,
        anchors: [String: [Certificate]] = [:]
    ) throws -> VerifiedRegistration {
        var policy = AttestationTrustPolicy(
            anchors: anchors, validationTime: TestMetadataService.validationTime)
        policy.metadata = metadata
        return try SyntheticCeremony.relyingParty(trustPolicy: policy).verifyRegistration(
            try ceremony.registration(), expecting: expectations)
    }

    @Test func trustsTheChainThroughTheEntrysRoots() throws {
        let pki = try TestAttestationPKI()
        let service = try TestMetadataService()
        let blob = try service.verified(entries: [
            TestMetadataService.entry(
                aaguid: SyntheticCeremony.aaguid, roots: [pki.root.certificate],
                statuses: ["UPDATE_AVAILABLE", "FIDO_CERTIFIED_L2"])
        ])
        #expect(blob.number == 5)
        let result = try Self.register(
            try SyntheticCeremony.packedFull(pki), metadata: MetadataTrustPolicy(blob: blob))
        guard case .verified(let path) = result.trustPath else {
            Issue.record("\(result.trustPath)")
            return
        }
        #expect(path.last == pki.root.certificate)
        let entry = try #require(result.metadataEntry)
        #expect(entry.description == "Test Authenticator")
        #expect(entry.status == .updateAvailable)
        #expect(entry.certificationLevel == .l2)
    }

    @Test func theEntrysRootsReplaceTheConfiguredAnchors() throws {
        // The entry names another root: the configured packed anchor does not rescue the chain.
        let pki = try TestAttestationPKI()
        let other = try TestAttestationPKI()
        let service = try TestMetadataService()
        let blob = try service.verified(entries: [
            TestMetadataService.entry(
                aaguid: SyntheticCeremony.aaguid, roots: [other.root.certificate])
        ])
        let ceremony = try SyntheticCeremony.packedFull(pki)
        expectFailure(.attestationTrustPathInvalid, step: "§7.1 step 24") {
            try Self.register(
                ceremony, metadata: MetadataTrustPolicy(blob: blob),
                anchors: ["packed": [pki.root.certificate]])
        }
    }

    @Test(arguments: [
        "REVOKED", "ATTESTATION_KEY_COMPROMISE", "USER_VERIFICATION_BYPASS",
        "USER_KEY_REMOTE_COMPROMISE", "USER_KEY_PHYSICAL_COMPROMISE",
    ])
    func refusesARefusedStatus(_ status: String) throws {
        let pki = try TestAttestationPKI()
        let service = try TestMetadataService()
        let blob = try service.verified(entries: [
            TestMetadataService.entry(
                aaguid: SyntheticCeremony.aaguid, roots: [pki.root.certificate],
                statuses: [status, "FIDO_CERTIFIED_L1"])
        ])
        let ceremony = try SyntheticCeremony.packedFull(pki)
        let error = webAuthnError {
            try Self.register(ceremony, metadata: MetadataTrustPolicy(blob: blob))
        }
        #expect(error?.code == .authenticatorStatusRefused)
        #expect(error?.step == "§7.1 step 24")
        #expect(error?.reason.contains(status) == true, "\(String(describing: error))")
        if let error { expectListedInTheStepTables(error) }
        // A policy that refuses nothing accepts it.
        let lenient = MetadataTrustPolicy(blob: blob, refusedStatuses: [])
        #expect(throws: Never.self) { try Self.register(ceremony, metadata: lenient) }
    }

    @Test func requiresTheMinimumCertificationLevelWhenAsked() throws {
        let pki = try TestAttestationPKI()
        let service = try TestMetadataService()
        let blob = try service.verified(entries: [
            TestMetadataService.entry(
                aaguid: SyntheticCeremony.aaguid, roots: [pki.root.certificate],
                statuses: ["FIDO_CERTIFIED_L1"])
        ])
        let ceremony = try SyntheticCeremony.packedFull(pki)
        expectFailure(.authenticatorStatusRefused, step: "§7.1 step 24") {
            try Self.register(
                ceremony,
                metadata: MetadataTrustPolicy(blob: blob, minimumCertificationLevel: .l2))
        }
        #expect(throws: Never.self) {
            try Self.register(
                ceremony,
                metadata: MetadataTrustPolicy(blob: blob, minimumCertificationLevel: .l1))
        }
    }

    @Test func aMissingEntryFailsStrictAndIsNotEvaluatedPermissive() throws {
        let pki = try TestAttestationPKI()
        let service = try TestMetadataService()
        let elsewhere = try #require(AAGUID(uuidString: "00112233-4455-6677-8899-aabbccddeeff"))
        let blob = try service.verified(entries: [
            TestMetadataService.entry(aaguid: elsewhere, roots: [pki.root.certificate])
        ])
        let ceremony = try SyntheticCeremony.packedFull(pki)
        expectFailure(.authenticatorNotInMetadata, step: "§7.1 step 24") {
            try Self.register(ceremony, metadata: MetadataTrustPolicy(blob: blob))
        }
        let permissive = MetadataTrustPolicy(blob: blob, mode: .permissive)
        let result = try Self.register(ceremony, metadata: permissive)
        guard case .notEvaluated = result.trustPath else {
            Issue.record("\(result.trustPath)")
            return
        }
        #expect(result.metadataEntry == nil)
        // Permissive with configured anchors: judged against them, as without metadata.
        let anchored = try Self.register(
            ceremony, metadata: permissive, anchors: ["packed": [pki.root.certificate]])
        guard case .verified = anchored.trustPath else {
            Issue.record("\(anchored.trustPath)")
            return
        }
        #expect(anchored.metadataEntry == nil)
    }

    @Test func findsFIDOU2FByAttestationCertificateKeyIdentifier() throws {
        let pki = try TestAttestationPKI()
        let service = try TestMetadataService()
        let certificate = try pki.packedCertificate()
        let identifier = try #require(MetadataBLOB.keyIdentifier(of: certificate))
        // RFC 5280 method 1, which the test CA uses for subjectKeyIdentifier.
        #expect(identifier == Hex.encode(try #require(certificate.subjectKeyIdentifier)))
        let blob = try service.verified(entries: [
            TestMetadataService.entry(
                keyIdentifiers: [identifier.uppercased()], roots: [pki.root.certificate],
                description: "Test U2F Key")
        ])
        var ceremony = try SyntheticCeremony.p256()
        ceremony.aaguid = .zero
        ceremony.attestation = .fidoU2F(
            key: pki.attestationKey, certificates: [certificate.derEncoded])
        let result = try Self.register(ceremony, metadata: MetadataTrustPolicy(blob: blob))
        guard case .verified = result.trustPath else {
            Issue.record("\(result.trustPath)")
            return
        }
        #expect(result.metadataEntry?.description == "Test U2F Key")
    }

    @Test func refusesARefreshThatIsNotNewer() throws {
        let service = try TestMetadataService()
        let current = try service.verified(number: 5, entries: [])
        let older = try service.verified(number: 4, entries: [])
        let same = try service.verified(number: 5, entries: [])
        let newer = try service.verified(number: 6, entries: [])
        expectCode(.metadataRollback) { try older.checkRefresh(replacing: current) }
        expectCode(.metadataRollback) { try same.checkRefresh(replacing: current) }
        #expect(throws: Never.self) { try newer.checkRefresh(replacing: current) }
        #expect(throws: Never.self) { try older.checkRefresh(replacing: nil) }
        expectCode(.metadataRollback) { try older.checkRefresh(replacingNumber: 4) }
    }

    @Test func checksTheSignersRevocationWhenGivenCRLs() throws {
        let service = try TestMetadataService()
        let thisUpdate: Int64 = 1_735_689_600  // 2025-01-01
        let nextUpdate: Int64 = 1_767_225_600  // 2026-01-01
        let clean = try service.root.issueRevocationList(
            revoking: [], thisUpdate: thisUpdate, nextUpdate: nextUpdate)
        let checked = try service.verified(entries: [], revocationLists: [clean])
        #expect(checked.revocationChecked)
        let revoking = try service.root.issueRevocationList(
            revoking: [service.signer.serialNumber], thisUpdate: thisUpdate,
            nextUpdate: nextUpdate)
        expectCode(.metadataTrustPathInvalid) {
            _ = try service.verified(entries: [], revocationLists: [revoking])
        }
    }

    @Test func refusesABLOBSignedByAnotherKey() throws {
        let service = try TestMetadataService()
        let other = try TestMetadataService()
        expectCode(.metadataTrustPathInvalid) {
            _ = try MetadataBLOB(
                compact: try other.blob(entries: []),
                options: MetadataBLOB.VerificationOptions(
                    trustAnchors: [service.root.certificate],
                    validationTime: TestMetadataService.validationTime))
        }
    }

    @Test func refusesMalformedEntries() throws {
        let service = try TestMetadataService()
        for (entry, field) in [
            ("{\"statusReports\":[]}", "entries[0].metadataStatement"),
            ("{\"aaguid\":\"nope\",\"statusReports\":[]}", "entries[0].aaguid"),
            (
                "{\"metadataStatement\":{\"description\":\"x\"},\"statusReports\":[{}]}",
                "entries[0].statusReports[0].status"
            ),
            (
                "{\"attestationCertificateKeyIdentifiers\":[\"xyz\"],\"metadataStatement\":{\"description\":\"x\"},\"statusReports\":[]}",
                "entries[0].attestationCertificateKeyIdentifiers[0]"
            ),
        ] {
            let error = webAuthnError { try service.verified(entries: [entry]) }
            #expect(error?.code == .metadataInvalid)
            #expect(error?.field == field, "\(String(describing: error))")
        }
    }
}
