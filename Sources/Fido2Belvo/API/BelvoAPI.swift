import Foundation

/// Every endpoint of the Biometric Pix flows as a ``BelvoEndpoint``: the request (method, path,
/// headers, JSON body) and the decoder of its answer, with no transport.
///
/// Paths: the guide writes most endpoints relative (`/enrollments/{id}/confirm/`) and gives the
/// full form of some (`/payments/br/enrollments/{id}/confirm/`,
/// `/payments/br/payment-intents/`). All Biometric Pix resources (institutions, enrollments,
/// payment intents) live under the Brazil payments base ``basePath`` (`/payments/br`), so every
/// path here is absolute from the API host and starts with it; the one exception is the widget
/// token, which the guide gives as `/payments/api/widget-token/`.
///
/// Ids placed in a path must be plain path segments (RFC 3986 unreserved characters, as Belvo's
/// UUIDs are), so a hostile or broken id cannot redirect the request elsewhere.
public enum BelvoAPI {
    /// Belvo's production API host.
    public static let productionBaseURL = URL(string: "https://api.belvo.com")!
    /// The path every Biometric Pix resource lives under.
    public static let basePath = "/payments/br"
    /// The widget-token path (outside ``basePath``).
    public static let widgetTokenPath = "/payments/api/widget-token/"

    /// `GET /payments/br/institutions/`: the institutions a payer can enroll with
    /// (SDK: `getPaymentInstitutions()`).
    public static func listInstitutions(
        authorization: BelvoAuthorization
    ) -> BelvoEndpoint<BelvoList<BelvoInstitution>> {
        BelvoEndpoint(
            BelvoRequest(
                method: .get, path: "\(basePath)/institutions/", authorization: authorization),
            decodeBody: json(BelvoList<BelvoInstitution>.self, "institution list"))
    }

    /// `POST /payments/br/enrollments/`: start an enrollment; answers 201 with the enrollment
    /// and its `details.redirect_url`.
    public static func createEnrollment(
        _ request: BelvoCreateEnrollmentRequest, authorization: BelvoAuthorization
    ) -> BelvoEndpoint<BelvoEnrollment> {
        BelvoEndpoint(
            BelvoRequest(
                method: .post, path: "\(basePath)/enrollments/", authorization: authorization,
                body: request.body),
            decodeBody: json(BelvoEnrollment.self, "enrollment"))
    }

    /// `POST /payments/br/enrollments/complete-redirection/`: hand over what the bank returned;
    /// answers with the enrollment, still `PENDING` on success or `FAILED` with a reason.
    public static func completeRedirection(
        _ request: BelvoCompleteRedirectionRequest, authorization: BelvoAuthorization
    ) -> BelvoEndpoint<BelvoEnrollment> {
        BelvoEndpoint(
            BelvoRequest(
                method: .post, path: "\(basePath)/enrollments/complete-redirection/",
                authorization: authorization, body: request.body),
            decodeBody: json(BelvoEnrollment.self, "enrollment"))
    }

    /// `GET /payments/br/enrollments/{id}/fido-registration-options/`: the options to register
    /// the credential with; poll it (it answers once the bank is ready).
    ///
    /// - Throws: ``BelvoError/Code/invalidIdentifier`` when `enrollmentID` is not a plain path
    ///   segment.
    public static func fidoRegistrationOptions(
        enrollmentID: String, authorization: BelvoAuthorization
    ) throws -> BelvoEndpoint<BelvoFidoRegistrationOptions> {
        let id = try segment(enrollmentID, "enrollmentID")
        return BelvoEndpoint(
            BelvoRequest(
                method: .get, path: "\(basePath)/enrollments/\(id)/fido-registration-options/",
                authorization: authorization),
            decodeBody: { body throws in try BelvoFidoRegistrationOptions(json: body) })
    }

    /// `POST /payments/br/enrollments/{id}/confirm/`: send the new credential; answers 204
    /// (SDK: `confirmEnrollment(enrollmentId:credential:response:)`).
    ///
    /// - Throws: ``BelvoError/Code/invalidIdentifier`` when `enrollmentID` is not a plain path
    ///   segment.
    public static func confirmEnrollment(
        enrollmentID: String, _ request: BelvoConfirmEnrollmentRequest,
        authorization: BelvoAuthorization
    ) throws -> BelvoEndpoint<Void> {
        let id = try segment(enrollmentID, "enrollmentID")
        return BelvoEndpoint(
            BelvoRequest(
                method: .post, path: "\(basePath)/enrollments/\(id)/confirm/",
                authorization: authorization, body: request.body),
            decodeBody: { _ in })
    }

    /// `GET /payments/br/enrollments/{id}/`: the enrollment; poll until its status is final.
    ///
    /// - Throws: ``BelvoError/Code/invalidIdentifier`` when `id` is not a plain path segment.
    public static func getEnrollment(
        id: String, authorization: BelvoAuthorization
    ) throws -> BelvoEndpoint<BelvoEnrollment> {
        let id = try segment(id, "id")
        return BelvoEndpoint(
            BelvoRequest(
                method: .get, path: "\(basePath)/enrollments/\(id)/", authorization: authorization),
            decodeBody: json(BelvoEnrollment.self, "enrollment"))
    }

