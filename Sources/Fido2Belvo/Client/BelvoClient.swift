import Foundation

/// Belvo's Payments API over HTTP: sends the adapter's request values (``BelvoAPI``) with a
/// ``BelvoTransport`` and decodes the answers with their decoders.
///
/// The methods are the SDK edition's convenience calls (`getPaymentInstitutions`,
/// `createEnrollment`, `completeEnrollmentAfterRedirection`, `getFidoRegistrationOptions`,
/// `confirmEnrollment`, `listEnrollments`, `createPaymentIntent`, `authorizePaymentIntent`),
/// plus the guide's status polls; ``send(_:)`` sends any ``BelvoEndpoint``. Every failure is a
/// ``BelvoError`` whose ``BelvoError/kind`` is the SDK's case: no HTTP answer is
/// ``BelvoError/Kind/network``; 401 and 403 ``BelvoError/Kind/authentication``; 400 and 422
/// ``BelvoError/Kind/invalidParameters``; 404, 5xx, other statuses and bodies that are not the
/// documented JSON ``BelvoError/Kind/unknown``, each with the HTTP status and the body.
///
/// ```swift
/// let client = BelvoClient(
///     baseURL: BelvoClient.sandboxBaseURL, secretID: id, secretPassword: password)
/// let institutions = try await client.getPaymentInstitutions()
/// ```
public struct BelvoClient: Sendable {
    /// Belvo's sandbox API host.
    public static let sandboxBaseURL = URL(string: "https://sandbox.belvo.com")!
    /// Belvo's production API host (``BelvoAPI/productionBaseURL``).
    public static let productionBaseURL = BelvoAPI.productionBaseURL

    /// The API host every path is appended to.
    public let baseURL: URL
    /// The credentials every API request carries.
    public let authorization: BelvoAuthorization
    /// How long one HTTP exchange may take, from sending to the last byte of the answer.
    public var timeout: Duration
    /// The largest answer accepted, in bytes.
    public var maximumResponseBytes: Int
    /// What sends the requests.
    public let transport: any BelvoTransport

    /// A client authenticating with HTTP Basic, the Payments API's secret id and password.
    public init(
        baseURL: URL, secretID: String, secretPassword: String, timeout: Duration = .seconds(30),
        maximumResponseBytes: Int = 1 << 20,
        transport: any BelvoTransport = URLSessionBelvoTransport()
    ) {
        self.init(
            baseURL: baseURL,
            authorization: .basic(secretID: secretID, secretPassword: secretPassword),
            timeout: timeout, maximumResponseBytes: maximumResponseBytes, transport: transport)
    }

    /// A client sending `authorization` (HTTP Basic, or a widget token as a bearer).
    public init(
        baseURL: URL, authorization: BelvoAuthorization, timeout: Duration = .seconds(30),
        maximumResponseBytes: Int = 1 << 20,
        transport: any BelvoTransport = URLSessionBelvoTransport()
    ) {
        self.baseURL = baseURL
        self.authorization = authorization
        self.timeout = timeout
        self.maximumResponseBytes = maximumResponseBytes
        self.transport = transport
    }

    // MARK: Sending

    /// Sends `endpoint`'s request to ``baseURL`` and decodes the answer.
    ///
    /// - Throws: ``BelvoError``: ``BelvoError/Code/network`` when no answer arrived, the status
    ///   code's error (see ``BelvoEndpoint/decode(status:body:)``), or
    ///   ``BelvoError/Code/malformedResponse`` for a 2xx body that is not the documented JSON.
    public func send<Response>(_ endpoint: BelvoEndpoint<Response>) async throws -> Response {
        let response = try await exchange(endpoint.request)
        return try endpoint.decode(status: response.status, body: response.body)
    }

