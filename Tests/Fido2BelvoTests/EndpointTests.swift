import Foundation
import Testing

@testable import Fido2Belvo

/// Every documented endpoint is a request value with the right method, path, headers and body,
/// and its answer's status code maps onto the SDK's error cases.
@Suite struct EndpointTests {
    private let auth = BelvoAuthorization.bearer(accessToken: "tok")
    private let signals = try! BelvoRiskSignals(jsonString: "{\"deviceId\": \"d\"}")
    private let attestation = AttestationResponse(
        encodedId: "AQID", rawId: "AQID", encodedAttestationObject: "o2M",
        encodedClientDataJSON: "e30")
    private let assertion = AssertionResponse(
        encodedId: "AQID", rawId: "AQID", authenticatorData: "SZYN", clientDataJSON: "e30",
        signature: "MEU", userHandle: "YWJj")

    private func expectJSON(_ request: BelvoRequest, body expected: [UInt8]) {
        #expect(request.body == expected)
        #expect(request.headers["Content-Type"] == "application/json")
        #expect(request.headers["Authorization"] == "Bearer tok")
        #expect(request.headers["Accept"] == "application/json")
    }

    private func expectNoBody(_ request: BelvoRequest) {
        #expect(request.body == nil)
        #expect(request.headers["Content-Type"] == nil)
        #expect(request.headers["Authorization"] == "Bearer tok")
    }

    @Test func enrollmentEndpointsUseThePaymentsBrazilBase() throws {
        let institutions = BelvoAPI.listInstitutions(authorization: auth).request
        #expect(institutions.method == .get)
        #expect(institutions.path == "/payments/br/institutions/")
        expectNoBody(institutions)

        let create = try BelvoCreateEnrollmentRequest(
            customer: "c", institution: "i", name: "n", callbackURL: "https://m.example/cb",
            riskSignals: signals)
        let created = BelvoAPI.createEnrollment(create, authorization: auth).request
        #expect(created.method == .post)
        #expect(created.path == "/payments/br/enrollments/")
        expectJSON(created, body: create.body)

        let redirect = try BelvoCompleteRedirectionRequest(state: "s", code: "c", idToken: "t")
        let completed = BelvoAPI.completeRedirection(redirect, authorization: auth).request
        #expect(completed.method == .post)
        #expect(completed.path == "/payments/br/enrollments/complete-redirection/")
        expectJSON(completed, body: redirect.body)

        let options = try BelvoAPI.fidoRegistrationOptions(enrollmentID: "e-1", authorization: auth)
            .request
        #expect(options.method == .get)
        #expect(options.path == "/payments/br/enrollments/e-1/fido-registration-options/")
        expectNoBody(options)

        let confirm = try BelvoConfirmEnrollmentRequest(attestation: attestation)
        let confirmed = try BelvoAPI.confirmEnrollment(
            enrollmentID: "e-1", confirm, authorization: auth
        ).request
        #expect(confirmed.method == .post)
        #expect(confirmed.path == "/payments/br/enrollments/e-1/confirm/")
        expectJSON(confirmed, body: confirm.body)

        let enrollment = try BelvoAPI.getEnrollment(id: "e-1", authorization: auth).request
        #expect(enrollment.method == .get)
        #expect(enrollment.path == "/payments/br/enrollments/e-1/")
        expectNoBody(enrollment)
    }