    /// `GET /payments/br/enrollments/?device_id=…`: the device's enrollments; show those
    /// `SUCCEEDED` (SDK: `listEnrollments(deviceId:)`). The device id (encrypted, from the risk
    /// signals) is percent-encoded in full.
    ///
    /// - Throws: ``BelvoError/Code/missingField`` when `deviceID` is empty.
    public static func listEnrollments(
        deviceID: String, authorization: BelvoAuthorization
    ) throws -> BelvoEndpoint<BelvoList<BelvoEnrollment>> {
        let deviceID = try BelvoRequestValidation.required(deviceID, "device_id")
        return BelvoEndpoint(
            BelvoRequest(
                method: .get, path: "\(basePath)/enrollments/", query: [("device_id", deviceID)],
                authorization: authorization),
            decodeBody: json(BelvoList<BelvoEnrollment>.self, "enrollment list"))
    }

    /// `POST /payments/br/payment-intents/`: create a confirmed payment intent; the answer
    /// carries the `fido_options` to sign.
    public static func createPaymentIntent(
        _ request: BelvoPaymentIntentRequest, authorization: BelvoAuthorization
    ) -> BelvoEndpoint<BelvoPaymentIntent> {
        BelvoEndpoint(
            BelvoRequest(
                method: .post, path: "\(basePath)/payment-intents/", authorization: authorization,
                body: request.body),
            decodeBody: paymentIntent)
    }

    /// `POST /payments/br/payment-intents/{id}/authorize/`: send the signed approval; answers
    /// 204 (SDK: `authorizePaymentIntent(paymentIntentId:payload:)`).
    ///
    /// - Throws: ``BelvoError/Code/invalidIdentifier`` when `paymentIntentID` is not a plain
    ///   path segment.
    public static func authorizePaymentIntent(
        paymentIntentID: String, _ request: BelvoAuthorizePaymentRequest,
        authorization: BelvoAuthorization
    ) throws -> BelvoEndpoint<Void> {
        let id = try segment(paymentIntentID, "paymentIntentID")
        return BelvoEndpoint(
            BelvoRequest(
                method: .post, path: "\(basePath)/payment-intents/\(id)/authorize/",
                authorization: authorization, body: request.body),
            decodeBody: { _ in })
    }

    /// `GET /payments/br/payment-intents/{id}/`: the payment intent; poll until `SUCCEEDED`.
    ///
    /// - Throws: ``BelvoError/Code/invalidIdentifier`` when `id` is not a plain path segment.
    public static func getPaymentIntent(
        id: String, authorization: BelvoAuthorization
    ) throws -> BelvoEndpoint<BelvoPaymentIntent> {
        let id = try segment(id, "id")
        return BelvoEndpoint(
            BelvoRequest(
                method: .get, path: "\(basePath)/payment-intents/\(id)/",
                authorization: authorization),
            decodeBody: paymentIntent)
    }

    /// `POST /payments/api/widget-token/` with HTTP Basic: the SDK's access and refresh tokens.
    /// Backend only: it needs the Payments API secret. The guide sends no body, only
    /// `Content-Type: application/json`; so does this request.
    public static func widgetToken(
        secretID: String, secretPassword: String
    ) -> BelvoEndpoint<BelvoWidgetToken> {
        BelvoEndpoint(
            BelvoRequest(
                method: .post, path: widgetTokenPath,
                authorization: .basic(secretID: secretID, secretPassword: secretPassword),
                jsonContentType: true),
            decodeBody: json(BelvoWidgetToken.self, "widget token"))
    }

    /// A body decoder for `T`, failing with ``BelvoError/Code/malformedResponse``.
    private static func json<T: Decodable & Sendable>(
        _ type: T.Type, _ what: String
    ) -> @Sendable ([UInt8]) throws -> T {
        { body throws in
            try JSONReading.decode(T.self, from: body, code: .malformedResponse, what: what)
        }
    }

    /// Decodes a payment intent (see ``BelvoPaymentIntent/init(json:)``).
    @Sendable private static func paymentIntent(
        _ body: [UInt8]
    ) throws -> BelvoPaymentIntent {
        try BelvoPaymentIntent(json: body)
    }

    /// `id` when it is a plain path segment, else ``BelvoError/Code/invalidIdentifier``.
    private static func segment(_ id: String, _ field: String) throws(BelvoError) -> String {
        let plain = id.utf8.allSatisfy { byte in
            switch byte {
            case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"),
                UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "."),
                UInt8(ascii: "_"), UInt8(ascii: "~"):
                true
            default:
                false
            }
        }
        guard plain, (1...128).contains(id.utf8.count), id != ".", id != ".." else {
            throw BelvoError(
                .invalidIdentifier,
                "\(field) \"\(id)\" is not a plain path segment (1 to 128 of A-Z a-z 0-9 - . _ ~)",
                field: field)
        }
        return id
    }
}
