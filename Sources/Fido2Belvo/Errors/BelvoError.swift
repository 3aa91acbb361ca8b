/// The one error type of `Fido2Belvo`.
///
/// Every failure maps onto one of the four cases of the iOS SDK's `BiometricPixSDKError`
/// (``Kind``: network, authentication, invalid parameters, unknown) so callers that mirror the
/// SDK can switch on ``kind``; ``code`` says more precisely what went wrong, ``reason`` says it
/// in words, and ``field`` names the offending member or parameter where there is one.
public struct BelvoError: Error, Sendable, CustomStringConvertible, Equatable {
    /// The four error cases of the iOS SDK (`BiometricPixSDKError`).
    public enum Kind: String, Sendable, Hashable {
        /// `networkError(message)`: the request never got an HTTP answer.
        case network
        /// `authenticationError`: Belvo refused the credentials (HTTP 401 or 403).
        case authentication
        /// `invalidParameters(message)`: the input (ours or the server's verdict on it) is wrong.
        case invalidParameters
        /// `unknown(message)`: anything else (server failure, unexpected answer, time-out).
        case unknown
    }

    /// What precisely went wrong. A struct over a private enum so codes can be added without
    /// breaking callers that compare against the static members.
    public struct Code: Sendable, Hashable, CustomStringConvertible {
        private enum Value: String, Sendable, Hashable {
            case network
            case authentication
            case invalidParameters
            case notFound
            case serverError
            case unexpectedStatus
            case malformedResponse
            case malformedFidoOptions
            case unsupportedAlgorithms
            case invalidAccountTenure
            case callbackError
            case missingCallbackParameter
            case malformedCallbackURL
            case insecureCallbackURL
            case missingField
            case invalidIdentifier
            case invalidBase64URL
            case credentialIDMismatch
            case malformedRiskSignals
            case paymentNotConfirmed
            case invalidAmount
            case pollingTimedOut
            case cancelled
            case invalidOrigin
            case credentialExcluded
            case noMatchingCredential
            case noDiscoverableCredential
            case authenticatorFailure
            case credentialStoreFailure
            case malformedRequestBody
            case responseTooLarge
            case bankRedirectFailed
        }

        private let value: Value

        private init(_ value: Value) { self.value = value }

        /// The transport failed before an HTTP answer arrived.
        public static let network = Code(.network)
        /// HTTP 401 or 403: the credentials or token were refused.
        public static let authentication = Code(.authentication)
        /// HTTP 400 or 422: Belvo rejected the request's parameters.
        public static let invalidParameters = Code(.invalidParameters)
        /// HTTP 404: the resource does not exist (or, while polling, does not exist yet).
        public static let notFound = Code(.notFound)
        /// HTTP 5xx: Belvo failed.
        public static let serverError = Code(.serverError)
        /// Any other HTTP status the endpoint does not document.
        public static let unexpectedStatus = Code(.unexpectedStatus)
        /// A successful answer whose body is not the documented JSON.
        public static let malformedResponse = Code(.malformedResponse)
        /// FIDO options (registration options or payment `fido_options`) that cannot be used.
        public static let malformedFidoOptions = Code(.malformedFidoOptions)
        /// `pubKeyCredParams` is empty or names no algorithm this toolkit can create.
        public static let unsupportedAlgorithms = Code(.unsupportedAlgorithms)
        /// `accountTenure` is not a real `YYYY-MM-DD` calendar date.
        public static let invalidAccountTenure = Code(.invalidAccountTenure)
        /// The bank redirected to the callback URL with `error=` instead of a code.
        public static let callbackError = Code(.callbackError)
        /// The callback URL lacks `state`, `code` or `id_token`.
        public static let missingCallbackParameter = Code(.missingCallbackParameter)
        /// The callback URL cannot be parsed, or repeats a parameter.
        public static let malformedCallbackURL = Code(.malformedCallbackURL)
        /// The enrollment's `callback_url` is not an absolute HTTPS URL.
        public static let insecureCallbackURL = Code(.insecureCallbackURL)
        /// A required request field is empty.
        public static let missingField = Code(.missingField)
        /// An id placed in a request path is empty or not a plain URL path segment.
        public static let invalidIdentifier = Code(.invalidIdentifier)
        /// A value that must be unpadded base64url is not.
        public static let invalidBase64URL = Code(.invalidBase64URL)
        /// A credential's `id` and `rawId` name different credentials.
        public static let credentialIDMismatch = Code(.credentialIDMismatch)
        /// Risk signals that are not a UTF-8 JSON object.
        public static let malformedRiskSignals = Code(.malformedRiskSignals)
        /// A payment intent request with `confirm` false: Biometric Pix requires true.
        public static let paymentNotConfirmed = Code(.paymentNotConfirmed)
        /// A payment amount that is not positive, has sub-centavo digits or is too large.
        public static let invalidAmount = Code(.invalidAmount)
        /// Polling reached its deadline without an answer (guide edition of the policy).
        public static let pollingTimedOut = Code(.pollingTimedOut)
        /// The polling task was cancelled.
        public static let cancelled = Code(.cancelled)
        /// The origin given to the device is not an HTTPS origin, or cannot claim the options'
        /// RP ID (it is neither the RP ID's host nor below it).
        public static let invalidOrigin = Code(.invalidOrigin)
        /// The registration options exclude a credential this device already holds for the
        /// RP ID: the device is enrolled already.
        public static let credentialExcluded = Code(.credentialExcluded)
        /// None of the options' `allowCredentials` (nor the fallback credential) is held by this
        /// device for the RP ID.
        public static let noMatchingCredential = Code(.noMatchingCredential)
        /// `allowCredentials` is empty and the device holds no discoverable credential for the
        /// RP ID (and no fallback credential was given or held).
        public static let noDiscoverableCredential = Code(.noDiscoverableCredential)
        /// The authenticator could not perform the ceremony as configured (no user
        /// verification, no discoverable credentials, key generation or signing failed, the
        /// signature counter is exhausted).
        public static let authenticatorFailure = Code(.authenticatorFailure)
        /// The credential store could not be read or written.
        public static let credentialStoreFailure = Code(.credentialStoreFailure)
        /// A confirm-enrollment or authorize-payment body read back (to verify it) that is not
        /// the documented JSON or does not hold a WebAuthn response.
        public static let malformedRequestBody = Code(.malformedRequestBody)
        /// An answer whose body exceeds the client's limit (`BelvoHTTPRequest.maximumResponseBytes`).
        public static let responseTooLarge = Code(.responseTooLarge)
        /// Following the bank's `redirect_url` did not end at the callback URL: the bank
        /// answered without redirecting (a person must approve there) or redirected elsewhere.
        public static let bankRedirectFailed = Code(.bankRedirectFailed)