    /// Sends `request` and returns the raw answer, whatever its status.
    ///
    /// - Throws: ``BelvoError/Code/invalidIdentifier`` when ``baseURL`` cannot carry the path;
    ///   the transport's ``BelvoError`` (any other error it throws becomes
    ///   ``BelvoError/Code/network``).
    public func exchange(_ request: BelvoRequest) async throws -> BelvoHTTPResponse {
        guard let url = request.url(baseURL: baseURL) else {
            throw BelvoError(
                .invalidIdentifier, "base URL \(baseURL.absoluteString) has no scheme",
                field: "baseURL")
        }
        return try await send(
            BelvoHTTPRequest(
                url: url, method: request.method.rawValue, headers: request.headers,
                body: request.body, timeout: timeout, maximumResponseBytes: maximumResponseBytes)
        )
    }

    private func send(_ request: BelvoHTTPRequest) async throws -> BelvoHTTPResponse {
        do {
            return try await transport.send(request)
        } catch let error as BelvoError {
            throw error
        } catch {
            throw BelvoError(
                .network, "\(request.method) \(request.url.absoluteString): \(error)")
        }
    }

    // MARK: Enrollment

    /// `GET /institutions/`: the institutions a payer can enroll with (SDK:
    /// `getPaymentInstitutions()`).
    ///
    /// - Throws: ``BelvoError`` as ``send(_:)`` does.
    public func getPaymentInstitutions() async throws -> [BelvoInstitution] {
        try await send(BelvoAPI.listInstitutions(authorization: authorization)).results
    }

    /// `POST /enrollments/`: starts an enrollment; open its `details.redirectURL` next (SDK:
    /// `createEnrollment(cpf:institution:accountTenure:callbackUrl:)`).
    ///
    /// - Throws: ``BelvoError`` as ``send(_:)`` does.
    public func createEnrollment(
        _ request: BelvoCreateEnrollmentRequest
    ) async throws
        -> BelvoEnrollment
    {
        try await send(BelvoAPI.createEnrollment(request, authorization: authorization))
    }

    /// `POST /enrollments/`, the body made from its members (the SDK's call collects the risk
    /// signals itself; here they are the caller's, as the app relays them).
    ///
    /// - Throws: the errors of ``BelvoCreateEnrollmentRequest`` (an empty member, a callback
    ///   that is not HTTPS) before anything is sent; otherwise ``BelvoError`` as ``send(_:)``
    ///   does.
    public func createEnrollment(
        customer: String, institution: String, name: String, callbackURL: String,
        riskSignals: BelvoRiskSignals
    ) async throws -> BelvoEnrollment {
        try await createEnrollment(
            BelvoCreateEnrollmentRequest(
                customer: customer, institution: institution, name: name,
                callbackURL: callbackURL, riskSignals: riskSignals))
    }

    /// `GET /enrollments/{id}/`: the enrollment as it is now.
    ///
    /// - Throws: ``BelvoError/Code/invalidIdentifier`` for an id that is not a path segment;
    ///   otherwise ``BelvoError`` as ``send(_:)`` does.
    public func getEnrollment(id: String) async throws -> BelvoEnrollment {
        try await send(BelvoAPI.getEnrollment(id: id, authorization: authorization))
    }

    /// `POST /enrollments/complete-redirection/` with the `state`, `code` and `id_token` of the
    /// URL the bank redirected to (SDK: `completeEnrollmentAfterRedirection(callbackUrl:)`).
    ///
    /// - Returns: the enrollment, still `PENDING` on success or `FAILED` with a reason.
    /// - Throws: ``BelvoError/Code/callbackError`` (and the other callback codes of
    ///   ``BelvoCompleteRedirectionRequest/init(callbackURL:)``) before anything is sent;
    ///   otherwise ``BelvoError`` as ``send(_:)`` does.
    public func completeEnrollmentAfterRedirection(
        callbackURL: String
    ) async throws
        -> BelvoEnrollment
    {
        try await completeEnrollmentAfterRedirection(
            BelvoCompleteRedirectionRequest(callbackURL: callbackURL))
    }

