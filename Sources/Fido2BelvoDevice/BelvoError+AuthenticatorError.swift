import Fido2Authenticator
import Fido2Belvo
import Fido2WebAuthnWire

extension BelvoError {
    /// A software-authenticator failure seen through the SDK's four error cases.
    ///
    /// The mapping, by what the failure says about the input:
    /// - `invalidOptions` whose underlying JSON-form error is `malformedJSON`, `missingMember`,
    ///   `wrongType`, `invalidBase64URL` or `invalidValue` (never expected: the device builds
    ///   typed options), and the authenticator's own `invalidValue` →
    ///   `BelvoError.Code.malformedFidoOptions`;
    /// - `invalidOrigin`, `invalidRelyingPartyID` → `BelvoError.Code.invalidOrigin` when the
    ///   caller chose the origin, else `BelvoError.Code.malformedFidoOptions` (the default
    ///   origin comes from the RP ID, so the RP ID itself is at fault);
    /// - `noSupportedAlgorithm` → `BelvoError.Code.unsupportedAlgorithms`;
    /// - `credentialExcluded`, `noMatchingCredential`, `noDiscoverableCredential` → the codes of
    ///   the same names;
    /// - the store's `credentialExists`, `credentialNotFound`, `corruptCredential`,
    ///   `storageFailure`, `storeLocked` → `BelvoError.Code.credentialStoreFailure`
    ///   (`BelvoError.Kind.unknown`);
    /// - anything else (no user verification, no discoverable credentials, key generation or
    ///   signing failed, counter exhausted, another structure refused) →
    ///   `BelvoError.Code.authenticatorFailure` (`BelvoError.Kind.unknown`).
    ///
    /// The authenticator error's own description stays in `reason`. A `WebAuthnError` (the
    /// structures' own) is read as the `invalidOptions` that carries it, and any other error
    /// as the authenticator's `invalidValue`.
    package init(authenticator failure: any Error, ceremony: String, originChosenByCaller: Bool) {
        // The software authenticator and its stores throw AuthenticatorError only.
        let error: AuthenticatorError
        switch failure {
        case let failure as AuthenticatorError: error = failure
        case let failure as WebAuthnError: error = AuthenticatorError(invalidOptions: failure)
        default: error = AuthenticatorError(.invalidValue, "\(failure)")
        }
        let code: Code
        var field = error.field
        switch error.code {
        case .invalidOptions:
            switch error.underlying?.code {
            case .malformedJSON, .missingMember, .wrongType, .invalidBase64URL, .invalidValue:
                code = .malformedFidoOptions
            default:
                code = .authenticatorFailure
            }
        case .invalidValue:
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
        case .credentialExists, .credentialNotFound, .corruptCredential, .storageFailure,
            .storeLocked:
            code = .credentialStoreFailure
        default:
            code = .authenticatorFailure
        }
        self.init(code, "\(ceremony) failed: \(error.description)", field: field)
    }
}
