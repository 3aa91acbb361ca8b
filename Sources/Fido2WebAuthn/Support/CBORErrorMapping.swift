import Fido2CBOR
import Fido2Crypto

/// Runs CBOR reads, turning a ``CBORError`` into ``WebAuthnError`` `malformedCBOR` (or
/// `truncated` when the input simply ends early) that names `field` and carries the CBOR
/// offset shifted by `base` (where the CBOR starts in the larger structure).
func readingCBOR<Result>(
    _ field: @autoclosure () -> String, base: Int = 0,
    _ body: () throws(CBORError) -> Result
) throws(WebAuthnError) -> Result {
    do {
        return try body()
    } catch {
        throw WebAuthnError(cbor: error, field: field(), base: base)
    }
}

extension WebAuthnError {
    /// The WebAuthn error for a CBOR failure at `base + error.offset`.
    package init(cbor error: CBORError, field: String?, base: Int = 0) {
        let code: Code =
            error.code == .truncated || error.code == .lengthExceedsInput
            ? .truncated : .malformedCBOR
        self.init(code, "CBOR: \(error)", field: field, offset: base + error.offset)
    }

    /// The WebAuthn error for a crypto failure.
    package init(crypto error: CryptoError, _ code: Code, field: String? = nil) {
        let mapped: Code = error.code == .unsupportedAlgorithm ? .unsupportedAlgorithm : code
        self.init(mapped, error.description, field: field ?? error.field)
    }
}

/// The CBOR text-string key spelled `name`, or nil when `key` is not UTF-8.
func cborKeyName(_ key: ArraySlice<UInt8>) -> String {
    String(decoding: key, as: UTF8.self)
}