    /// `POST /enrollments/complete-redirection/` with the values the bank returned (SDK:
    /// `completeEnrollmentAfterRedirection(state:code:idToken:)`).
    ///
    /// - Throws: ``BelvoError/Code/missingCallbackParameter`` for an empty value; otherwise
    ///   ``BelvoError`` as ``send(_:)`` does.
    public func completeEnrollmentAfterRedirection(
        state: String, code: String, idToken: String
    ) async throws -> BelvoEnrollment {
        try await completeEnrollmentAfterRedirection(
            BelvoCompleteRedirectionRequest(state: state, code: code, idToken: idToken))
    }

    private func completeEnrollmentAfterRedirection(
        _ request: BelvoCompleteRedirectionRequest
    ) async throws -> BelvoEnrollment {
        try await send(BelvoAPI.completeRedirection(request, authorization: authorization))
    }

    /// Follows the bank's `redirect_url` through its HTTP redirects until one points at
    /// `callbackURL`, and returns that URL (with its `state`, `code` and `id_token`) without
    /// requesting it: what the phone's browser does when the bank approves at once, as a test
    /// bank does. At most 10 redirects; no credentials are sent to the bank.
    ///
    /// - Parameters:
    ///   - redirectURL: the enrollment's `details.redirect_url`.
    ///   - callbackURL: the `callback_url` given when creating the enrollment; a redirect whose
    ///     scheme, host, port and path match it ends the walk.
    /// - Throws: ``BelvoError/Code/bankRedirectFailed`` when the bank answers without
    ///   redirecting (a person must approve there: hand their callback URL to
    ///   ``completeEnrollmentAfterRedirection(callbackURL:)``), redirects elsewhere too often,
    ///   or a URL cannot be read; ``BelvoError/Code/network`` when no answer arrived.
    public func followBankRedirect(
        from redirectURL: String, to callbackURL: String
    ) async throws
        -> String
    {
        guard var current = URL(string: redirectURL), current.scheme != nil else {
            throw BelvoError(
                .bankRedirectFailed, "redirect_url \"\(redirectURL)\" is not an absolute URL",
                field: "redirect_url")
        }
        guard let callback = URLComponents(string: callbackURL) else {
            throw BelvoError(
                .bankRedirectFailed, "callback URL \"\(callbackURL)\" cannot be parsed",
                field: "callback_url")
        }
        for _ in 0..<10 {
            let response = try await send(
                BelvoHTTPRequest(
                    url: current, method: "GET", headers: ["Accept": "text/html"],
                    timeout: timeout, maximumResponseBytes: maximumResponseBytes,
                    followsRedirects: false))
            guard (300..<400).contains(response.status), let location = response.header("Location"),
                let next = URL(string: location, relativeTo: current)?.absoluteURL
            else {
                throw BelvoError(
                    .bankRedirectFailed,
                    "the bank answered GET \(current.absoluteString) with HTTP \(response.status) "
                        + "and no redirect: a person must approve there; pass the URL it sends "
                        + "them back to", httpStatus: response.status,
                    responseBody: Array(response.body.prefix(4096)))
            }
            if let components = URLComponents(url: next, resolvingAgainstBaseURL: false),
                components.scheme?.lowercased() == callback.scheme?.lowercased(),
                components.host?.lowercased() == callback.host?.lowercased(),
                components.port == callback.port, components.path == callback.path
            {
                return next.absoluteString
            }
            current = next
        }
        throw BelvoError(
            .bankRedirectFailed,
            "the bank redirected more than 10 times without reaching \(callbackURL)")
    }

