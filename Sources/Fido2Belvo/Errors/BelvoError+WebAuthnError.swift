import Fido2WebAuthnWire

extension BelvoError {
    /// A software-authenticator failure seen through the SDK's four error cases.
    ///
    /// The mapping, by what the failure says about the input:
    /// - JSON-form errors (never expected: the device builds typed options) →
    ///   ``Code/malformedFidoOptions``;
    /// - `invalidOrigin`, `invalidRelyingPartyID` → ``Code/invalidOrigin`` when the caller chose
    ///   the origin, else ``Code/malformedFidoOptions`` (the default origin comes from the RP ID,
    ///   so the RP ID itself is at fault);
    /// - `noSupportedAlgorithm` → ``Code/unsupportedAlgorithms``;
    /// - `credentialExcluded`, `noMatchingCredential`, `noDiscoverableCredential` → the codes of
    ///   the same names;
    /// - the store's `credentialExists`, `credentialNotFound`, `corruptCredential`,
    ///   `storageFailure` → ``Code/credentialStoreFailure`` (``Kind/unknown``);
    /// - anything else (no user verification, no discoverable credentials, key generation or
    ///   signing failed, counter exhausted) → ``Code/authenticatorFailure`` (``Kind/unknown``).
    ///
    /// The WebAuthn error's own description stays in ``reason``.
    package init(authenticator failure: any Error, ceremony: String, originChosenByCaller: Bool) {
        // The software authenticator and its stores throw WebAuthnError only.
        let error = failure as? WebAuthnError ?? WebAuthnError(.invalidValue, "\(failure)")
        let code: Code
        var field = error.field
        switch error.code {
        case .malformedJSON, .missingMember, .wrongType, .invalidBase64URL, .invalidValue:
            code = .malformedFidoOptions
        case .invalidOrigin, .invalidRelyingPartyID:
            if originChosenByCaller {
                code = .invalidOrigin
                field = "origin"
            } else {
                code = .malformedFidoOptions
                field = ceremony == "startRegistration" ? "rp.id" : "rpId"
            }
        case .noSupportedAlgorithm:
            code = .unsupportedAlgorithms
            field = "pubKeyCredParams"
        case .credentialExcluded:
            code = .credentialExcluded
            field = "excludeCredentials"
        case .noMatchingCredential:
            code = .noMatchingCredential
            field = "allowCredentials"
        case .noDiscoverableCredential:
            code = .noDiscoverableCredential
            field = "allowCredentials"
        case .credentialExists, .credentialNotFound, .corruptCredential, .storageFailure:
            code = .credentialStoreFailure
        default:
            code = .authenticatorFailure
        }
        self.init(code, "\(ceremony) failed: \(error.description)", field: field)
    }
}