    @Test func listEnrollmentsEncodesTheDeviceIDInFull() throws {
        let request = try BelvoAPI.listEnrollments(deviceID: "a+b/c=d é&x", authorization: auth)
            .request
        #expect(request.method == .get)
        #expect(request.path == "/payments/br/enrollments/")
        #expect(request.query.count == 1)
        #expect(request.query.first?.name == "device_id")
        #expect(request.query.first?.value == "a+b/c=d é&x")
        #expect(request.target == "/payments/br/enrollments/?device_id=a%2Bb%2Fc%3Dd%20%C3%A9%26x")
        expectNoBody(request)
        let url = request.url(baseURL: BelvoAPI.productionBaseURL)
        #expect(
            url?.absoluteString
                == "https://api.belvo.com/payments/br/enrollments/?device_id=a%2Bb%2Fc%3Dd%20%C3%A9%26x"
        )
        #expect(
            URLComponents(url: url!, resolvingAgainstBaseURL: false)?.queryItems?.first?.value
                == "a+b/c=d é&x")
    }

    @Test func paymentEndpointsUseThePaymentsBrazilBase() throws {
        let create = try BelvoPaymentIntentRequest(
            amount: 1, customer: "c", description: "d", statementDescription: "s",
            beneficiaryBankAccount: "b", enrollment: "e")
        let created = BelvoAPI.createPaymentIntent(create, authorization: auth).request
        #expect(created.method == .post)
        #expect(created.path == "/payments/br/payment-intents/")
        expectJSON(created, body: create.body)

        let authorize = try BelvoAuthorizePaymentRequest(riskSignals: signals, assertion: assertion)
        let authorized = try BelvoAPI.authorizePaymentIntent(
            paymentIntentID: "p-1", authorize, authorization: auth
        ).request
        #expect(authorized.method == .post)
        #expect(authorized.path == "/payments/br/payment-intents/p-1/authorize/")
        expectJSON(authorized, body: authorize.body)

        let intent = try BelvoAPI.getPaymentIntent(id: "p-1", authorization: auth).request
        #expect(intent.method == .get)
        #expect(intent.path == "/payments/br/payment-intents/p-1/")
        #expect(intent.target == intent.path)
        expectNoBody(intent)
    }

    @Test func widgetTokenUsesHTTPBasic() {
        let request = BelvoAPI.widgetToken(secretID: "my-id", secretPassword: "p@ss:word").request
        #expect(request.method == .post)
        #expect(request.path == "/payments/api/widget-token/")
        #expect(request.headers["Authorization"] == "Basic bXktaWQ6cEBzczp3b3Jk")
        #expect(request.headers["Content-Type"] == "application/json")
        #expect(request.body == nil)
    }

    @Test func urlJoinsAnyBaseWithOrWithoutTrailingSlash() throws {
        let request = try BelvoAPI.getEnrollment(id: "e1", authorization: auth).request
        #expect(
            request.url(baseURL: URL(string: "http://localhost:8080/")!)?.absoluteString
                == "http://localhost:8080/payments/br/enrollments/e1/")
        #expect(
            request.url(baseURL: URL(string: "https://api.belvo.com")!)?.absoluteString
                == "https://api.belvo.com/payments/br/enrollments/e1/")
    }

    @Test(arguments: [
        "", "..", ".", "a/b", "a?b", "a#b", "a%2F", "é", String(repeating: "a", count: 129),
    ])
    func pathIDsMustBePlainSegments(id: String) {
        let errors = [
            #expect(throws: BelvoError.self) {
                try BelvoAPI.getEnrollment(id: id, authorization: auth)
            },
            #expect(throws: BelvoError.self) {
                try BelvoAPI.fidoRegistrationOptions(enrollmentID: id, authorization: auth)
            },
            #expect(throws: BelvoError.self) {
                try BelvoAPI.confirmEnrollment(
                    enrollmentID: id, BelvoConfirmEnrollmentRequest(attestation: attestation),
                    authorization: auth)
            },
            #expect(throws: BelvoError.self) {
                try BelvoAPI.getPaymentIntent(id: id, authorization: auth)
            },
            #expect(throws: BelvoError.self) {
                try BelvoAPI.authorizePaymentIntent(
                    paymentIntentID: id,
                    BelvoAuthorizePaymentRequest(riskSignals: signals, assertion: assertion),
                    authorization: auth)
            },
        ]
        for error in errors {
            #expect(error?.code == .invalidIdentifier)
            #expect(error?.kind == .invalidParameters)
        }
    }

    @Test func emptyDeviceIDIsRefused() {
        let error = #expect(throws: BelvoError.self) {
            try BelvoAPI.listEnrollments(deviceID: "", authorization: auth)
        }
        #expect(error?.code == .missingField)
        #expect(error?.field == "device_id")
    }

    @Test(arguments: [
        (401, BelvoError.Code.authentication, BelvoError.Kind.authentication),
        (403, .authentication, .authentication),
        (400, .invalidParameters, .invalidParameters),
        (422, .invalidParameters, .invalidParameters),
        (404, .notFound, .unknown),
        (500, .serverError, .unknown),
        (503, .serverError, .unknown),
        (302, .unexpectedStatus, .unknown),
        (429, .unexpectedStatus, .unknown),
        (0, .unexpectedStatus, .unknown),
    ])
    func statusCodesMapOntoTheSDKErrorCases(
        status: Int, code: BelvoError.Code, kind: BelvoError.Kind
    ) throws {
        let endpoint = try BelvoAPI.getEnrollment(id: "e1", authorization: auth)
        let error = #expect(throws: BelvoError.self) {
            try endpoint.decode(
                status: status, body: Array(#"{"id": "e1", "status": "PENDING"}"#.utf8))
        }
        #expect(error?.code == code)
        #expect(error?.kind == kind)
        #expect(error?.httpStatus == status)
    }

    @Test func belvoErrorMessagesAreCarriedIntoTheReason() {
        let endpoint = BelvoAPI.listInstitutions(authorization: auth)
        let body =
            #"[{"request_id": "r1", "code": "invalid", "message": "callback_url must be https", "field": "callback_url"}]"#
        let error = #expect(throws: BelvoError.self) {
            try endpoint.decode(status: 400, body: Array(body.utf8))
        }
        #expect(
            error?.reason.contains("invalid: callback_url must be https (field callback_url)")
                == true)
        let detail = #expect(throws: BelvoError.self) {
            try endpoint.decode(status: 401, body: Array(#"{"detail": "Invalid token."}"#.utf8))
        }
        #expect(detail?.reason == "Belvo refused the credentials: Invalid token.")
        let html = #expect(throws: BelvoError.self) {
            try endpoint.decode(status: 502, body: Array("<html>bad gateway</html>".utf8))
        }
        #expect(html?.reason == "Belvo failed")
    }

    @Test func noContentAnswersDecodeToVoid() throws {
        let confirm = try BelvoAPI.confirmEnrollment(
            enrollmentID: "e1", BelvoConfirmEnrollmentRequest(attestation: attestation),
            authorization: auth)
        try confirm.decode(status: 204, body: [])
        let authorize = try BelvoAPI.authorizePaymentIntent(
            paymentIntentID: "p1",
            BelvoAuthorizePaymentRequest(riskSignals: signals, assertion: assertion),
            authorization: auth)
        try authorize.decode(status: 204, body: [])
        let error = #expect(throws: BelvoError.self) { try authorize.decode(status: 403, body: []) }
        #expect(error?.kind == .authentication)
    }

    @Test(arguments: [
        "", "not json", "{\"id\": 5, \"status\": \"PENDING\"}", "{\"status\": \"PENDING\"}", "[]",
    ])
    func undocumentedSuccessBodyIsAMalformedResponse(body: String) throws {
        let endpoint = try BelvoAPI.getEnrollment(id: "e1", authorization: auth)
        let error = #expect(throws: BelvoError.self) {
            try endpoint.decode(status: 200, body: Array(body.utf8))
        }
        #expect(error?.code == .malformedResponse)
        #expect(error?.kind == .unknown)
        #expect(error?.reason.contains("malformed enrollment: ") == true)
    }

    @Test func missingMemberIsNamedInAMalformedResponse() throws {
        let endpoint = BelvoAPI.widgetToken(secretID: "i", secretPassword: "p")
        let error = #expect(throws: BelvoError.self) {
            try endpoint.decode(status: 200, body: Array(#"{"access": "a"}"#.utf8))
        }
        #expect(error?.code == .malformedResponse)
        #expect(error?.field == "refresh")
    }

    @Test func transportFailuresAreNetworkErrors() {
        struct Timeout: Error {}
        let error = BelvoError.network(Timeout())
        #expect(error.code == .network)
        #expect(error.kind == .network)
        #expect(
            error.description.hasPrefix(
                "Belvo network error (network): the request did not complete"))
    }
}
