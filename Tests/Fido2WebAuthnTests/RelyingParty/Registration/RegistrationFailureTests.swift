import Fido2Authenticator
import Fido2CBOR
import Fido2Crypto
import Fido2Encoding
import Fido2TestSupport
import Fido2WebAuthn
import Fido2WebAuthnTestSupport
import Fido2WebAuthnWire
import Testing

/// Each step of §7.1 rejects what it must, with its own code and number, from an otherwise
/// valid registration.
@Suite struct RegistrationFailureTests {
    static let expectations = RegistrationExpectations(challenge: SyntheticCeremony.challenge)

    func expectRejected(
        _ ceremony: SyntheticCeremony, _ code: WebAuthnError.Code, step: VerificationStep,
        relyingParty: RelyingParty = SyntheticCeremony.relyingParty(),
        expectations: RegistrationExpectations = RegistrationFailureTests.expectations,
        authDataBytes: [UInt8]? = nil, sourceLocation: SourceLocation = #_sourceLocation
    ) throws {
        let response = try ceremony.registration(authDataBytes: authDataBytes)
        expectFailure(code, step: step, sourceLocation: sourceLocation) {
            () throws in
            try relyingParty.verifyRegistration(response, expecting: expectations)
        }
    }

    func verified(
        _ ceremony: SyntheticCeremony,
        relyingParty: RelyingParty = SyntheticCeremony.relyingParty(),
        expectations: RegistrationExpectations = RegistrationFailureTests.expectations
    ) throws -> VerifiedRegistration {
        try relyingParty.verifyRegistration(try ceremony.registration(), expecting: expectations)
    }

    @Test func acceptsTheUnchangedCeremony() throws {
        let ceremony = try SyntheticCeremony.p256()
        let result = try verified(ceremony)
        #expect(result.credentialId == ceremony.credentialId)
        #expect(result.attestationType == .none)
        #expect(result.transports == [.usb, .nfc])
        #expect(result.aaguid == SyntheticCeremony.aaguid)
        #expect(result.userVerified && !result.backupEligible && !result.backupState)
        let record = result.credentialRecord(userHandle: [9])
        #expect(record.id == ceremony.credentialId && record.userHandle == [9])
        #expect(record.publicKey == (try ceremony.credentialPublicKey))
        #expect(record.transports == [.usb, .nfc])
    }

    @Test func rejectsAResponseThatIsNotJSON() {
        expectFailure(.malformedJSON, step: "§7.1 step 3") { () throws in
            try SyntheticCeremony.relyingParty().verifyRegistration(
                jsonBytes: Array("{\"id\":".utf8), expecting: Self.expectations)
        }
    }

    @Test func rejectsClientDataThatIsNotJSON() throws {
        let ceremony = try SyntheticCeremony.p256()
        var response = try ceremony.registration()
        response.response.clientDataJSON = Array("{\"type\":".utf8)
        expectFailure(.malformedJSON, step: "§7.1 step 6") { () throws in
            try SyntheticCeremony.relyingParty().verifyRegistration(
                response, expecting: Self.expectations)
        }
    }

    @Test func strictRejectsATokenBindingStatusOutsideTheEnumeration() throws {
        var ceremony = try SyntheticCeremony.p256()
        let strict = SyntheticCeremony.relyingParty(profile: .strict)
        ceremony.tokenBinding = TokenBinding(status: "not-supported")
        try expectRejected(ceremony, .invalidValue, step: "§7.1 step 6", relyingParty: strict)
        ceremony.tokenBinding = TokenBinding(status: "supported")
        #expect(try verified(ceremony, relyingParty: strict).deviations.isEmpty)
        ceremony.tokenBinding = TokenBinding(status: "present", id: [1, 2, 3])
        #expect(try verified(ceremony, relyingParty: strict).deviations.isEmpty)
    }

    @Test func compatibleIgnoresTokenBindingAndReportsAStatusOutsideTheEnumeration() throws {
        var ceremony = try SyntheticCeremony.p256()
        ceremony.tokenBinding = TokenBinding(status: "not-supported")
        let result = try verified(ceremony)
        #expect(result.deviations.map(\.kind) == [.tokenBindingIgnored])
        #expect(result.deviations.first?.field == "clientDataJSON.tokenBinding.status")
        ceremony.tokenBinding = TokenBinding(status: "")
        #expect(try verified(ceremony).deviations.map(\.kind) == [.tokenBindingIgnored])
        ceremony.tokenBinding = TokenBinding(status: "present", id: [1, 2, 3])
        #expect(try verified(ceremony).deviations.isEmpty)
        ceremony.tokenBinding = nil
        #expect(try verified(ceremony).deviations.isEmpty)
    }

    @Test func rejectsTheWrongClientDataType() throws {
        var ceremony = try SyntheticCeremony.p256()
        ceremony.type = .get
        try expectRejected(ceremony, .clientDataTypeMismatch, step: "§7.1 step 7")
    }