    /// `GET /enrollments/{id}/fido-registration-options/` on `policy`'s schedule (the SDK's,
    /// every 1 s for up to 5 min, by default) on the real clock, until it answers; a 404 means
    /// "not ready yet" (SDK: `getFidoRegistrationOptions(enrollmentId:)`).
    ///
    /// - Returns: the options, or nil when the deadline passes and `policy` returns nil.
    /// - Throws: ``BelvoError/Code/pollingTimedOut`` when the deadline passes and `policy`
    ///   throws; ``BelvoError/Code/invalidIdentifier`` for an id that is not a path segment;
    ///   any other error of ``send(_:)`` at once.
    public func getFidoRegistrationOptions(
        enrollmentID: String, policy: BelvoPollingPolicy = .sdk
    ) async throws -> BelvoFidoRegistrationOptions? {
        try await getFidoRegistrationOptions(
            enrollmentID: enrollmentID, policy: policy, clock: ContinuousClock())
    }

    /// ``getFidoRegistrationOptions(enrollmentID:policy:)`` on `clock` (a manual clock in
    /// tests).
    ///
    /// - Throws: as ``getFidoRegistrationOptions(enrollmentID:policy:)``.
    public func getFidoRegistrationOptions<C: Clock>(
        enrollmentID: String, policy: BelvoPollingPolicy, clock: C
    ) async throws -> BelvoFidoRegistrationOptions? where C.Duration == Duration {
        let endpoint = try BelvoAPI.fidoRegistrationOptions(
            enrollmentID: enrollmentID, authorization: authorization)
        return try await policy.poll(clock: clock) {
            () async throws -> BelvoFidoRegistrationOptions? in
            do {
                return try await send(endpoint)
            } catch let error as BelvoError where error.code == .notFound {
                return nil
            }
        }
    }

    /// `POST /enrollments/{id}/confirm/` with the new credential (SDK:
    /// `confirmEnrollment(enrollmentId:credential:response:)`, whose `true` is this call
    /// returning); then wait with ``waitForEnrollment(id:policy:)``.
    ///
    /// - Throws: ``BelvoError`` as ``send(_:)`` does.
    public func confirmEnrollment(
        enrollmentID: String, _ request: BelvoConfirmEnrollmentRequest
    ) async throws {
        try await send(
            BelvoAPI.confirmEnrollment(
                enrollmentID: enrollmentID, request, authorization: authorization))
    }

    /// Polls `GET /enrollments/{id}/` on `policy` (the guide's, 2 s / 2 min, by default) until
    /// the status is final (`SUCCEEDED` or `FAILED`).
    ///
    /// - Returns: the enrollment in its final status (check for ``BelvoStatus/succeeded``).
    /// - Throws: ``BelvoError/Code/pollingTimedOut`` at the deadline; any error of ``send(_:)``.
    public func waitForEnrollment(
        id: String, policy: BelvoPollingPolicy = .guide
    ) async throws
        -> BelvoEnrollment
    {
        try await waitForEnrollment(id: id, policy: policy, clock: ContinuousClock())
    }

    /// ``waitForEnrollment(id:policy:)`` on `clock`.
    ///
    /// - Throws: as ``waitForEnrollment(id:policy:)``.
    public func waitForEnrollment<C: Clock>(
        id: String, policy: BelvoPollingPolicy, clock: C
    ) async throws -> BelvoEnrollment where C.Duration == Duration {
        let endpoint = try BelvoAPI.getEnrollment(id: id, authorization: authorization)
        return try await untilFinal(endpoint, policy: policy, clock: clock) { $0.status }
    }

    // MARK: Payment

    /// `GET /enrollments/?device_id=…`: the device's enrollments; offer those
    /// ``BelvoStatus/succeeded`` (SDK: `listEnrollments(deviceId:)`).
    ///
    /// - Throws: ``BelvoError/Code/missingField`` for an empty device id; otherwise as
    ///   ``send(_:)``.
    public func listEnrollments(deviceID: String) async throws -> [BelvoEnrollment] {
        try await send(BelvoAPI.listEnrollments(deviceID: deviceID, authorization: authorization))
            .results
    }

