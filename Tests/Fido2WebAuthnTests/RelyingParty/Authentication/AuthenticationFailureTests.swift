import Fido2Authenticator
import Fido2Crypto
import Fido2Encoding
import Fido2TestSupport
import Fido2WebAuthn
import Fido2WebAuthnTestSupport
import Fido2WebAuthnWire
import Testing

/// Each step of §7.2 rejects what it must, with its own code and number, from an otherwise
/// valid assertion.
@Suite struct AuthenticationFailureTests {
    func expectations(
        _ ceremony: SyntheticCeremony, record: CredentialRecord? = nil
    ) throws -> AuthenticationExpectations {
        AuthenticationExpectations(
            challenge: SyntheticCeremony.challenge, credential: try record ?? ceremony.record(),
            allowCredentials: [ceremony.credentialId])
    }

    func assertionCeremony() throws -> SyntheticCeremony {
        var ceremony = try SyntheticCeremony.p256()
        ceremony.type = .get
        return ceremony
    }

    func expectRejected(
        _ ceremony: SyntheticCeremony, _ code: WebAuthnError.Code, step: VerificationStep,
        relyingParty: RelyingParty = SyntheticCeremony.relyingParty(),
        expectations: AuthenticationExpectations? = nil, authDataBytes: [UInt8]? = nil,
        sourceLocation: SourceLocation = #_sourceLocation
    ) throws {
        let response = try ceremony.assertion(authDataBytes: authDataBytes)
        let expectations = try expectations ?? self.expectations(ceremony)
        expectFailure(code, step: step, sourceLocation: sourceLocation) {
            () throws in
            try relyingParty.verifyAuthentication(response, expecting: expectations)
        }
    }

    func verified(
        _ ceremony: SyntheticCeremony, expectations: AuthenticationExpectations? = nil,
        relyingParty: RelyingParty = SyntheticCeremony.relyingParty()
    ) throws -> VerifiedAuthentication {
        try relyingParty.verifyAuthentication(
            try ceremony.assertion(), expecting: try expectations ?? self.expectations(ceremony))
    }

    @Test func acceptsTheUnchangedCeremony() throws {
        var ceremony = try assertionCeremony()
        ceremony.signCount = 7
        let result = try verified(ceremony)
        #expect(result.signCount == 7 && result.signCountVerdict == .advanced)
        #expect(result.userVerified && result.origin == SyntheticCeremony.origin)
        let updated = result.updatedRecord
        #expect(updated.signCount == 7 && !updated.backupState)
    }

    @Test func verifiesEverySupportedAlgorithm() throws {
        let keys: [(KeyKind, COSEAlgorithm)] = [
            (.p256, .es256), (.p384, .es384), (.p521, .es512), (.ed25519, .edDSA),
            (.ed448, .ed448), (.rsa(modulusBits: 2048), .rs256), (.rsa(modulusBits: 2048), .ps256),
            (.rsa(modulusBits: 2048), .rs512),
        ]
        for (kind, algorithm) in keys {
            var ceremony = SyntheticCeremony(
                credentialKey: try PrivateKey(generating: kind), algorithm: algorithm)
            ceremony.type = .get
            #expect(try verified(ceremony).signCountVerdict == .notUsed, "\(algorithm)")
        }
    }

