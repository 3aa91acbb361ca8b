import Fido2Belvo
import Fido2Crypto
import Fido2Encoding
import Fido2WebAuthn
import Fido2WebAuthnWire

extension BelvoDemo {
    /// Steps 14 and 15: fido2kit's relying party verifies the two bodies as Belvo (or the
    /// payer's bank) would: the confirm body's registration with the enrollment options'
    /// challenge and rp.id (WebAuthn §7.1), the authorize body's assertion with the payment
    /// intent's challenge and the key registered at enrollment (§7.2), the counter advancing.
    ///
    /// - Throws: `WebAuthnError` naming the failed step, `BelvoError` when a body cannot be
    ///   read back, `AuthenticatorError` when the device's store cannot be read, or
    ///   ``DemoFailure`` when a result is not the expected one.
    func verify(_ outcome: Outcome) throws {
        write("")
        write("Verification (fido2kit's relying party, WebAuthn Level 3 §7.1 and §7.2)")
        let options = outcome.registrationOptions
        let relyingParty = RelyingParty(id: options.rpId, origins: [outcome.origin])

        let registration = try relyingParty.verifyRegistration(
            BelvoConfirmEnrollmentRequest.registrationResponse(body: outcome.confirmBody),
            expecting: RegistrationExpectations(
                challenge: options.challenge, requiresUserVerification: true,
                allowedAlgorithms: options.algorithms.map { COSEAlgorithm(rawValue: $0) }))
        guard let stored = try outcome.store.credential(id: registration.credentialId),
            try COSEKey(publicKey: stored.privateKey.publicKey, algorithm: stored.algorithm)
                == registration.credentialPublicKey
        else {
            throw DemoFailure("the registered key is not the one in the device's store")
        }
        step(
            14, "verify the confirm body",
            "§7.1 accepts confirmation_data with the options' challenge "
                + "\(Base64URL.encode(options.challenge)) and rp.id \(registration.relyingPartyID), "
                + "origin \(registration.origin)",
            "credential \(Base64URL.encode(registration.credentialId)): \(registration.algorithm), "
                + "fmt \(registration.format), user verified \(registration.userVerified), "
                + "signCount \(registration.signCount); its key is the one in the device's store")

        let assertionOptions = outcome.assertionOptions
        let record = registration.credentialRecord(userHandle: options.userHandle)
        let payment = try relyingParty.verifyAuthentication(
            BelvoAuthorizePaymentRequest.authenticationResponse(body: outcome.authorizeBody),
            expecting: AuthenticationExpectations(
                challenge: assertionOptions.challenge, credential: record,
                allowCredentials: assertionOptions.allowCredentials,
                requiresUserVerification: true))
        guard payment.signCountVerdict == .advanced, payment.signCount > registration.signCount
        else {
            throw DemoFailure(
                "the signature counter did not advance (\(registration.signCount) → "
                    + "\(payment.signCount))")
        }
        step(
            15, "verify the authorize body",
            "§7.2 accepts the assertion with the payment intent's challenge "
                + "\(Base64URL.encode(assertionOptions.challenge)) and the key registered in step 14",
            "signCount \(registration.signCount) → \(payment.signCount) (advanced); userHandle is "
                + "the enrolled user; user verified \(payment.userVerified)")
    }
}
