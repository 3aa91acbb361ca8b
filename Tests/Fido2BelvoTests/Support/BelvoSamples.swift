import Fido2Vectors

/// Answers shaped as Belvo's Biometric Pix guide (`../shared/belvo-biometric-pix.md`) describes
/// them, beside its verbatim samples (``BelvoGuideSamples``).
enum BelvoSamples {
    /// The guide's `fido_options` asking for a discoverable credential: `allowCredentials` empty.
    static let fidoOptionsWithoutAllowCredentials = """
        {"rpId": "belvo.com", "timeout": 300000,
         "challenge": "oGW096Hvr8sVUIOf-10iqWI7ZfSx2GhoU359bBRK9h4", "allowCredentials": []}
        """

    /// Enrollment step 3's answer, `{id, status: "PENDING", details: {status:
    /// "AWAITING_ACCOUNT_HOLDER_VALIDATION", redirect_url, …}, …}`, with members the guide
    /// elides ("…") filled in by members an adapter must tolerate.
    static let createdEnrollment = """
        {"id": "3f2c1b7e-8d4a-4e5f-9a6b-0c1d2e3f4a5b", "status": "PENDING",
         "type": "open_finance_biometric_pix", "created_at": "2025-01-02T03:04:05.678Z",
         "details": {"status": "AWAITING_ACCOUNT_HOLDER_VALIDATION",
                     "redirect_url": "https://bank.example/authorize?request=abc",
                     "customer": "c0ffee00-0000-4000-8000-000000000001", "platform": "IOS",
                     "callback_url": "https://merchant.example/belvo/callback",
                     "risk_signals": {"deviceId": "ENCRYPTED"}, "future_member": [1, 2]},
         "status_reason_code": null, "status_reason_message": null,
         "unknown_member": {"nested": true}}
        """

    /// A payment intent answer carrying the guide's `fido_options` and the four payment ids.
    static let paymentIntent = """
        {"id": "7d9e8f10-1a2b-4c3d-8e4f-5a6b7c8d9e0f", "status": "REQUIRES_ACTION",
         "customer": "c0ffee00-0000-4000-8000-000000000001", "amount": "0.13",
         "description": "Coffee", "allowed_payment_method_types": ["open_finance_biometric_pix"],
         "payment_method_information": {"open_finance_biometric_pix": {
             "consent_id": "urn:bank:consent-42", "end_to_end_id": "E1234567820250102030405abcdef",
             "external_payment_id": "ext-99", "provider_request_id": "prov-7",
             "fido_options": \(BelvoGuideSamples.fidoOptions)}},
         "created_at": "2025-01-02T03:04:05Z"}
        """

    /// `POST /payments/api/widget-token/`'s answer.
    static let widgetToken = """
        {"access": "eyJhbGciOiJIUzI1NiJ9.access.sig", "refresh": "eyJhbGciOiJIUzI1NiJ9.refresh.sig"}
        """

    /// Risk signals as an SDK might return them: odd spacing, key order, escapes and numbers
    /// that a re-encoding would change.
    static let riskSignals = """
        { "deviceId" : "AbC+/=\\u00e9",  "zeta": 1.50, "alpha": [true, null, 1e2],
          "nested": {"b": "\\/", "a": "é"} }
        """
}