    @Test func rejectsAResponseThatIsNotJSON() throws {
        let ceremony = try assertionCeremony()
        let expectations = try expectations(ceremony)
        expectFailure(.malformedJSON, step: "§7.2 step 3") { () throws in
            try SyntheticCeremony.relyingParty().verifyAuthentication(
                jsonBytes: Array("[".utf8), expecting: expectations)
        }
        let json = try ceremony.assertion().jsonBytes()
        #expect(
            try SyntheticCeremony.relyingParty().verifyAuthentication(
                jsonBytes: json, expecting: expectations
            ).credentialId == ceremony.credentialId)
    }

    @Test func rejectsACredentialOutsideAllowCredentials() throws {
        let ceremony = try assertionCeremony()
        var expectations = try expectations(ceremony)
        expectations.allowCredentials = [[1, 2, 3]]
        try expectRejected(
            ceremony, .credentialNotAllowed, step: "§7.2 step 5", expectations: expectations)
        expectations.allowCredentials = []
        _ = try verified(ceremony, expectations: expectations)
    }

    @Test func rejectsARecordOfAnotherCredential() throws {
        let ceremony = try assertionCeremony()
        var record = try ceremony.record()
        record.id = [1, 2, 3]
        var expectations = try expectations(ceremony, record: record)
        expectations.allowCredentials = []
        try expectRejected(
            ceremony, .credentialNotAllowed, step: "§7.2 step 6", expectations: expectations)
    }

    @Test func rejectsAnotherUsersHandle() throws {
        var ceremony = try assertionCeremony()
        ceremony.userHandle = [7, 7]
        let record = try ceremony.record(userHandle: [8, 8])
        try expectRejected(
            ceremony, .userHandleMismatch, step: "§7.2 step 6",
            expectations: try expectations(ceremony, record: record))
        // The record's own handle passes; a record without one cannot compare and accepts.
        _ = try verified(
            ceremony,
            expectations: try expectations(ceremony, record: ceremony.record(userHandle: [7, 7])))
        #expect(try verified(ceremony).userHandle == [7, 7])
    }

    @Test func requiresAUserHandleWhenTheUserWasNotIdentified() throws {
        var ceremony = try assertionCeremony()
        var expectations = try expectations(ceremony, record: ceremony.record(userHandle: [7]))
        expectations.userIdentification = .byUserHandle
        try expectRejected(
            ceremony, .userHandleMismatch, step: "§7.2 step 6", expectations: expectations)
        ceremony.userHandle = [7]
        _ = try verified(ceremony, expectations: expectations)
    }

    @Test func rejectsTruncatedAuthenticatorData() throws {
        let ceremony = try assertionCeremony()
        try expectRejected(
            ceremony, .truncated, step: "§7.2 step 7", authDataBytes: Array(repeating: 0, count: 36)
        )
    }

    @Test func rejectsBackupStateWithoutEligibility() throws {
        let ceremony = try assertionCeremony()
        var authData = DigestAlgorithm.sha256.hash(Array(SyntheticCeremony.rpID.utf8))
        authData += [0x15, 0, 0, 0, 1]
        try expectRejected(
            ceremony, .backupStateWithoutEligibility, step: "§7.2 step 18",
            authDataBytes: authData)
    }

    @Test func rejectsClientDataThatIsNotJSON() throws {
        let ceremony = try assertionCeremony()
        var response = try ceremony.assertion()
        response.response.clientDataJSON = Array("not json".utf8)
        let expectations = try expectations(ceremony)
        expectFailure(.malformedJSON, step: "§7.2 step 9") { () throws in
            try SyntheticCeremony.relyingParty().verifyAuthentication(
                response, expecting: expectations)
        }
    }

    @Test func strictRejectsATokenBindingStatusOutsideTheEnumerationCompatibleReportsIt() throws {
        var ceremony = try assertionCeremony()
        ceremony.tokenBinding = TokenBinding(status: "unknown")
        try expectRejected(
            ceremony, .invalidValue, step: "§7.2 step 9",
            relyingParty: SyntheticCeremony.relyingParty(profile: .strict))
        #expect(try verified(ceremony).deviations.map(\.kind) == [.tokenBindingIgnored])
    }

    @Test func rejectsTheWrongClientDataType() throws {
        var ceremony = try assertionCeremony()
        ceremony.type = .create
        try expectRejected(ceremony, .clientDataTypeMismatch, step: "§7.2 step 10")
        ceremony.type = .paymentGet
        try expectRejected(ceremony, .clientDataTypeMismatch, step: "§7.2 step 10")
    }

    @Test func rejectsAnotherChallenge() throws {
        var ceremony = try assertionCeremony()
        ceremony.challenge = Array(repeating: 0, count: 32)
        try expectRejected(ceremony, .challengeMismatch, step: "§7.2 step 11")
    }

    @Test func rejectsAnOriginNotAllowed() throws {
        var ceremony = try assertionCeremony()
        ceremony.origin = "http://example.org"
        try expectRejected(ceremony, .originNotAllowed, step: "§7.2 step 12")
    }

    @Test func rejectsCrossOriginAndTopOriginUnlessAllowed() throws {
        var ceremony = try assertionCeremony()
        ceremony.crossOrigin = true
        try expectRejected(ceremony, .crossOriginNotAllowed, step: "§7.2 step 13")
        ceremony.topOrigin = "https://framer.example"
        try expectRejected(
            ceremony, .crossOriginNotAllowed, step: "§7.2 step 14",
            relyingParty: SyntheticCeremony.relyingParty(crossOrigin: .allowed(topOrigins: [])))
        _ = try verified(
            ceremony,
            relyingParty: SyntheticCeremony.relyingParty(
                crossOrigin: .allowed(topOrigins: ["https://framer.example"])))
    }

    @Test func rejectsAnotherRelyingPartyID() throws {
        var ceremony = try assertionCeremony()
        ceremony.rpID = "example.com"
        try expectRejected(ceremony, .rpIdHashMismatch, step: "§7.2 step 15")
    }

    @Test func requiresUserPresence() throws {
        var ceremony = try assertionCeremony()
        ceremony.flags = [.userVerified]
        try expectRejected(ceremony, .userPresenceMissing, step: "§7.2 step 16")
        // The registration relaxation does not reach authentication.
        try expectRejected(
            ceremony, .userPresenceMissing, step: "§7.2 step 16",
            relyingParty: SyntheticCeremony.relyingParty(
                relaxations: .allowsRegistrationWithoutUserPresence))
    }

    @Test func requiresUserVerificationWhenAsked() throws {
        var ceremony = try assertionCeremony()
        ceremony.flags = [.userPresent]
        var expectations = try expectations(ceremony)
        expectations.requiresUserVerification = true
        try expectRejected(
            ceremony, .userVerificationMissing, step: "§7.2 step 17", expectations: expectations)
        #expect(try !verified(ceremony).userVerified)
    }

    @Test func rejectsABackupEligibilityChangeUnderTheStrictProfile() throws {
        var ceremony = try assertionCeremony()
        ceremony.flags = [.userPresent, .backupEligible, .backupState]
        let strict = SyntheticCeremony.relyingParty(profile: .strict)
        try expectRejected(
            ceremony, .backupEligibilityChanged, step: "§7.2 step 19", relyingParty: strict)
        let eligible = try expectations(ceremony, record: ceremony.record(backupEligible: true))
        #expect(try verified(ceremony, expectations: eligible, relyingParty: strict).backupState)
        ceremony.flags = [.userPresent]
        try expectRejected(
            ceremony, .backupEligibilityChanged, step: "§7.2 step 19", relyingParty: strict,
            expectations: eligible)
    }

    @Test func acceptsBackupEligibilityGainedAndStoresItButRefusesItLost() throws {
        var ceremony = try assertionCeremony()
        ceremony.flags = [.userPresent, .backupEligible, .backupState]
        let result = try verified(ceremony)
        #expect(result.backupEligible)
        #expect(result.deviations.map(\.kind) == [.backupEligibilityGained])
        #expect(result.deviations.first?.field == "authenticatorData.flags")
        #expect(result.deviations.first?.relaxation == nil)
        #expect(result.updatedRecord.backupEligible)
        #expect(result.updatedRecord.backupState)
        // The updated record, stored, makes the next BE 1 assertion nothing to report.
        let next = try verified(
            ceremony, expectations: try expectations(ceremony, record: result.updatedRecord))
        #expect(next.deviations.isEmpty)
        // 1 -> 0 fails in the compatible profile too.
        ceremony.flags = [.userPresent]
        try expectRejected(
            ceremony, .backupEligibilityChanged, step: "§7.2 step 19",
            expectations: try expectations(ceremony, record: result.updatedRecord))
        // An unchanged BE of 0 stays 0 in the updated record.
        let unchanged = try verified(ceremony)
        #expect(!unchanged.updatedRecord.backupEligible && unchanged.deviations.isEmpty)
    }

    @Test func rejectsASignatureByAnotherKey() throws {
        let ceremony = try assertionCeremony()
        var other = ceremony
        other.credentialKey = try PrivateKey(generating: .p256)
        try expectRejected(
            other, .signatureInvalid, step: "§7.2 step 21",
            expectations: try expectations(ceremony))
    }

    @Test func rejectsARecordKeyThatCannotBeRead() {
        expectFailure(.invalidCredentialPublicKey, step: "§7.2 step 21") {
            () throws in
            try CredentialRecord(
                id: [1], publicKeyBytes: [0xa1, 0x01, 0x02], signCount: 0, backupEligible: false)
        }
    }

    @Test func refusesACounterThatDidNotAdvanceByDefault() throws {
        var ceremony = try assertionCeremony()
        ceremony.signCount = 5
        for stored: UInt32 in [5, 9] {
            let expectations = try expectations(
                ceremony, record: ceremony.record(signCount: stored))
            try expectRejected(
                ceremony, .signCountRegressed, step: "§7.2 step 22", expectations: expectations)
        }
        // A counter that stopped at zero after counting is a clone signal too.
        ceremony.signCount = 0
        try expectRejected(
            ceremony, .signCountRegressed, step: "§7.2 step 22",
            expectations: try expectations(ceremony, record: ceremony.record(signCount: 3)))
    }

    @Test func rejectsExtensionsOutsideThePolicy() throws {
        var ceremony = try assertionCeremony()
        ceremony.extensions = try AuthenticatorExtensionOutputs(
            largeBlobKey: Array(repeating: 1, count: 32))
        var expectations = try expectations(ceremony)
        expectations.extensions = .allowOnly([])
        try expectRejected(
            ceremony, .extensionNotAllowed, step: "§7.2 step 23", expectations: expectations)
        #expect(try verified(ceremony).extensions?.largeBlobKey?.count == 32)
    }
}