    @Test func rejectsAnotherChallenge() throws {
        var ceremony = try SyntheticCeremony.p256()
        ceremony.challenge[31] ^= 1
        try expectRejected(ceremony, .challengeMismatch, step: "§7.1 step 8")
        ceremony.challenge.removeLast()
        try expectRejected(ceremony, .challengeMismatch, step: "§7.1 step 8")
    }

    @Test func rejectsAnOriginNotAllowed() throws {
        var ceremony = try SyntheticCeremony.p256()
        ceremony.origin = "https://example.org.evil.test"
        try expectRejected(ceremony, .originNotAllowed, step: "§7.1 step 9")
        // Origins are compared exactly: no trailing slash, no case folding.
        ceremony.origin = "https://example.org/"
        try expectRejected(ceremony, .originNotAllowed, step: "§7.1 step 9")
        ceremony.origin = "https://EXAMPLE.org"
        try expectRejected(ceremony, .originNotAllowed, step: "§7.1 step 9")
    }

    @Test func keepsClientDataOutOfErrorsOnOneLine() throws {
        var ceremony = try SyntheticCeremony.p256()
        ceremony.origin =
            "https://example.org\nfido2kit: §7.1 step 9: forged \u{7f}\""
            + String(
                repeating: "x", count: 200)
        let response = try ceremony.registration()
        let error = webAuthnError { () throws in
            try SyntheticCeremony.relyingParty().verifyRegistration(
                response, expecting: Self.expectations)
        }
        #expect(error?.code == .originNotAllowed)
        let description = error?.description ?? ""
        #expect(!description.contains("\n") && !description.contains("\u{7f}"))
        #expect(description.contains(#"\n"#) && description.contains("…"))
        #expect(description.count < 200)
    }

    @Test func acceptsAnAndroidAppOrigin() throws {
        var ceremony = try SyntheticCeremony.p256()
        ceremony.origin = "android:apk-key-hash:gx7sq_pxhxhrIQdLyfG0pxKwiJ7hOk2DJQ4xvKd438Q"
        let relyingParty = RelyingParty(
            id: SyntheticCeremony.rpID, origins: [SyntheticCeremony.origin, ceremony.origin])
        #expect(try verified(ceremony, relyingParty: relyingParty).origin == ceremony.origin)
    }

    @Test func rejectsCrossOriginUnlessAllowed() throws {
        var ceremony = try SyntheticCeremony.p256()
        ceremony.crossOrigin = true
        try expectRejected(ceremony, .crossOriginNotAllowed, step: "§7.1 step 10")
        _ = try verified(
            ceremony,
            relyingParty: SyntheticCeremony.relyingParty(crossOrigin: .allowed(topOrigins: [])))
    }

    @Test func rejectsATopOriginUnlessListed() throws {
        var ceremony = try SyntheticCeremony.p256()
        ceremony.crossOrigin = true
        ceremony.topOrigin = "https://partner.example"
        let allowed = SyntheticCeremony.relyingParty(
            crossOrigin: .allowed(topOrigins: ["https://partner.example"]))
        _ = try verified(ceremony, relyingParty: allowed)
        try expectRejected(
            ceremony, .crossOriginNotAllowed, step: "§7.1 step 11",
            relyingParty: SyntheticCeremony.relyingParty(
                crossOrigin: .allowed(topOrigins: ["https://other.example"])))
        // With cross-origin forbidden, crossOrigin (step 10) fails first.
        try expectRejected(ceremony, .crossOriginNotAllowed, step: "§7.1 step 10")
    }

    @Test func rejectsAnAttestationObjectThatIsNotCBOR() throws {
        let ceremony = try SyntheticCeremony.p256()
        var response = try ceremony.registration()
        response.response.attestationObject = [0xa3, 0x63]
        expectFailure(.truncated, step: "§7.1 step 13") { () throws in
            try SyntheticCeremony.relyingParty().verifyRegistration(
                response, expecting: Self.expectations)
        }
        response.response.attestationObject = [0x80]
        expectFailure(.invalidAttestationObject, step: "§7.1 step 13") {
            () throws in
            try SyntheticCeremony.relyingParty().verifyRegistration(
                response, expecting: Self.expectations)
        }
    }

    @Test func rejectsAuthenticatorDataWithoutACredential() throws {
        let ceremony = try SyntheticCeremony.p256()
        let authData = try AuthenticatorData(
            relyingPartyID: SyntheticCeremony.rpID, flags: [.userPresent], signCount: 0)
        try expectRejected(
            ceremony, .attestedCredentialDataFlagMismatch, step: "§7.1 step 13",
            authDataBytes: Array(authData.bytes))
    }

    @Test func rejectsAnotherRelyingPartyID() throws {
        var ceremony = try SyntheticCeremony.p256()
        ceremony.rpID = "evil.example"
        try expectRejected(ceremony, .rpIdHashMismatch, step: "§7.1 step 14")
    }

