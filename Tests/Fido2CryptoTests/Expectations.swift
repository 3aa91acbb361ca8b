import Fido2Crypto
import Testing

/// Expects `body` to throw a ``CryptoError`` with `code` (and `field`, when given).
func expectCryptoError<R>(
    _ code: CryptoError.Code, field: String? = nil,
    sourceLocation: SourceLocation = #_sourceLocation, _ body: () throws -> R
) {
    do {
        _ = try body()
        Issue.record("expected \(code), nothing was thrown", sourceLocation: sourceLocation)
    } catch let error as CryptoError {
        #expect(error.code == code, "\(error)", sourceLocation: sourceLocation)
        if let field {
            #expect(error.field == field, "\(error)", sourceLocation: sourceLocation)
        }
    } catch {
        Issue.record("expected CryptoError \(code), got \(error)", sourceLocation: sourceLocation)
    }
}
