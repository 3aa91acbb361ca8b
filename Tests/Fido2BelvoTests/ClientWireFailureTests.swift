import Fido2Authenticator
import Fido2BelvoDevice
import Fido2Crypto
import Fido2Support
import Fido2TestSupport
import Fido2Vectors
import Foundation
import Testing

@testable import Fido2Belvo

/// `BelvoClient` over a real loopback socket: what each failure on the wire becomes (the SDK's
/// four cases, with the HTTP status and Belvo's body), and that a flow failing before the
/// biometric step leaves the credential store untouched.
@Suite struct ClientWireFailureTests {
    private static let enrollmentID = "3f2c1b7e-8d4a-4e5f-9a6b-0c1d2e3f4a5b"

    private func client(
        _ server: LoopbackHTTPServer, timeout: Duration = .seconds(10)
    )
        -> BelvoClient
    {
        BelvoClient(
            baseURL: server.baseURL, secretID: "id", secretPassword: "pw", timeout: timeout)
    }

    /// The error `body` throws, which must be a `BelvoError`.
    private func belvoError(_ body: () async throws -> Void) async -> BelvoError? {
        do {
            try await body()
        } catch let error as BelvoError {
            return error
        } catch {
            Issue.record("not a BelvoError: \(error)")
        }
        return nil
    }