    /// `POST /payment-intents/`: a confirmed payment intent whose
    /// ``BelvoPaymentIntent/assertionOptions()`` the device signs (SDK:
    /// `createPaymentIntent(payload:)`).
    ///
    /// - Throws: ``BelvoError`` as ``send(_:)`` does.
    public func createPaymentIntent(
        _ request: BelvoPaymentIntentRequest
    ) async throws
        -> BelvoPaymentIntent
    {
        try await send(BelvoAPI.createPaymentIntent(request, authorization: authorization))
    }

    /// `POST /payment-intents/{id}/authorize/` with the signed approval (SDK:
    /// `authorizePaymentIntent(paymentIntentId:payload:)`, whose `true` is this call
    /// returning); then wait with ``waitForPaymentIntent(id:policy:)``.
    ///
    /// - Throws: ``BelvoError`` as ``send(_:)`` does.
    public func authorizePaymentIntent(
        paymentIntentID: String, _ request: BelvoAuthorizePaymentRequest
    ) async throws {
        try await send(
            BelvoAPI.authorizePaymentIntent(
                paymentIntentID: paymentIntentID, request, authorization: authorization))
    }

    /// `GET /payment-intents/{id}/`: the payment intent as it is now.
    ///
    /// - Throws: ``BelvoError/Code/invalidIdentifier`` for an id that is not a path segment;
    ///   otherwise ``BelvoError`` as ``send(_:)`` does.
    public func getPaymentIntent(id: String) async throws -> BelvoPaymentIntent {
        try await send(BelvoAPI.getPaymentIntent(id: id, authorization: authorization))
    }

    /// Polls `GET /payment-intents/{id}/` on `policy` (the guide's by default) until the status
    /// is final.
    ///
    /// - Returns: the payment intent in its final status (check for ``BelvoStatus/succeeded``).
    /// - Throws: ``BelvoError/Code/pollingTimedOut`` at the deadline; any error of ``send(_:)``.
    public func waitForPaymentIntent(
        id: String, policy: BelvoPollingPolicy = .guide
    )
        async throws -> BelvoPaymentIntent
    {
        try await waitForPaymentIntent(id: id, policy: policy, clock: ContinuousClock())
    }

    /// ``waitForPaymentIntent(id:policy:)`` on `clock`.
    ///
    /// - Throws: as ``waitForPaymentIntent(id:policy:)``.
    public func waitForPaymentIntent<C: Clock>(
        id: String, policy: BelvoPollingPolicy, clock: C
    ) async throws -> BelvoPaymentIntent where C.Duration == Duration {
        let endpoint = try BelvoAPI.getPaymentIntent(id: id, authorization: authorization)
        return try await untilFinal(endpoint, policy: policy, clock: clock) { $0.status }
    }

    /// `POST /payments/api/widget-token/`: the SDK's access and refresh tokens, with this
    /// client's HTTP Basic credentials (backend only).
    ///
    /// - Throws: ``BelvoError`` as ``send(_:)`` does; ``BelvoError/Code/authentication`` when
    ///   the client holds a bearer token rather than the secret.
    public func widgetToken() async throws -> BelvoWidgetToken {
        guard case .basic(let secretID, let secretPassword) = authorization else {
            throw BelvoError(
                .authentication, "a widget token needs the secret id and password (HTTP Basic)")
        }
        return try await send(
            BelvoAPI.widgetToken(secretID: secretID, secretPassword: secretPassword))
    }

    private func untilFinal<Response, C: Clock>(
        _ endpoint: BelvoEndpoint<Response>, policy: BelvoPollingPolicy, clock: C,
        status: @escaping (Response) -> BelvoStatus
    ) async throws -> Response where C.Duration == Duration {
        let value = try await policy.poll(clock: clock) { () async throws -> Response? in
            let response = try await send(endpoint)
            return status(response).isFinal ? response : nil
        }
        guard let value else {
            throw BelvoError(
                .pollingTimedOut, "\(endpoint.request.path) did not reach a final status")
        }
        return value
    }
}
