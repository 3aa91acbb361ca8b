import Testing

@testable import Fido2Belvo

/// Every error code belongs to one of the SDK's four cases and prints one clear line.
@Suite struct BelvoErrorTests {
    @Test(arguments: [
        (BelvoError.Code.network, BelvoError.Kind.network),
        (.authentication, .authentication),
        (.invalidParameters, .invalidParameters), (.malformedFidoOptions, .invalidParameters),
        (.unsupportedAlgorithms, .invalidParameters), (.invalidAccountTenure, .invalidParameters),
        (.callbackError, .invalidParameters), (.missingCallbackParameter, .invalidParameters),
        (.malformedCallbackURL, .invalidParameters), (.insecureCallbackURL, .invalidParameters),
        (.missingField, .invalidParameters), (.invalidIdentifier, .invalidParameters),
        (.invalidBase64URL, .invalidParameters), (.credentialIDMismatch, .invalidParameters),
        (.malformedRiskSignals, .invalidParameters), (.paymentNotConfirmed, .invalidParameters),
        (.invalidAmount, .invalidParameters), (.invalidOrigin, .invalidParameters),
        (.credentialExcluded, .invalidParameters), (.noMatchingCredential, .invalidParameters),
        (.noDiscoverableCredential, .invalidParameters),
        (.malformedRequestBody, .invalidParameters),
        (.authenticatorFailure, .unknown), (.credentialStoreFailure, .unknown),
        (.notFound, .unknown), (.serverError, .unknown), (.unexpectedStatus, .unknown),
        (.malformedResponse, .unknown), (.pollingTimedOut, .unknown), (.cancelled, .unknown),
        (.responseTooLarge, .unknown), (.bankRedirectFailed, .unknown),
    ])
    func codeBelongsToOneSDKCase(code: BelvoError.Code, kind: BelvoError.Kind) {
        #expect(code.kind == kind)
        #expect(BelvoError(code, "r").kind == kind)
    }

    @Test func descriptionNamesKindCodeReasonFieldAndStatus() {
        let error = BelvoError(
            .invalidParameters, "Belvo rejected the request", field: "amount", httpStatus: 422)
        #expect(
            error.description
                == "Belvo invalidParameters error (invalidParameters): Belvo rejected the request "
                + "[field: amount] [HTTP 422]")
        #expect(
            BelvoError(.callbackError, "the bank redirected with error \"access_denied\"")
                .description
                == "Belvo invalidParameters error (callbackError): the bank redirected with error "
                + "\"access_denied\"")
    }
}