        /// The SDK error case this code belongs to.
        public var kind: Kind {
            switch value {
            case .network: .network
            case .authentication: .authentication
            case .notFound, .serverError, .unexpectedStatus, .malformedResponse, .pollingTimedOut,
                .cancelled, .authenticatorFailure, .credentialStoreFailure, .responseTooLarge,
                .bankRedirectFailed:
                .unknown
            case .invalidParameters, .malformedFidoOptions, .unsupportedAlgorithms,
                .invalidAccountTenure, .callbackError, .missingCallbackParameter,
                .malformedCallbackURL, .insecureCallbackURL, .missingField, .invalidIdentifier,
                .invalidBase64URL, .credentialIDMismatch, .malformedRiskSignals,
                .paymentNotConfirmed, .invalidAmount, .invalidOrigin, .credentialExcluded,
                .noMatchingCredential, .noDiscoverableCredential, .malformedRequestBody:
                .invalidParameters
            }
        }

        /// The code's name, e.g. `callbackError`.
        public var description: String { value.rawValue }
    }

    /// What precisely went wrong.
    public let code: Code
    /// A sentence for humans saying what was wrong.
    public let reason: String
    /// The JSON member, query parameter or argument at fault, when there is one
    /// (e.g. `pubKeyCredParams[1].alg`, `code`, `callback_url`).
    public let field: String?
    /// The HTTP status of the answer that caused the error, when there was one.
    public let httpStatus: Int?
    /// The body of that answer (Belvo's error JSON, or whatever came back), when there was one.
    public let responseBody: [UInt8]?

    /// An error with `code`, `reason`, and optionally the `field`, `httpStatus` and
    /// `responseBody` involved.
    public init(
        _ code: Code, _ reason: String, field: String? = nil, httpStatus: Int? = nil,
        responseBody: [UInt8]? = nil
    ) {
        self.code = code
        self.reason = reason
        self.field = field
        self.httpStatus = httpStatus
        self.responseBody = responseBody
    }

    /// A transport failure (`BiometricPixSDKError.networkError`): wrap whatever your HTTP client
    /// threw so the caller sees one error type.
    public static func network(_ underlying: any Error) -> BelvoError {
        BelvoError(.network, "the request did not complete: \(underlying)")
    }

    /// The SDK error case this error belongs to.
    public var kind: Kind { code.kind }

    /// One line: kind, code, reason, and the field and HTTP status when known.
    public var description: String {
        var text = "Belvo \(kind.rawValue) error (\(code)): \(reason)"
        if let field { text += " [field: \(field)]" }
        if let httpStatus { text += " [HTTP \(httpStatus)]" }
        return text
    }
}
