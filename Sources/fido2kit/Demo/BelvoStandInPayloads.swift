import Fido2Vectors

/// What the demo's stand-in answers with: the sample payloads of Belvo's Biometric Pix guide,
/// verbatim where the guide prints them (Fido2Vectors' `BelvoGuideSamples`), and shaped as the
/// guide describes them elsewhere (ids are made up and say so).
enum BelvoStandInPayloads {
    /// The enrollment the stand-in creates.
    static let enrollmentID = "3f2c1b7e-8d4a-4e5f-9a6b-0c1d2e3f4a5b"
    /// The payment intent the stand-in creates.
    static let paymentIntentID = "7d9e8f10-1a2b-4c3d-8e4f-5a6b7c8d9e0f"
    /// The institution it lists.
    static let institutionID = "0d7c3b1a-0000-4000-8000-00000000babe"
    /// The customer paying (`details.customer`, `customer`).
    static let customerID = "c0ffee00-0000-4000-8000-000000000001"
    /// The merchant's receiving account.
    static let beneficiaryBankAccountID = "beef0000-0000-4000-8000-000000000002"
    /// The customer's `created_at`, whose first 10 characters are the `accountTenure`.
    static let customerCreatedAt = "2024-03-07T12:45:01.123456Z"
    /// The device id the stand-in risk signals carry (the SDK's is encrypted).
    static let deviceID = "fido2kit-demo-device"
    /// The bank's redirect back to the app after approving the enrollment.
    static let callbackURL =
        "https://merchant.example/belvo/callback?state=demo-state&code=demo-code"
        + "&id_token=eyJhbGciOiJub25lIn0.eyJzdWIiOiJkZW1vIn0."

    /// `GET /institutions/`, shaped as the guide describes it (id, display name, icon).
    static let institutions = """
        {"count": 1, "next": null, "previous": null, "results": [
          {"id": "\(institutionID)", "name": "raidiam_mockbank",
           "display_name": "Raidiam Mockbank", "icon_logo": "https://mockbank.example/icon.svg"}]}
        """

    /// Enrollment step 3's answer: `{id, status: "PENDING", details: {status:
    /// "AWAITING_ACCOUNT_HOLDER_VALIDATION", redirect_url, …}, …}`.
    static let createdEnrollment = """
        {"id": "\(enrollmentID)", "status": "PENDING", "type": "open_finance_biometric_pix",
         "details": {"status": "AWAITING_ACCOUNT_HOLDER_VALIDATION",
                     "redirect_url": "https://mockbank.example/authorize?request=demo",
                     "customer": "\(customerID)", "institution": "\(institutionID)",
                     "platform": "IOS", "callback_url": "https://merchant.example/belvo/callback"}}
        """

    /// An enrollment in `status`.
    static func enrollment(_ status: String) -> String {
        #"{"id": "\#(enrollmentID)", "status": "\#(status)", "type": "open_finance_biometric_pix"}"#
    }

    /// A payment intent in `status` whose `fido_options` are the guide's, allowing
    /// `credentialID` (the stand-in puts the enrolled credential there, as Belvo does).
    static func paymentIntent(_ status: String, allowing credentialID: String) -> String {
        let options = BelvoGuideSamples.fidoOptions(allowing: credentialID)
        return """
            {"id": "\(paymentIntentID)", "status": "\(status)", "customer": "\(customerID)",
             "amount": "0.13", "description": "fido2kit demo coffee",
             "allowed_payment_method_types": ["open_finance_biometric_pix"],
             "payment_method_information": {"open_finance_biometric_pix": {
                 "consent_id": "urn:mockbank:consent-demo", "end_to_end_id": "E00000000202501020304demo",
                 "external_payment_id": "demo-external-payment", "provider_request_id": "demo-provider-request",
                 "fido_options": \(options)}}}
            """
    }
}
