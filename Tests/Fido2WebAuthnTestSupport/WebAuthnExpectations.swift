import Fido2WebAuthn
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

/// Expects `body` to fail with `code` at `step`.
public func expectFailure<T>(
    _ code: WebAuthnError.Code, step: String, sourceLocation: SourceLocation = #_sourceLocation,
    _ body: () throws -> T
) {
    guard let error = webAuthnError(body, sourceLocation: sourceLocation) else { return }
    #expect(error.code == code, "\(error)", sourceLocation: sourceLocation)
    #expect(error.step == step, "\(error)", sourceLocation: sourceLocation)
}
