import Fido2Crypto
import Fido2TestSupport
import Fido2WebAuthn
import Fido2WebAuthnTestSupport
import Fido2WebAuthnWire
import Testing

/// Named relaxations: each has one command-line name; a failure one of them would accept names
/// it (in the library and on the command line); what it lets through is reported, under its
/// name, and nothing is reported when the check would have passed anyway.
@Suite struct VerificationRelaxationsTests {
    @Test func everyRelaxationHasOneNameAndReadsBackFromIt() {
        let names = VerificationRelaxations.named.map(\.name)
        #expect(Set(names).count == names.count)
        #expect(
            Set(VerificationRelaxations.named.map(\.relaxation.rawValue)).count == names.count)
        for descriptor in VerificationRelaxations.named {
            #expect(VerificationRelaxations(name: descriptor.name) == descriptor.relaxation)
            #expect(descriptor.relaxation.names == [descriptor.name])
        }
        #expect(VerificationRelaxations(name: "everything") == nil)
        let issueNames: Set<String> = [
            "user-presence", "safetynet-timestamp", "safetynet-cts-profile",
            "backup-eligibility-change", "android-key-missing-origin-purpose",
        ]
        #expect(issueNames.isSubset(of: Set(names)))
    }

    func assertion(flags: AuthenticatorDataFlags, signCount: UInt32) throws -> SyntheticCeremony {
        var ceremony = try SyntheticCeremony.p256()
        ceremony.type = .get
        ceremony.flags = flags
        ceremony.signCount = signCount
        return ceremony
    }

    @Test func aBackupEligibilityChangeIsRefusedNamingTheRelaxationOrAcceptedAndReported() throws {
        let ceremony = try assertion(flags: [.userPresent], signCount: 1)
        let expectations = AuthenticationExpectations(
            challenge: SyntheticCeremony.challenge,
            credential: try ceremony.record(backupEligible: true))
        let response = try ceremony.assertion()
        let error = webAuthnError { () throws in
            try SyntheticCeremony.relyingParty().verifyAuthentication(
                response, expecting: expectations)
        }
        #expect(error?.code == .backupEligibilityChanged && error?.step == "§7.2 step 19")
        #expect(
            error?.reason.contains("VerificationRelaxations.acceptsBackupEligibilityChange") == true
        )
        #expect(error?.reason.contains("--relax backup-eligibility-change") == true)
        let result = try SyntheticCeremony.relyingParty(
            relaxations: .acceptsBackupEligibilityChange
        ).verifyAuthentication(try ceremony.assertion(), expecting: expectations)
        #expect(!result.backupEligible && !result.updatedRecord.backupEligible)
        #expect(result.deviations.count == 1)
        #expect(result.deviations.first?.kind == .relaxedCheck)
        #expect(result.deviations.first?.relaxation == .acceptsBackupEligibilityChange)
        #expect(result.deviations.first?.field == "authenticatorData.flags")
        // Unchanged BE is nothing to report, relaxation or not.
        let same = try SyntheticCeremony.relyingParty(
            relaxations: .acceptsBackupEligibilityChange
        ).verifyAuthentication(
            try ceremony.assertion(),
            expecting: AuthenticationExpectations(
                challenge: SyntheticCeremony.challenge, credential: try ceremony.record()))
        #expect(same.deviations.isEmpty)
        // The strict profile refuses 0 -> 1 too, unless the relaxation is named.
        let gained = try assertion(flags: [.userPresent, .backupEligible], signCount: 1)
        let unregistered = AuthenticationExpectations(
            challenge: SyntheticCeremony.challenge, credential: try gained.record())
        let strictError = webAuthnError { () throws in
            try SyntheticCeremony.relyingParty(profile: .strict).verifyAuthentication(
                try gained.assertion(), expecting: unregistered)
        }
        #expect(strictError?.code == .backupEligibilityChanged)
        let relaxed = try SyntheticCeremony.relyingParty(
            profile: .strict, relaxations: .acceptsBackupEligibilityChange
        ).verifyAuthentication(try gained.assertion(), expecting: unregistered)
        #expect(relaxed.deviations.map(\.relaxation) == [.acceptsBackupEligibilityChange])
        #expect(relaxed.updatedRecord.backupEligible)
    }

    @Test func aCounterRegressionIsRefusedNamingTheRelaxationOrAcceptedAndReported() throws {
        let ceremony = try assertion(flags: [.userPresent], signCount: 3)
        let expectations = AuthenticationExpectations(
            challenge: SyntheticCeremony.challenge, credential: try ceremony.record(signCount: 3))
        let response = try ceremony.assertion()
        let error = webAuthnError { () throws in
            try SyntheticCeremony.relyingParty().verifyAuthentication(
                response, expecting: expectations)
        }
        #expect(error?.code == .signCountRegressed)
        #expect(error?.reason.contains("--relax sign-count-regression") == true)
        let result = try SyntheticCeremony.relyingParty(relaxations: .acceptsSignCountRegression)
            .verifyAuthentication(try ceremony.assertion(), expecting: expectations)
        #expect(result.signCountVerdict == .possibleClone(stored: 3, received: 3))
        #expect(result.deviations.map(\.relaxation) == [.acceptsSignCountRegression])
    }

    @Test func aRegistrationWithoutUserPresenceNamesTheRelaxationOrIsReported() throws {
        var ceremony = try SyntheticCeremony.p256()
        ceremony.flags = [.userVerified]
        let expectations = RegistrationExpectations(challenge: SyntheticCeremony.challenge)
        let response = try ceremony.registration()
        let error = webAuthnError { () throws in
            try SyntheticCeremony.relyingParty().verifyRegistration(
                response, expecting: expectations)
        }
        #expect(error?.code == .userPresenceMissing)
        #expect(error?.reason.contains("--relax user-presence") == true)
        let result = try SyntheticCeremony.relyingParty(
            relaxations: .allowsRegistrationWithoutUserPresence
        ).verifyRegistration(try ceremony.registration(), expecting: expectations)
        #expect(result.deviations.map(\.relaxation) == [.allowsRegistrationWithoutUserPresence])
    }

    @Test func anAlgorithmOutsideTheListNamesTheOption() throws {
        let ceremony = try SyntheticCeremony.p256()
        let response = try ceremony.registration()
        let error = webAuthnError { () throws in
            try SyntheticCeremony.relyingParty().verifyRegistration(
                response,
                expecting: RegistrationExpectations(
                    challenge: SyntheticCeremony.challenge, allowedAlgorithms: [.rs256]))
        }
        #expect(error?.code == .algorithmNotAllowed)
        #expect(error?.reason.contains("--allow-algorithm ES256") == true)
    }
}
