import Fido2CBOR
import Fido2Crypto
import Fido2Encoding

/// Runs CBOR reads, turning a ``CBORError`` into ``WebAuthnError`` `malformedCBOR` (or
/// `truncated` when the input simply ends early) that names `field` and carries the CBOR
/// offset shifted by `base` (where the CBOR starts in the larger structure).
func readingCBOR<Result>(
    _ field: @autoclosure () -> String, base: Int = 0,
    _ body: () throws -> Result
) throws(WebAuthnError) -> Result {
    do {
        return try body()
    } catch {
        throw WebAuthnError(cbor: error, field: field(), base: base)
    }
}

extension WebAuthnError {
    /// The WebAuthn error for a failure of the CBOR reader (a ``CBORError``, the only error
    /// it throws) at `base + error.offset`.
    package init(cbor error: any Error, field: String?, base: Int = 0) {
        guard let error = error as? CBORError else {
            self.init(.malformedCBOR, "CBOR: \(error)", field: field, offset: base)
            return
        }
        let code: Code =
            error.code == .truncated || error.code == .lengthExceedsInput
            ? .truncated : .malformedCBOR
        self.init(code, "CBOR: \(error)", field: field, offset: base + error.offset)
    }

    /// `error` as a WebAuthn error: itself when it is one (what every API of this module
    /// throws), mapped when it comes from a module below (CBOR, crypto, encoding), and
    /// otherwise `invalidValue` with its description.
    package init(wrapping error: any Error) {
        switch error {
        case let error as WebAuthnError: self = error
        case let error as CBORError: self.init(cbor: error, field: nil)
        case let error as CryptoError: self.init(crypto: error, .invalidValue)
        case let error as Fido2EncodingError:
            self.init(.invalidValue, error.description, offset: error.offset)
        default: self.init(.invalidValue, "\(error)")
        }
    }

    /// The WebAuthn error for a failure of `Fido2Crypto` (a ``CryptoError``, the only error it
    /// throws), reported as `code` unless it is an algorithm this library does not implement.
    package init(crypto error: any Error, _ code: Code, field: String? = nil) {
        guard let error = error as? CryptoError else {
            self.init(code, "\(error)", field: field)
            return
        }
        let mapped: Code = error.code == .unsupportedAlgorithm ? .unsupportedAlgorithm : code
        self.init(mapped, error.description, field: field ?? error.field)
    }
}

/// The CBOR text-string key spelled `name`, or nil when `key` is not UTF-8.
func cborKeyName(_ key: ArraySlice<UInt8>) -> String {
    String(decoding: key, as: UTF8.self)
}
