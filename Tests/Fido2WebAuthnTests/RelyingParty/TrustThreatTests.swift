import Fido2CBOR
@_spi(Fido2Internals) import Fido2Crypto
import Fido2Encoding
import Fido2TestSupport
import Fido2Vectors
import Fido2WebAuthn
import Fido2WebAuthnTestSupport
import Fido2WebAuthnWire
import Foundation
import Testing

/// The forged or misleading registrations and assertions of the trust review (issue 29), each
/// refused at its step; docs/security.md lists them with these tests.
@Suite struct TrustThreatTests {
    /// Expectations of a ceremony that wants proven attestation: neither self nor none.
    static let provenOnly = RegistrationExpectations(
        challenge: SyntheticCeremony.challenge, acceptedAttestationTypes: [.basic, .attestationCA],
        attestation: .direct)

    // MARK: 1. Self-made certificates are not proof

    @Test func aSelfMadeChainFailsWhenProvenAttestationIsRequired() throws {
        let attacker = try TestAttestationPKI()
        let packed = try SyntheticCeremony.packedFull(attacker)
        var u2f = try SyntheticCeremony.p256()
        u2f.aaguid = .zero
        u2f.attestation = .fidoU2F(
            key: attacker.attestationKey,
            certificates: [try attacker.packedCertificate().derEncoded])
        let relyingParty = SyntheticCeremony.relyingParty()
        for ceremony in [packed, u2f] {
            let response = try ceremony.registration()
            expectFailure(.attestationTrustPathInvalid, step: "§7.1 step 24") {
                try relyingParty.verifyRegistration(response, expecting: Self.provenOnly)
            }
            // The defaults refuse nothing new: the claim is kept, the verdict says unverified.
            let accepted = try relyingParty.verifyRegistration(
                response,
                expecting: RegistrationExpectations(challenge: SyntheticCeremony.challenge))
            #expect(accepted.attestationType == .basic)
            #expect(accepted.attestationTrust == .unverified)
            #expect(accepted.credentialRecord().attestationTrust == .unverified)
        }
        // Anchored, the same chain is proven, by the caller's anchor.
        let anchored = SyntheticCeremony.relyingParty(trustPolicy: attacker.policy())
        let proven = try anchored.verifyRegistration(
            try packed.registration(), expecting: Self.provenOnly)
        #expect(proven.attestationTrust == .verified(.caller))
    }

    @Test func theVerdictNamesSelfAndNone() throws {
        var ceremony = try SyntheticCeremony.p256()
        let relyingParty = SyntheticCeremony.relyingParty()
        let expectations = RegistrationExpectations(challenge: SyntheticCeremony.challenge)
        let none = try relyingParty.verifyRegistration(
            try ceremony.registration(), expecting: expectations)
        #expect(none.attestationTrust == AttestationTrust.none)
        ceremony.attestation = .packedSelf()
        let selfAttested = try relyingParty.verifyRegistration(
            try ceremony.registration(), expecting: expectations)
        #expect(selfAttested.attestationTrust == .selfAttestation)
    }

