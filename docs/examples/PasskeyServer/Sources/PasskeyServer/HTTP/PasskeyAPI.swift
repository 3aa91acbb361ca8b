import Hummingbird

/// The JSON API the page calls, one route per ceremony step:
///
/// - `POST /registration/options` `{"username": "alice"}` → creation options;
/// - `POST /registration/verify` a `RegistrationResponseJSON` →
///   `{"verified": true, "credentialId": "…"}`;
/// - `POST /authentication/options` `{"username": "alice"}` or `{}` → request options;
/// - `POST /authentication/verify` an `AuthenticationResponseJSON` →
///   `{"verified": true, "username": "alice", "signCount": 7}`.
///
/// A refusal is a 400 with `{"error": "…", "code": "…", "step": "…"}` (``ServerError``). The
/// options routes give the browser a session cookie when it has none (``SessionCookie``);
/// the verify routes find the ceremony's state under it.
struct PasskeyAPI: Sendable {
    /// The most bytes a request body may have; a response with an attestation certificate
    /// chain has a few kilobytes.
    static let maximumBodySize = 128 * 1024

    /// The ceremonies.
    let service: PasskeyService

    /// Adds the four routes to `router`.
    func addRoutes(to router: Router<BasicRequestContext>) {
        router.post("registration/options") { request, _ in
            try await registrationOptions(request)
        }
        router.post("registration/verify") { request, _ in
            try await registrationVerify(request)
        }
        router.post("authentication/options") { request, _ in
            try await authenticationOptions(request)
        }
        router.post("authentication/verify") { request, _ in
            try await authenticationVerify(request)
        }
    }

    private func registrationOptions(_ request: Request) async throws -> Response {
        let options = try OptionsRequest.reading(try await Self.body(of: request))
        guard let name = options.username else {
            throw ServerError.invalidRequest(#"registration needs {"username": "…"}"#)
        }
        let username = try Username(name)
        return try await Self.withSession(of: request) { session throws(ServerError) in
            try await service.beginRegistration(username: username, session: session)
        }
    }

    private func registrationVerify(_ request: Request) async throws -> Response {
        let body = try await Self.body(of: request)
        let outcome = try await service.finishRegistration(
            responseJSON: body, session: SessionCookie.sessionID(of: request))
        return try JSONResponse.encoding(outcome)
    }

    private func authenticationOptions(_ request: Request) async throws -> Response {
        let options = try OptionsRequest.reading(try await Self.body(of: request))
        let username = try options.username.map { name throws(ServerError) in try Username(name) }
        return try await Self.withSession(of: request) { session throws(ServerError) in
            try await service.beginAuthentication(username: username, session: session)
        }
    }

    private func authenticationVerify(_ request: Request) async throws -> Response {
        let body = try await Self.body(of: request)
        let outcome = try await service.finishAuthentication(
            responseJSON: body, session: SessionCookie.sessionID(of: request))
        return try JSONResponse.encoding(outcome)
    }

    /// The request's body as text, at most ``maximumBodySize`` bytes (a larger one is
    /// answered with 413).
    private static func body(of request: Request) async throws -> String {
        var request = request
        return String(buffer: try await request.collectBody(upTo: maximumBodySize))
    }

    /// The options `begin` returns for the request's session, answered as JSON; a request
    /// without a session gets a new one, and its cookie.
    private static func withSession(
        of request: Request, _ begin: (String) async throws(ServerError) -> String
    ) async throws(ServerError) -> Response {
        let existing = SessionCookie.sessionID(of: request)
        let session = existing ?? SessionCookie.newSessionID()
        var response = JSONResponse.text(try await begin(session))
        if existing == nil {
            response.setCookie(SessionCookie.cookie(for: session))
        }
        return response
    }
}
