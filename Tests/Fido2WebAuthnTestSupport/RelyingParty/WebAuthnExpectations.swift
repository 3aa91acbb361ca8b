import Fido2Authenticator
import Fido2Vectors
import Fido2WebAuthn
import Fido2WebAuthnWire
import Testing

/// Expects `body` to throw a `WebAuthnError` with `code`.
public func expectCode(
    _ code: WebAuthnError.Code, sourceLocation: SourceLocation = #_sourceLocation,
    _ body: () throws -> Void
) {
    do {
        try body()
        Issue.record("expected \(code), got success", sourceLocation: sourceLocation)
    } catch let error as WebAuthnError {
        #expect(error.code == code, "\(error)", sourceLocation: sourceLocation)
    } catch {
        Issue.record("expected WebAuthnError \(code), got \(error)", sourceLocation: sourceLocation)
    }
}

/// Expects `body` to throw an `AuthenticatorError` (the software authenticator's, its stores' and
/// PRF's) with `code`, and returns it (nil when `body` succeeds or throws something else, which
/// is recorded as an issue).
@discardableResult
public func expectAuthenticatorError(
    _ code: AuthenticatorError.Code, sourceLocation: SourceLocation = #_sourceLocation,
    _ body: () throws -> Void
) -> AuthenticatorError? {
    do {
        try body()
        Issue.record("expected \(code), got success", sourceLocation: sourceLocation)
    } catch let error as AuthenticatorError {
        #expect(error.code == code, "\(error)", sourceLocation: sourceLocation)
        return error
    } catch {
        Issue.record(
            "expected AuthenticatorError \(code), got \(error)", sourceLocation: sourceLocation)
    }
    return nil
}

/// The error `body` throws, as a `WebAuthnError`; records an issue when it succeeds.
public func webAuthnError<T>(
    _ body: () throws -> T, sourceLocation: SourceLocation = #_sourceLocation
) -> WebAuthnError? {
    do {
        _ = try body()
        Issue.record("expected a WebAuthnError, the call succeeded", sourceLocation: sourceLocation)
        return nil
    } catch let error as WebAuthnError {
        return error
    } catch {
        Issue.record("expected a WebAuthnError, got \(error)", sourceLocation: sourceLocation)
        return nil
    }
}

/// Expects `body` to fail with `code` at `step`, and the step tables of `VerificationStep` to
/// list that code for that step (so the tables the documentation renders cannot drift from what
/// the relying party does).
public func expectFailure<T>(
    _ code: WebAuthnError.Code, step: VerificationStep,
    sourceLocation: SourceLocation = #_sourceLocation, _ body: () throws -> T
) {
    guard let error = webAuthnError(body, sourceLocation: sourceLocation) else { return }
    #expect(error.code == code, "\(error)", sourceLocation: sourceLocation)
    #expect(error.step == step, "\(error)", sourceLocation: sourceLocation)
    expectListedInTheStepTables(error, sourceLocation: sourceLocation)
}

/// Expects a ceremony error's step and code to be a row of `VerificationStep`'s tables.
public func expectListedInTheStepTables(
    _ error: WebAuthnError, sourceLocation: SourceLocation = #_sourceLocation
) {
    guard let step = error.step else { return }
    #expect(
        step.lists(error.code), "the step tables do not list \(error.code) at \(step)",
        sourceLocation: sourceLocation)
}