    @Test func connectionRefusedIsNetworkError() async throws {
        let port = try LoopbackHTTPServer.refusingPort()
        let client = BelvoClient(
            baseURL: try #require(URL(string: "http://127.0.0.1:\(port)")), secretID: "id",
            secretPassword: "pw", timeout: .seconds(10))
        let error = await belvoError { _ = try await client.getPaymentInstitutions() }
        #expect(error?.kind == .network)
        #expect(error?.code == .network)
        #expect(error?.httpStatus == nil)
        #expect(
            error?.reason.contains("GET http://127.0.0.1:\(port)/payments/br/institutions/") == true
        )
        #expect(error?.reason.contains("could not connect") == true)
    }

    /// The server never answers, so only the client's time-out ends the call. (No wall-clock
    /// bound: with the whole suite running on two cores a continuation may wait its turn for
    /// minutes, and a missing time-out would hang the test instead.)
    @Test func silentServerTimesOutAsNetworkError() async throws {
        let server = try LoopbackHTTPServer { _ in .hang }
        defer { server.stop() }
        let error = await belvoError {
            _ = try await client(server, timeout: .milliseconds(500)).getPaymentInstitutions()
        }
        #expect(error?.kind == .network)
        #expect(error?.reason.contains("timed out after") == true)
        // A time-out is not retried: the server reads at most one request, even given two
        // seconds for a second. (Not exactly one: under a loaded sanitizer run the client's
        // 500 ms can end before its transfer has started, and then nothing reaches the server.)
        #expect(await server.requests(atLeast: 2, within: .seconds(2)).count <= 1)
    }

    /// A server that answers a byte every 100 ms is never idle, so FoundationNetworking's own
    /// time-outs (restarted by each byte) never end the call; the client's deadline does: 200
    /// bytes take 20 s, the time-out is 1 s. Without the deadline the call succeeds.
    @Test func tricklingServerTimesOutAsNetworkError() async throws {
        let server = try LoopbackHTTPServer { _ in
            .trickle(bytes: 200, interval: .milliseconds(100))
        }
        defer { server.stop() }
        let error = await belvoError {
            _ = try await client(server, timeout: .seconds(1)).getPaymentInstitutions()
        }
        #expect(error?.kind == .network, "\(String(describing: error))")
        #expect(error?.reason.contains("timed out after") == true, "\(String(describing: error))")
    }

    /// An API call follows a redirect within its origin (with its credentials), and not to
    /// another origin: Foundation would copy the `Authorization` header there.
    @Test func redirectsAreFollowedWithinTheOriginOnly() async throws {
        let elsewhere = try LoopbackHTTPServer { _ in .answer(200, "[]") }
        defer { elsewhere.stop() }
        let away = try LoopbackHTTPServer { _ in
            .answer(
                302, "", headers: ["Location": "\(elsewhere.baseURL)/payments/br/institutions/"])
        }
        defer { away.stop() }
        let error = await belvoError { _ = try await client(away).getPaymentInstitutions() }
        #expect(error?.httpStatus == 302)
        #expect(await elsewhere.requests(atLeast: 1, within: .seconds(1)).isEmpty)

        let within = try LoopbackHTTPServer { request in
            request.target.contains("moved")
                ? .answer(401, #"[{"code": "authentication_failed", "message": "no"}]"#)
                : .answer(302, "", headers: ["Location": "/payments/br/moved/"])
        }
        defer { within.stop() }
        let followed = await belvoError { _ = try await client(within).getPaymentInstitutions() }
        #expect(followed?.httpStatus == 401)
        let requests = await within.requests(atLeast: 2)
        #expect(requests.count == 2)
        #expect(requests.last?.target.hasPrefix("/payments/br/moved") == true)
        #expect(requests.last?.header("Authorization")?.hasPrefix("Basic ") == true)
    }

    @Test func unauthorizedIsAuthenticationErrorWithBelvosBody() async throws {
        let body =
            #"[{"code": "authentication_failed", "message": "Invalid credentials provided"}]"#
        let server = try LoopbackHTTPServer { _ in .answer(401, body) }
        defer { server.stop() }
        let error = await belvoError { _ = try await client(server).getPaymentInstitutions() }
        #expect(error?.kind == .authentication)
        #expect(error?.httpStatus == 401)
        #expect(error?.responseBody == Array(body.utf8))
        #expect(
            error?.reason.contains("authentication_failed: Invalid credentials provided") == true)
    }

    @Test func unprocessableIsInvalidParametersWithBelvosMessage() async throws {
        let body = #"[{"code": "invalid", "message": "confirm must be true", "field": "confirm"}]"#
        let server = try LoopbackHTTPServer { _ in .answer(422, body) }
        defer { server.stop() }
        let error = await belvoError { _ = try await client(server).listEnrollments(deviceID: "d") }
        #expect(error?.kind == .invalidParameters)
        #expect(error?.httpStatus == 422)
        #expect(error?.reason.contains("confirm must be true (field confirm)") == true)
    }

    @Test(arguments: [
        (503, #"{"detail": "maintenance"}"#, "maintenance"),
        (500, "<html><body>Internal Server Error</body></html>", "Belvo failed"),
    ])
    func serverFailureIsUnknownWithStatus(status: Int, body: String, says: String) async throws {
        let server = try LoopbackHTTPServer { _ in .answer(status, body) }
        defer { server.stop() }
        let error = await belvoError { _ = try await client(server).getPaymentInstitutions() }
        #expect(error?.kind == .unknown)
        #expect(error?.code == .serverError)
        #expect(error?.httpStatus == status)
        #expect(error?.responseBody == Array(body.utf8))
        #expect(error?.reason.contains(says) == true)
    }

    @Test func successfulAnswerThatIsNotJSONIsUnknownMalformedResponse() async throws {
        let body = "<html>gateway says hello</html>"
        let server = try LoopbackHTTPServer { _ in .answer(200, body) }
        defer { server.stop() }
        let error = await belvoError { _ = try await client(server).getPaymentInstitutions() }
        #expect(error?.kind == .unknown)
        #expect(error?.code == .malformedResponse)
        #expect(error?.httpStatus == 200)
        #expect(error?.responseBody == Array(body.utf8))
    }

    @Test func undocumentedStatusIsUnknownUnexpectedStatus() async throws {
        let server = try LoopbackHTTPServer { _ in .answer(418, "short and stout") }
        defer { server.stop() }
        let error = await belvoError { _ = try await client(server).getPaymentInstitutions() }
        #expect(error?.kind == .unknown)
        #expect(error?.code == .unexpectedStatus)
        #expect(error?.httpStatus == 418)
        #expect(error?.reason.contains("unexpected HTTP status 418") == true)
    }

    @Test func answerOverTheLimitIsRefused() async throws {
        let big = "[" + String(repeating: "1,", count: 50_000) + "1]"
        let server = try LoopbackHTTPServer { _ in .answer(200, big) }
        defer { server.stop() }
        var client = client(server)
        client.maximumResponseBytes = 4096
        let error = await belvoError { _ = try await client.getPaymentInstitutions() }
        #expect(error?.code == .responseTooLarge)
        #expect(error?.kind == .unknown)
    }

    @Test func requestCarriesMethodPathBasicCredentialsAndJSONBody() async throws {
        let server = try LoopbackHTTPServer { _ in .answer(201, BelvoSamples.createdEnrollment) }
        defer { server.stop() }
        let request = try BelvoCreateEnrollmentRequest(
            customer: "c0ffee00-0000-4000-8000-000000000001", institution: "inst",
            name: "phone", callbackURL: "https://merchant.example/cb",
            riskSignals: BelvoRiskSignals(jsonString: #"{"deviceId":"d"}"#))
        let enrollment = try await BelvoClient(
            baseURL: server.baseURL, secretID: "my id", secretPassword: "p:w"
        ).createEnrollment(request)
        #expect(enrollment.details?.redirectURL == "https://bank.example/authorize?request=abc")
        let sent = try #require(server.requests.first)
        #expect(sent.method == "POST")
        #expect(sent.target == "/payments/br/enrollments/")
        #expect(
            sent.header("Authorization") == "Basic " + Data("my id:p:w".utf8).base64EncodedString())
        #expect(sent.header("Content-Type") == "application/json")
        #expect(sent.header("Accept") == "application/json")
        #expect(sent.body == request.body)
    }

    @Test func registrationOptionsArePolledUntilReady() async throws {
        let counter = LockedState(0)
        let slow = try LoopbackHTTPServer { _ in
            counter.withLock {
                $0 += 1; return $0
            } <= 2
                ? .answer(404, #"{"detail": "not ready"}"#)
                : .answer(200, BelvoGuideSamples.registrationOptions)
        }
        defer { slow.stop() }
        // A deadline far beyond the three polls needed: the suite's load must not end it. Under
        // AddressSanitizer on two loaded cores the suite runs for over 15 minutes, and the
        // sleeps between polls resume only when a cooperative thread is free, so 600 s once
        // passed after the first poll; two hours bounds the loop without racing the suite.
        let policy = BelvoPollingPolicy(
            interval: .milliseconds(20), deadline: .seconds(7200), onTimeout: .returnsNil)
        let options = try await client(slow).getFidoRegistrationOptions(
            enrollmentID: Self.enrollmentID, policy: policy)
        #expect(options?.rp.id == "belvo.com")
        #expect(slow.requests.count == 3)
        #expect(
            slow.requests.allSatisfy {
                $0.target
                    == "/payments/br/enrollments/\(Self.enrollmentID)/fido-registration-options/"
            })
    }

    @Test func bankRedirectsAreFollowedToTheCallback() async throws {
        let server = try LoopbackHTTPServer { request in
            switch request.target {
            case "/bank/start": .answer(302, "", headers: ["Location": "/bank/next"])
            case "/bank/next":
                .answer(
                    303, "",
                    headers: ["Location": "https://merchant.example/cb?state=s&code=c&id_token=t"])
            default: .answer(200, "<html>approve here</html>")
            }
        }
        defer { server.stop() }
        let client = client(server)
        let url = try await client.followBankRedirect(
            from: server.baseURL.absoluteString + "/bank/start", to: "https://merchant.example/cb")
        #expect(url == "https://merchant.example/cb?state=s&code=c&id_token=t")
        #expect(server.requests.allSatisfy { $0.header("Authorization") == nil })

        let error = await belvoError {
            _ = try await client.followBankRedirect(
                from: server.baseURL.absoluteString + "/bank/person",
                to: "https://merchant.example/cb")
        }
        #expect(error?.code == .bankRedirectFailed)
        #expect(error?.reason.contains("a person must approve there") == true)
    }

    /// Fetch the options, then (only if they came) run the biometric step: what an app does.
    private func enroll(_ client: BelvoClient, _ device: BelvoDevice) async throws {
        let policy = BelvoPollingPolicy(
            interval: .milliseconds(10), deadline: .milliseconds(50), onTimeout: .throwsError)
        guard
            let options = try await client.getFidoRegistrationOptions(
                enrollmentID: Self.enrollmentID, policy: policy)
        else { return }
        _ = try device.startRegistration(options: BelvoRegistrationOptions(options))
    }

    @Test(arguments: [
        LoopbackHTTPServer.Reply.answer(401, #"{"detail": "no"}"#),
        .answer(502, "bad gateway"),
        .answer(200, "not json"),
        .answer(200, #"{"rp": {"id": "belvo.com"}}"#),
        .answer(404, #"{"detail": "not ready"}"#),
        .answer(302, "", headers: ["Location": "/elsewhere"]),
    ])
    func failureBeforeTheBiometricStepStoresNothing(reply: LoopbackHTTPServer.Reply) async throws {
        let server = try LoopbackHTTPServer { _ in reply }
        defer { server.stop() }
        let store = try TemporaryStore()
        let before = try store.snapshot()
        let device = BelvoDevice(store: store.store)
        let error = await belvoError { try await enroll(client(server), device) }
        #expect(error != nil)
        #expect(try store.snapshot() == before)
        #expect(try store.store.credentials(relyingPartyID: "belvo.com").isEmpty)
    }

    @Test func unreachableServerStoresNothing() async throws {
        let port = try LoopbackHTTPServer.refusingPort()
        let client = BelvoClient(
            baseURL: try #require(URL(string: "http://127.0.0.1:\(port)")), secretID: "id",
            secretPassword: "pw")
        let store = try TemporaryStore()
        let before = try store.snapshot()
        let error = await belvoError { try await enroll(client, BelvoDevice(store: store.store)) }
        #expect(error?.kind == .network)
        #expect(try store.snapshot() == before)
    }
}
