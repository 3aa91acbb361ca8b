import Fido2BelvoDevice
import Fido2Crypto
import Fido2Encoding
import Fido2Vectors
import Fido2WebAuthn
import Fido2WebAuthnWire
import Testing

@testable import Fido2Belvo

/// The guide's options go through the device into the documented bodies, and fido2kit's
/// relying party accepts what the bodies carry: the attestation with the enrollment options'
/// challenge and rp.id (§7.1), the assertion with the payment's challenge and the stored key
/// (§7.2), the counter advancing. Wrong expectations are refused, so acceptance means something.
@Suite struct EndToEndVerificationTests {
    /// An enrolled device and what the relying party verified of its confirm body.
    private struct Enrollment {
        let device: BelvoDevice
        let temporary: TemporaryStore
        let options: BelvoRegistrationOptions
        let confirmBody: [UInt8]
        let relyingParty: RelyingParty
        let registration: VerifiedRegistration

        init(origin: String? = nil) throws {
            temporary = try TemporaryStore()
            device = BelvoDevice(store: temporary.store, origin: origin)
            options = try BelvoRegistrationOptions(
                json: Array(BelvoGuideSamples.registrationOptions.utf8))
            confirmBody = try BelvoConfirmEnrollmentRequest(
                attestation: device.startRegistration(options: options)
            ).body
            relyingParty = RelyingParty(
                id: options.rpId, origins: [device.origin(relyingPartyID: options.rpId)])
            registration = try relyingParty.verifyRegistration(
                BelvoConfirmEnrollmentRequest.registrationResponse(body: confirmBody),
                expecting: Self.expectations(options, challenge: options.challenge))
        }

        /// What the relying party expects of a registration answering `options` with
        /// `challenge`: user verification and one of Belvo's algorithms.
        static func expectations(
            _ options: BelvoRegistrationOptions, challenge: [UInt8]
        ) -> RegistrationExpectations {
            RegistrationExpectations(
                challenge: challenge, requiresUserVerification: true,
                allowedAlgorithms: options.algorithms.map { COSEAlgorithm(rawValue: $0) })
        }

        func expectations(challenge: [UInt8]) -> RegistrationExpectations {
            Self.expectations(options, challenge: challenge)
        }

        /// The record a relying party keeps after enrollment, with Belvo's user handle.
        var record: CredentialRecord {
            registration.credentialRecord(userHandle: options.userHandle)
        }

        /// The authorize body for the guide's payment `fido_options` allowing this credential.
        func authorizeBody(platform: String? = nil) throws -> (BelvoAssertionOptions, [UInt8]) {
            let json = BelvoGuideSamples.fidoOptions(
                allowing: Base64URL.encode(registration.credentialId))
            let options = try BelvoAssertionOptions(json: Array(json.utf8))
            let request = try device.authorizePaymentRequest(
                fidoOptions: Array(json.utf8),
                riskSignals: BelvoRiskSignals(jsonString: BelvoSamples.riskSignals),
                platform: platform)
            return (options, request.body)
        }

        func verifyPayment(
            _ body: [UInt8], _ options: BelvoAssertionOptions, record: CredentialRecord,
            relyingParty: RelyingParty? = nil
        ) throws -> VerifiedAuthentication {
            try (relyingParty ?? self.relyingParty).verifyAuthentication(
                BelvoAuthorizePaymentRequest.authenticationResponse(body: body),
                expecting: AuthenticationExpectations(
                    challenge: options.challenge, credential: record,
                    allowCredentials: options.allowCredentials, requiresUserVerification: true))
        }
    }

