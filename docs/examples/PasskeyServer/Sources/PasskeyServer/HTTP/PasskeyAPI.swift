import Foundation
import Hummingbird
import NIOCore

/// The JSON API the page calls:
///
/// - `POST /registration/options` `{"username": "alice"}` (sign-up) or `{}` (another passkey
///   for the signed-in account) → creation options;
/// - `POST /registration/verify` a `RegistrationResponseJSON` →
///   `{"verified": true, "credentialId": "…", "username": "alice"}`, signed in;
/// - `POST /authentication/options` `{"username": "alice"}` or `{}` → request options;
/// - `POST /authentication/verify` an `AuthenticationResponseJSON` →
///   `{"verified": true, "username": "alice", "signCount": 7}`, signed in;
/// - `POST /signout` → `{"signedOut": true}`;
/// - `GET /account` → ``AccountView``;
/// - `POST /account/passkeys/{credentialId}/name` `{"name": "…"}` → the account;
/// - `DELETE /account/passkeys/{credentialId}` → the account.
///
/// A refusal is a 4xx with `{"error": "…", "code": "…", "step": "…"}` (``ServerError``). The
/// options routes give the browser a session cookie when it has none, or one naming no
/// current session (``SessionCookie``); the verify routes find the ceremony's state under it
/// and answer with the cookie of a new, signed-in session.
struct PasskeyAPI: Sendable {
    /// The most bytes a request body may have; a response with an attestation certificate
    /// chain has a few kilobytes. A larger body is answered with 413.
    static let maximumBodySize = 64 * 1024

    /// The ceremonies and the account.
    let service: PasskeyService
    /// The limit on the options routes, per client.
    let rateLimiter: RateLimiter
    /// Whether cookies are `Secure` (the origin is `https`).
    let secureCookies: Bool

    /// Adds the routes to `router`.
    func addRoutes(to router: Router<PasskeyRequestContext>) {
        router.post("registration/options") { request, context in
            try await registrationOptions(request, context)
        }
        router.post("registration/verify") { request, _ in
            try await registrationVerify(request)
        }
        router.post("authentication/options") { request, context in
            try await authenticationOptions(request, context)
        }
        router.post("authentication/verify") { request, _ in
            try await authenticationVerify(request)
        }
        router.post("signout") { request, _ in
            try await service.signOut(session: sessionID(of: request))
            var response = try JSONResponse.encoding(["signedOut": true])
            response.setCookie(SessionCookie.expired(secure: secureCookies))
            return response
        }
        router.get("account") { request, _ in
            try JSONResponse.encoding(
                try await service.account(session: sessionID(of: request)))
        }
        router.post("account/passkeys/:credentialId/name") { request, context in
            let credentialID = try context.parameters.require("credentialId")
            let name = try PasskeyName(RenameRequest.reading(try await Self.body(of: request)).name)
            let session = sessionID(of: request)
            try await service.renamePasskey(credentialID, to: name, session: session)
            return try JSONResponse.encoding(try await service.account(session: session))
        }
        router.delete("account/passkeys/:credentialId") { request, context in
            let credentialID = try context.parameters.require("credentialId")
            let session = sessionID(of: request)
            try await service.deletePasskey(credentialID, session: session)
            return try JSONResponse.encoding(try await service.account(session: session))
        }
    }

    private func registrationOptions(
        _ request: Request, _ context: PasskeyRequestContext
    ) async throws -> Response {
        try limit(context)
        let options = try OptionsRequest.reading(try await Self.body(of: request))
        let username = try options.username.map { name throws(ServerError) in try Username(name) }
        let session = sessionID(of: request)
        return answer(
            try await service.beginRegistration(username: username, session: session),
            cookie: session)
    }

    private func registrationVerify(_ request: Request) async throws -> Response {
        let body = try await Self.bodyBytes(of: request)
        let finished = try await service.finishRegistration(
            responseBytes: body, session: sessionID(of: request))
        var response = try JSONResponse.encoding(finished.outcome)
        response.setCookie(SessionCookie.cookie(for: finished.sessionID, secure: secureCookies))
        return response
    }

    private func authenticationOptions(
        _ request: Request, _ context: PasskeyRequestContext
    ) async throws -> Response {
        try limit(context)
        let options = try OptionsRequest.reading(try await Self.body(of: request))
        let username = try options.username.map { name throws(ServerError) in try Username(name) }
        let session = sessionID(of: request)
        return answer(
            try await service.beginAuthentication(username: username, session: session),
            cookie: session)
    }

    private func authenticationVerify(_ request: Request) async throws -> Response {
        let body = try await Self.bodyBytes(of: request)
        let finished = try await service.finishAuthentication(
            responseBytes: body, session: sessionID(of: request))
        var response = try JSONResponse.encoding(finished.outcome)
        response.setCookie(SessionCookie.cookie(for: finished.sessionID, secure: secureCookies))
        return response
    }

    /// The session ID the request's cookie carries, under this server's cookie name.
    private func sessionID(of request: Request) -> String? {
        SessionCookie.sessionID(of: request, secure: secureCookies)
    }

    /// Refuses the request when its client asked for options too often.
    private func limit(_ context: PasskeyRequestContext) throws(ServerError) {
        guard rateLimiter.allow(context.clientKey) else { throw .tooManyRequests }
    }

    /// The options as JSON, with the session's cookie when the request's cookie named another
    /// session or none: a session ID the server did not issue is replaced, never adopted.
    private func answer(_ begun: PasskeyService.Begun, cookie: String?) -> Response {
        var response = JSONResponse.text(begun.optionsJSON)
        if begun.sessionID != cookie {
            response.setCookie(SessionCookie.cookie(for: begun.sessionID, secure: secureCookies))
        }
        return response
    }

    /// The request's body as text: at most ``maximumBodySize`` bytes (a larger one is answered
    /// with 413) of valid UTF-8, checked on the bytes before anything decodes them (a decoder
    /// would turn invalid bytes into U+FFFD).
    ///
    /// The body as text, for the small requests the server reads itself.
    ///
    /// - Throws: as ``bodyBytes(of:)``.
    private static func body(of request: Request) async throws -> String {
        String(decoding: try await bodyBytes(of: request), as: UTF8.self)
    }

    /// The body's bytes, checked to be UTF-8: what the ceremony calls read, once, as sent.
    ///
    /// - Throws: ``ServerError`` `invalidRequest` for a body that is not UTF-8,
    ///   `contentTooLarge` (413) for one too large.
    private static func bodyBytes(of request: Request) async throws -> [UInt8] {
        var request = request
        let buffer: ByteBuffer
        do {
            buffer = try await request.collectBody(upTo: maximumBodySize)
        } catch is NIOTooManyBytesError {
            // Answered in the API's shape rather than as Hummingbird's empty 413.
            throw ServerError.contentTooLarge(limit: maximumBodySize)
        }
        let bytes = Array(buffer.readableBytesView)
        guard String(validating: bytes, as: UTF8.self) != nil else {
            throw ServerError.invalidRequest("the body is not UTF-8")
        }
        return bytes
    }
}
