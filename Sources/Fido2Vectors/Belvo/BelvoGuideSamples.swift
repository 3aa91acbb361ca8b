/// The sample payloads of Belvo's Biometric Pix guide (`../shared/belvo-biometric-pix.md`),
/// verbatim: the one copy that the command line's demo (its stand-in server), the tests and the
/// peer scripts' checks start from.
package enum BelvoGuideSamples {
    /// Enrollment step 5: `GET /enrollments/{id}/fido-registration-options/`.
    package static let registrationOptions = """
        {"rp": {"id": "belvo.com", "name": "Raidiam Mockbank - Pipeline NRJ"},
         "user": {"id": "a5bd0ef9-f8ab-41a2-b968-489761a91de6", "name": "Ralph Bragg",
                  "displayName": "Ralph Bragg"},
         "challenge": "R3dsT2REOE5oZ25JbVE",
         "pubKeyCredParams": [{"alg": -257, "type": "public-key"}, {"alg": -7, "type": "public-key"}],
         "extensions": {"appid": "true"}}
        """

    /// The credential id in the guide's payment `fido_options`.
    package static let credentialID =
        "AfD-uI4LUzJAuzyLBRrPncocLusMgZ8yHNuuUl-7NSFbBlqrW2rMF0D_Ao-orNqdX3YZVf8_wk1jj--HuNH1uKE"

    /// Payment step 2: the payment intent's `fido_options`.
    package static let fidoOptions = fidoOptions(allowing: credentialID)

    /// ``fidoOptions`` with its one `allowCredentials` id replaced by `id` (the credential a
    /// device enrolled), as Belvo's answer for that enrollment carries it.
    package static func fidoOptions(allowing id: String) -> String {
        """
        {"rpId": "belvo.com", "timeout": 300000,
         "challenge": "oGW096Hvr8sVUIOf-10iqWI7ZfSx2GhoU359bBRK9h4",
         "allowCredentials": [{"id": "\(id)",
                               "type": "public-key"}]}
        """
    }
}