    @Test func confirmBodyVerifiesWithTheOptionsChallengeAndRPID() throws {
        let enrollment = try Enrollment()
        let registration = enrollment.registration
        let body = try JSONValue.parse(enrollment.confirmBody)
        #expect(
            body["confirmation_data"]?["id"] == .string(Base64URL.encode(registration.credentialId))
        )
        #expect(registration.relyingPartyID == "belvo.com")
        #expect(registration.origin == "https://belvo.com")
        #expect(registration.algorithm == .es256)
        #expect(registration.format == "none")
        #expect(registration.attestationType == .none)
        #expect(registration.userVerified)
        #expect(registration.signCount == 0)
        let stored = try #require(
            try enrollment.temporary.store.credential(id: registration.credentialId))
        #expect(
            try COSEKey(publicKey: stored.privateKey.publicKey, algorithm: stored.algorithm)
                == registration.credentialPublicKey)
    }

    @Test func authorizeBodyVerifiesWithTheStoredKeyAndTheCounterAdvances() throws {
        let enrollment = try Enrollment()
        var record = enrollment.record
        for expected in [UInt32(1), 2, 3] {
            let (options, body) = try enrollment.authorizeBody()
            let payment = try enrollment.verifyPayment(body, options, record: record)
            #expect(payment.signCount == expected)
            #expect(payment.signCountVerdict == .advanced)
            #expect(payment.userHandle == Array("a5bd0ef9-f8ab-41a2-b968-489761a91de6".utf8))
            #expect(payment.userVerified)
            #expect(payment.relyingPartyID == "belvo.com")
            record = payment.updatedRecord
        }
    }

    @Test func sdkEditionAuthorizeBodyVerifiesToo() throws {
        let enrollment = try Enrollment()
        let (options, body) = try enrollment.authorizeBody(
            platform: BelvoAuthorizePaymentRequest.iosPlatform)
        #expect(
            try enrollment.verifyPayment(body, options, record: enrollment.record).signCount == 1)
    }

    @Test func configuredOriginVerifiesOnlyAgainstThatOrigin() throws {
        let enrollment = try Enrollment(origin: "https://pix.belvo.com")
        #expect(enrollment.registration.origin == "https://pix.belvo.com")
        let (options, body) = try enrollment.authorizeBody()
        let defaultOriginOnly = RelyingParty(id: "belvo.com", origins: ["https://belvo.com"])
        #expect {
            try enrollment.verifyPayment(
                body, options, record: enrollment.record, relyingParty: defaultOriginOnly)
        } throws: { ($0 as? WebAuthnError)?.code == .originNotAllowed }
    }

    @Test func confirmBodyIsRefusedForAnotherChallengeOrRPID() throws {
        let enrollment = try Enrollment()
        let response = try BelvoConfirmEnrollmentRequest.registrationResponse(
            body: enrollment.confirmBody)
        #expect {
            try enrollment.relyingParty.verifyRegistration(
                response,
                expecting: enrollment.expectations(
                    challenge: try Base64URL.decode("oGW096Hvr8sVUIOf-10iqWI7ZfSx2GhoU359bBRK9h4")))
        } throws: { ($0 as? WebAuthnError)?.code == .challengeMismatch }
        let otherRP = RelyingParty(id: "pix.belvo.com", origins: ["https://belvo.com"])
        #expect {
            try otherRP.verifyRegistration(
                response,
                expecting: enrollment.expectations(challenge: enrollment.options.challenge))
        } throws: { ($0 as? WebAuthnError)?.code == .rpIdHashMismatch }
    }

    @Test func replayedAuthorizeBodyIsRefused() throws {
        let enrollment = try Enrollment()
        let (options, body) = try enrollment.authorizeBody()
        let first = try enrollment.verifyPayment(body, options, record: enrollment.record)
        #expect {
            try enrollment.verifyPayment(body, options, record: first.updatedRecord)
        } throws: { ($0 as? WebAuthnError)?.code == .signCountRegressed }
    }

    @Test func authorizeBodyIsRefusedWithAnotherKey() throws {
        let enrollment = try Enrollment()
        let other = try Enrollment()
        let (options, body) = try enrollment.authorizeBody()
        var record = other.record
        record.id = enrollment.registration.credentialId
        #expect {
            try enrollment.verifyPayment(body, options, record: record)
        } throws: { ($0 as? WebAuthnError)?.code == .signatureInvalid }
    }
}
