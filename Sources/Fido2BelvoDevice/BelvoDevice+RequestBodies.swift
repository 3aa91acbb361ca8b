import Fido2Authenticator
import Fido2Belvo
import Fido2WebAuthnWire

extension BelvoDevice {
    /// Registers a credential for Belvo's registration options JSON and returns the body of
    /// `POST /enrollments/{id}/confirm/` carrying it (`fido2kit belvo enroll`).
    ///
    /// - Throws: `BelvoError` as ``startRegistration(fidoOptions:)-(String)``; the store is
    ///   unchanged when it throws.
    public func confirmEnrollmentRequest(
        fidoOptions: some Collection<UInt8>
    ) throws -> BelvoConfirmEnrollmentRequest {
        try BelvoConfirmEnrollmentRequest(attestation: startRegistration(fidoOptions: fidoOptions))
    }

    /// Signs a payment intent's `fido_options` JSON and returns the body of
    /// `POST /payment-intents/{id}/authorize/` carrying the assertion and `riskSignals`
    /// (`fido2kit belvo authorize`).
    ///
    /// - Parameters:
    ///   - fidoOptions: the payment intent's `fido_options` JSON.
    ///   - riskSignals: the device's fresh risk signals, embedded byte for byte.
    ///   - platform: nil for the API guide's body; `BelvoAuthorizePaymentRequest.iosPlatform`
    ///     for the SDK's `AuthorizePaymentIntentPayload`.
    ///   - fallbackCredential: as in ``startSigning(fidoOptions:fallbackCredential:)-(String,_)``.
    /// - Throws: `BelvoError` as ``startSigning(fidoOptions:fallbackCredential:)-(String,_)``;
    ///   the store is unchanged when it throws.
    public func authorizePaymentRequest(
        fidoOptions: some Collection<UInt8>, riskSignals: BelvoRiskSignals,
        platform: String? = nil, fallbackCredential: String? = nil
    ) throws -> BelvoAuthorizePaymentRequest {
        // An empty platform would fail after signing and advance the counter for nothing.
        if let platform { _ = try BelvoRequestValidation.required(platform, "platform") }
        return try BelvoAuthorizePaymentRequest(
            riskSignals: riskSignals,
            assertion: startSigning(
                fidoOptions: fidoOptions, fallbackCredential: fallbackCredential),
            platform: platform)
    }

    /// Signs the `fido_options` of a payment intent answer (`POST /payment-intents/`,
    /// `GET /payment-intents/{id}/`) and returns the authorize body.
    ///
    /// - Throws: `BelvoError.Code.malformedFidoOptions` when the payment intent carries no
    ///   usable `fido_options`; then as ``authorizePaymentRequest(fidoOptions:riskSignals:platform:fallbackCredential:)``.
    public func authorizePaymentRequest(
        paymentIntent: BelvoPaymentIntent, riskSignals: BelvoRiskSignals,
        platform: String? = nil, fallbackCredential: String? = nil
    ) throws -> BelvoAuthorizePaymentRequest {
        let options = try paymentIntent.assertionOptions()
        if let platform { _ = try BelvoRequestValidation.required(platform, "platform") }
        return try BelvoAuthorizePaymentRequest(
            riskSignals: riskSignals,
            assertion: startSigning(options: options, fallbackCredential: fallbackCredential),
            platform: platform)
    }
}