    @Test func acceptsAnyOfSeveralRelyingPartyIDs() throws {
        var ceremony = try SyntheticCeremony.p256()
        ceremony.rpID = "login.example.org"
        let relyingParty = RelyingParty(
            identifiers: ["example.org", "login.example.org"],
            origins: OriginPolicy(allowedOrigins: [SyntheticCeremony.origin]))
        #expect(
            try verified(ceremony, relyingParty: relyingParty).relyingPartyID
                == "login.example.org")
    }

    @Test func requiresUserPresenceUnlessRelaxed() throws {
        var ceremony = try SyntheticCeremony.p256()
        ceremony.flags = [.userVerified]
        try expectRejected(ceremony, .userPresenceMissing, step: "§7.1 step 15")
        let relaxed = SyntheticCeremony.relyingParty(
            relaxations: .allowsRegistrationWithoutUserPresence)
        #expect(try !verified(ceremony, relyingParty: relaxed).flags.contains(.userPresent))
    }

    @Test func requiresUserVerificationWhenAsked() throws {
        var ceremony = try SyntheticCeremony.p256()
        ceremony.flags = [.userPresent]
        var expectations = Self.expectations
        expectations.requiresUserVerification = true
        try expectRejected(
            ceremony, .userVerificationMissing, step: "§7.1 step 16", expectations: expectations)
        _ = try verified(ceremony)
    }

    @Test func rejectsBackupStateWithoutEligibility() throws {
        let ceremony = try SyntheticCeremony.p256()
        var authData = Array(try ceremony.registrationAuthenticatorData().bytes)
        authData[32] |= 0x10
        try expectRejected(
            ceremony, .backupStateWithoutEligibility, step: "§7.1 step 17", authDataBytes: authData)
    }

    @Test func reportsBackupFlags() throws {
        var ceremony = try SyntheticCeremony.p256()
        ceremony.flags = [.userPresent, .backupEligible, .backupState]
        let result = try verified(ceremony)
        #expect(result.backupEligible && result.backupState && !result.userVerified)
        #expect(result.credentialRecord().backupEligible)
    }

    @Test func rejectsAnAlgorithmNotInPubKeyCredParams() throws {
        let ceremony = try SyntheticCeremony.p256()
        var expectations = Self.expectations
        expectations.allowedAlgorithms = [.edDSA, .rs256]
        try expectRejected(
            ceremony, .algorithmNotAllowed, step: "§7.1 step 20", expectations: expectations)
    }

    @Test func rejectsARawIdThatIsNotTheAttestedCredential() throws {
        var ceremony = try SyntheticCeremony.p256()
        ceremony.rawId = Array(repeating: 0x43, count: 16)
        try expectRejected(ceremony, .credentialIdMismatch, step: "§7.1 step 25")
    }

    @Test func rejectsACredentialIdOver1023Bytes() throws {
        let ceremony = try SyntheticCeremony.p256()
        var authData = DigestAlgorithm.sha256.hash(Array(SyntheticCeremony.rpID.utf8))
        authData += [0x45, 0, 0, 0, 0] + SyntheticCeremony.aaguid.bytes + [0x04, 0x00]
        authData += [UInt8](repeating: 0x42, count: 1024)
        authData += try ceremony.credentialPublicKey.cborEncoded
        try expectRejected(
            ceremony, .invalidCredentialIdLength, step: "§7.1 step 25", authDataBytes: authData)
    }

    @Test func rejectsExtensionsOutsideThePolicy() throws {
        var ceremony = try SyntheticCeremony.p256()
        ceremony.extensions = try AuthenticatorExtensionOutputs(
            credProtect: 2, hmacSecret: .enabled(true))
        var expectations = Self.expectations
        expectations.extensions = .allowOnly(["credProtect"])
        try expectRejected(
            ceremony, .extensionNotAllowed, step: "§7.1 step 28", expectations: expectations)
        expectations.extensions = .allowOnly(["credProtect", "hmac-secret"])
        let result = try verified(ceremony, expectations: expectations)
        #expect(result.extensions?.credProtect == 2)
        #expect(try verified(ceremony).extensions?.hmacSecret == .enabled(true))
    }

    @Test func rejectsAnUnknownFormat() throws {
        var ceremony = try SyntheticCeremony.p256()
        ceremony.attestation = .raw(format: "x-fido2kit-test", statement: [0xa0])
        try expectRejected(ceremony, .attestationFormatUnsupported, step: "§7.1 step 21")
    }

    @Test func rejectsANoneStatementWithMembers() throws {
        var ceremony = try SyntheticCeremony.p256()
        var writer = CBORWriter()
        writer.writeMapHeader(count: 1)
        writer.writeTextString("sig")
        writer.writeByteString([1])
        ceremony.attestation = .raw(format: "none", statement: writer.bytes)
        try expectRejected(ceremony, .invalidAttestationStatement, step: "§7.1 step 22")
    }

    @Test func rejectsAnAttestationTypeOutsideThePolicy() throws {
        let ceremony = try SyntheticCeremony.p256()
        var expectations = Self.expectations
        expectations.acceptedAttestationTypes = [.basic, .attestationCA]
        try expectRejected(
            ceremony, .attestationTypeNotAccepted, step: "§7.1 step 24",
            expectations: expectations)
    }
}
