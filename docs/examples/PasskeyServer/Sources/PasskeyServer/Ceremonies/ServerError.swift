import Fido2WebAuthn

/// Why the server did not do what a request asked: a refusal the client caused (answered with
/// 400, or 401, 404, 413, 415, 429 where HTTP has a status for it) or a failure of the server itself
/// (500). Either way the answer is `{"error": message, "code": code, "step": step}`.
///
/// A refusal by the library keeps the library's ``WebAuthnError`` code and step; the server's
/// own refusals use the codes below, or the library's code for the part of a step that the
/// library leaves to the server (`credentialExists` at §7.1 step 26, `credentialNotFound` and
/// `userHandleMismatch` at §7.2 step 6).
struct ServerError: Error, Sendable, CustomStringConvertible {
    /// Who is at fault.
    enum Kind: Sendable {
        /// The request or the response in it is refused (400).
        case refused
        /// The request needs a signed-in session (401).
        case unauthorized
        /// The request names something the account does not have (404).
        case notFound
        /// The request body is larger than the server takes (413).
        case contentTooLarge
        /// The request body is not JSON by its `Content-Type` (415).
        case unsupportedMediaType
        /// The client asked too often (429).
        case tooManyRequests
        /// The server failed (500).
        case failed
    }

    /// Who is at fault.
    let kind: Kind
    /// What failed, as a stable name: a ``WebAuthnError/Code`` or one of the server's codes.
    let code: String
    /// What failed, in words, for people.
    let message: String
    /// The step of the WebAuthn procedure that failed (`§7.2 step 11`), if any.
    let step: VerificationStep?
    /// For a sign-in whose credential ID no account has, the `signalUnknownCredential`
    /// payload (``PasskeyService/unknownCredential(_:relyingParty:)``); nil otherwise.
    var unknownCredential: SignalPayloads.UnknownCredential?

    /// The library's refusal, as it came.
    init(_ error: WebAuthnError) {
        self.kind = .refused
        self.code = error.code.description
        self.message = (error.field.map { "\($0): " } ?? "") + error.reason
        self.step = error.step
    }

    private init(kind: Kind, code: String, message: String, step: VerificationStep? = nil) {
        self.kind = kind
        self.code = code
        self.message = message
        self.step = step
    }

    /// The session has no state for the ceremony: no options were asked for, the state was
    /// used already, or it expired and was pruned.
    static func noCeremony(_ kind: CeremonyKind) -> ServerError {
        ServerError(
            kind: .refused, code: "noCeremony",
            message:
                "no \(kind.rawValue) is in progress for this session: ask for options first (a state is used once)",
            step: kind.stateStep)
    }

    /// The request body is not what the endpoint takes.
    static func invalidRequest(_ message: String) -> ServerError {
        ServerError(kind: .refused, code: "invalidRequest", message: message)
    }

    /// A sign-up names a username an account has already: the one thing a sign-up says about
    /// other accounts.
    static let usernameUnavailable = ServerError(
        kind: .refused, code: "usernameUnavailable", message: "this username is not available")

    /// The request needs a signed-in session and the session has none (or there is none).
    static let notSignedIn = ServerError(
        kind: .unauthorized, code: "notSignedIn", message: "sign in first")

    /// The signed-in account has no passkey with this credential ID.
    static let passkeyNotFound = ServerError(
        kind: .notFound, code: "passkeyNotFound", message: "the account has no such passkey")

    /// Deleting the account's last passkey would lock the user out.
    static let lastPasskey = ServerError(
        kind: .refused, code: "lastPasskey",
        message: "the last passkey of an account cannot be deleted")

    /// Another sign-in with the same passkey was stored between this one's look-up and its
    /// update (the stored counter is no longer the one checked): a refusal, not a failure.
    static let credentialChanged = ServerError(
        kind: .refused, code: "credentialChanged",
        message: "the passkey was used by another sign-in at the same moment: sign in again",
        step: .authentication(22))

    /// The credential ID is registered already (§7.1 step 26, the server's part).
    static let credentialExists = ServerError(
        WebAuthnError(
            .credentialExists, "the credential ID is registered already", field: "rawId",
            step: .registration(26)))

    /// A POST whose body is not declared `application/json`: a cross-site form or a
    /// `text/plain` fetch, which a browser sends without asking the server first.
    static let unsupportedMediaType = ServerError(
        kind: .unsupportedMediaType, code: "unsupportedMediaType",
        message: "the body must be JSON, sent with Content-Type: application/json")

    /// The request body is over the limit (`limit` bytes).
    static func contentTooLarge(limit: Int) -> ServerError {
        ServerError(
            kind: .contentTooLarge, code: "contentTooLarge",
            message: "the body has more than \(limit) bytes")
    }

    /// The client asked for options more often than the rate limit allows.
    static let tooManyRequests = ServerError(
        kind: .tooManyRequests, code: "tooManyRequests",
        message: "too many requests from this address: try again in a minute")

    /// The database failed.
    static func storageFailure(_ error: any Error) -> ServerError {
        ServerError(kind: .failed, code: "storageFailure", message: "database: \(error)")
    }

    /// Something the server stored cannot be read back (a state or a record): `error` says why.
    static func corruptData(_ what: String, _ error: any Error) -> ServerError {
        corruptData(what, "\(error)")
    }

    /// Something the server stored cannot be read back, or is missing: `reason` says why.
    static func corruptData(_ what: String, _ reason: String) -> ServerError {
        ServerError(kind: .failed, code: "corruptData", message: "\(what): \(reason)")
    }

    /// Anything thrown while serving a request, as the server answers it: a ``ServerError``
    /// as it is, the library's ``WebAuthnError`` as a refusal, anything else as a failure.
    static func wrapping(_ error: any Error) -> ServerError {
        switch error {
        case let error as ServerError: error
        case let error as WebAuthnError: ServerError(error)
        default: ServerError(kind: .failed, code: "internalError", message: "\(error)")
        }
    }

    /// `[step: ]code: message`.
    var description: String {
        (step.map { "\($0): " } ?? "") + "\(code): \(message)"
    }
}