    @Test func theRecordKeepsTheVerdictInVersionTwo() throws {
        let pki = try TestAttestationPKI()
        let relyingParty = SyntheticCeremony.relyingParty(trustPolicy: pki.policy())
        let verified = try relyingParty.verifyRegistration(
            try SyntheticCeremony.packedFull(pki).registration(), expecting: Self.provenOnly)
        let record = verified.credentialRecord(userHandle: [7])
        let text = record.jsonText()
        #expect(text.hasPrefix(#"{"version":2,"#))
        #expect(text.contains(#""attestationTrust":"verified-caller","userHandle":"Bw"}"#))
        let read = try CredentialRecord(jsonText: text)
        #expect(read == record)
        #expect(read.attestationTrust == .verified(.caller))
        // Version 1 records read with the trust unknown (the member is not theirs).
        let old = try CredentialRecord(
            jsonText: text.replacingOccurrences(of: #""version":2"#, with: #""version":1"#))
        #expect(old.attestationTrust == .unknown)
        expectCode(.invalidValue) {
            _ = try CredentialRecord(
                jsonText: text.replacingOccurrences(of: "verified-caller", with: "trusted"))
        }
        for trust in [
            AttestationTrust.verified(.caller), .verified(.wellKnownRoot), .verified(.metadata),
            .selfAttestation, .none, .unverified, .unknown,
        ] {
            #expect(AttestationTrust(name: trust.description) == trust)
        }
    }

    // MARK: 2. A caller's anchor keeps the shipped roots

    /// The W3C vectors' device chains end at a root whose private key is published: as good
    /// as attacker-made. With an anchor configured for packed only, they must still meet the
    /// shipped roots of their own formats.
    @Test(arguments: ["android-key-es256", "apple-es256", "tpm-es256"])
    func anAnchorForPackedKeepsTheShippedRoots(_ id: String) throws {
        let vector = try W3CVector.named(id)
        let unrelated = try TestAttestationPKI()
        var policy = AttestationTrustPolicy(validationTime: w3cValidationTime)
            .trusting([unrelated.root.certificate], for: "packed")
        policy.androidKey.acceptsMissingOriginAndPurpose = true
        var relyingParty = try vector.relyingParty()
        relyingParty.trustPolicy = policy
        var expectations = try vector.registrationExpectations()
        expectations.attestation = .direct
        let response = try vector.registrationResponse()
        expectFailure(.attestationTrustPathInvalid, step: "§7.1 step 24") {
            try relyingParty.verifyRegistration(response, expecting: expectations)
        }
        // Leaving the shipped roots out is a named choice; the chain is then unverified.
        relyingParty.trustPolicy = policy.excludingWellKnownRoots()
        let unverified = try relyingParty.verifyRegistration(response, expecting: expectations)
        #expect(unverified.attestationTrust == .unverified)
    }

    // MARK: 3. Metadata by key identifier as well as AAGUID

    static func register(
        _ ceremony: SyntheticCeremony, blob: MetadataBLOB
    ) throws -> VerifiedRegistration {
        var policy = AttestationTrustPolicy(validationTime: TestMetadataService.validationTime)
        policy.metadata = MetadataTrustPolicy(blob: blob)
        return try SyntheticCeremony.relyingParty(trustPolicy: policy).verifyRegistration(
            try ceremony.registration(),
            expecting: RegistrationExpectations(challenge: SyntheticCeremony.challenge))
    }

    /// A packed ceremony under the certified sibling's AAGUID, with a leaf that carries no
    /// AAGUID extension and whose key identifier an entry lists.
    static func swappedAAGUID(
        _ pki: TestAttestationPKI
    ) throws -> (SyntheticCeremony, Certificate, String) {
        let leaf = try pki.packedCertificate()
        var ceremony = try SyntheticCeremony.p256()
        ceremony.attestation = .packedFull(key: pki.attestationKey, certificates: [leaf.derEncoded])
        return (ceremony, leaf, try #require(MetadataBLOB.keyIdentifier(of: leaf)))
    }

    @Test func aSwappedAAGUIDDoesNotEscapeTheEntryNamingTheKey() throws {
        let pki = try TestAttestationPKI()
        let service = try TestMetadataService()
        let (ceremony, _, keyIdentifier) = try Self.swappedAAGUID(pki)
        let sibling = TestMetadataService.entry(
            aaguid: SyntheticCeremony.aaguid, roots: [pki.root.certificate],
            statuses: ["FIDO_CERTIFIED_L2"], description: "Certified sibling")
        let compromised = TestMetadataService.entry(
            keyIdentifiers: [keyIdentifier], roots: [pki.root.certificate],
            statuses: ["REVOKED", "ATTESTATION_KEY_COMPROMISE"], description: "Compromised model")
        let blob = try service.verified(entries: [sibling, compromised])
        let error = webAuthnError { try Self.register(ceremony, blob: blob) }
        #expect(error?.code == .authenticatorStatusRefused)
        #expect(error?.step == "§7.1 step 24")
        #expect(error?.reason.contains("Compromised model") == true, "\(String(describing: error))")
        // Both entries certified: verified through the AAGUID entry's roots, which it names.
        let clean = try service.verified(entries: [
            sibling,
            TestMetadataService.entry(
                keyIdentifiers: [keyIdentifier], roots: [pki.root.certificate],
                description: "Same key, U2F entry"),
        ])
        let verified = try Self.register(ceremony, blob: clean)
        #expect(verified.metadataEntry?.description == "Certified sibling")
        #expect(verified.attestationTrust == .verified(.metadata))
    }

    /// A compromise report naming a certificate refuses the chains holding it (as leaf or as
    /// anchor) and no other; one naming none, or one that does not read, refuses every key.
    @Test func aCompromiseReportNamingACertificateRefusesOnlyItsChains() throws {
        let pki = try TestAttestationPKI()
        let service = try TestMetadataService()
        let (ceremony, leaf, _) = try Self.swappedAAGUID(pki)
        let other = try TestAttestationPKI().packedCertificate()
        func blob(naming member: String?) throws -> MetadataBLOB {
            var entry = TestMetadataService.entry(
                aaguid: SyntheticCeremony.aaguid, roots: [pki.root.certificate],
                statuses: ["ATTESTATION_KEY_COMPROMISE", "FIDO_CERTIFIED_L1"])
            if let member {
                entry = entry.replacingOccurrences(
                    of: #""status":"ATTESTATION_KEY_COMPROMISE""#,
                    with: #""status":"ATTESTATION_KEY_COMPROMISE","# + member)
            }
            return try service.verified(entries: [entry])
        }
        let otherMember = #""certificate":""# + Base64.encode(other.derEncoded) + #"""#
        #expect(throws: Never.self) {
            try Self.register(ceremony, blob: try blob(naming: otherMember))
        }
        for member in [
            nil, #""certificate":""# + Base64.encode(leaf.derEncoded) + #"""#,
            #""batchCertificate":""# + Base64.encode(pki.root.certificate.derEncoded) + #"""#,
            #""certificate":"not base64!""#,
        ] {
            expectFailure(.authenticatorStatusRefused, step: "§7.1 step 24") {
                try Self.register(ceremony, blob: try blob(naming: member))
            }
        }
    }

    // MARK: 4. Counters never go down in the record

    @Test func aRelaxedRegressionIsReportedAndNotStored() throws {
        var ceremony = try SyntheticCeremony.p256()
        ceremony.type = .get
        ceremony.signCount = 0
        let record = try ceremony.record(signCount: 5)
        let relaxed = SyntheticCeremony.relyingParty(relaxations: .acceptsSignCountRegression)
        let expectations = AuthenticationExpectations(
            challenge: SyntheticCeremony.challenge, credential: record)
        let verified = try relaxed.verifyAuthentication(
            try ceremony.assertion(), expecting: expectations)
        #expect(verified.signCountVerdict == .possibleClone(stored: 5, received: 0))
        #expect(verified.deviations.map(\.relaxation) == [.acceptsSignCountRegression])
        #expect(verified.updatedRecord.signCount == 5)
        // With the relaxation off, the clone's next 0 is still a regression.
        var next = expectations
        next.credential = verified.updatedRecord
        expectFailure(.signCountRegressed, step: "§7.2 step 22") {
            try SyntheticCeremony.relyingParty().verifyAuthentication(
                try ceremony.assertion(), expecting: next)
        }
    }

    // MARK: 5. Weak Ed25519 keys

    /// The Ed25519 identity point (y = 1): R = identity, S = 0 would verify over any message.
    static let identityEd25519: [UInt8] = [1] + [UInt8](repeating: 0, count: 31)

    static func okpKey(_ x: [UInt8]) -> [UInt8] {
        var writer = CBORWriter()
        writer.writeMapHeader(count: 4)
        writer.writeInt(1)
        writer.writeInt(1)  // kty: OKP
        writer.writeInt(3)
        writer.writeInt(-8)  // alg: EdDSA
        writer.writeInt(-1)
        writer.writeInt(6)  // crv: Ed25519
        writer.writeInt(-2)
        writer.writeByteString(x)
        return writer.bytes
    }

    @Test func aSmallOrderKeyDoesNotRegister() throws {
        var ceremony = try SyntheticCeremony.p256()
        var authData = Array(DigestAlgorithm.sha256.hash(Array(SyntheticCeremony.rpID.utf8)))
        authData += [0x45, 0, 0, 0, 0] + SyntheticCeremony.aaguid.bytes
        authData += [0, UInt8(ceremony.credentialId.count)] + ceremony.credentialId
        authData += Self.okpKey(Self.identityEd25519)
        ceremony.attestation = .none
        let response = try ceremony.registration(authDataBytes: authData)
        let error = webAuthnError {
            try SyntheticCeremony.relyingParty().verifyRegistration(
                response,
                expecting: RegistrationExpectations(challenge: SyntheticCeremony.challenge))
        }
        #expect(error?.code == .invalidCredentialPublicKey, "\(String(describing: error))")
        #expect(error?.reason.contains("small order") == true, "\(String(describing: error))")
    }

    @Test func aStoredRecordWithASmallOrderKeyFailsWithAKeyError() throws {
        let good = try SyntheticCeremony.p256().record()
        let text = good.jsonText().replacingOccurrences(
            of: Base64URL.encode(good.publicKeyBytes),
            with: Base64URL.encode(Self.okpKey(Self.identityEd25519)))
        expectCode(.invalidCredentialPublicKey) { _ = try CredentialRecord(jsonText: text) }
    }

    // MARK: 6. A record without a user handle confirms no claimed handle

    @Test func aDiscoverableSignInNeedsTheRecordsOwner() throws {
        var ceremony = try SyntheticCeremony.p256()
        ceremony.type = .get
        ceremony.userHandle = Array("user A".utf8)
        let discoverable = AuthenticationExpectations(
            challenge: SyntheticCeremony.challenge, credential: try ceremony.record(),
            userIdentification: .byUserHandle)
        expectFailure(.userHandleMismatch, step: "§7.2 step 6") {
            try SyntheticCeremony.relyingParty().verifyAuthentication(
                try ceremony.assertion(), expecting: discoverable)
        }
        // With the owner kept, the same sign-in verifies.
        var owned = discoverable
        owned.credential = try ceremony.record(userHandle: Array("user A".utf8))
        let verified = try SyntheticCeremony.relyingParty().verifyAuthentication(
            try ceremony.assertion(), expecting: owned)
        #expect(verified.userHandle == Array("user A".utf8))
    }

    // MARK: 7. Challenge length of a state

    @Test func aStateWithAShortChallengeIsRefused() throws {
        var ceremony = try SyntheticCeremony.p256()
        ceremony.challenge = Array(0..<15)
        let relyingParty = SyntheticCeremony.relyingParty()
        let registration = RegistrationState(
            challenge: ceremony.challenge, relyingPartyID: SyntheticCeremony.rpID,
            user: PublicKeyCredentialUserEntityJSON(id: [1], name: "a", displayName: "A"),
            userVerification: .preferred, algorithms: [.es256], attestation: .none,
            excludedCredentials: [],
            acceptedAttestationTypes: RegistrationExpectations.allAttestationTypes,
            extensionPolicy: .acceptAll, expiresAt: .max)
        expectFailure(.ceremonyStateMismatch, step: "§7.1 step 1") {
            try relyingParty.finishRegistration(try ceremony.registration(), state: registration)
        }
        ceremony.type = .get
        let authentication = AuthenticationState(
            challenge: ceremony.challenge, relyingPartyID: SyntheticCeremony.rpID,
            userVerification: .preferred, allowedCredentials: [], extensionPolicy: .acceptAll,
            expiresAt: .max)
        let record = try ceremony.record(userHandle: [1])
        ceremony.userHandle = [1]
        expectFailure(.ceremonyStateMismatch, step: "§7.2 step 1") {
            try relyingParty.finishAuthentication(
                try ceremony.assertion(), state: authentication, credential: record)
        }
        // The lower-level expectations take what the caller passes (Belvo's sample enrollment
        // challenge is 14 bytes).
        var belvo = try SyntheticCeremony.p256()
        belvo.challenge = Array(0..<14)
        #expect(throws: Never.self) {
            try relyingParty.verifyRegistration(
                try belvo.registration(),
                expecting: RegistrationExpectations(challenge: belvo.challenge))
        }
    }
}
