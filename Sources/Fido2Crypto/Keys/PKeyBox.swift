import COpenSSL

/// Owns one `EVP_PKEY` and frees it in `deinit`; the private backing of ``PublicKey`` and
/// ``PrivateKey``.
///
/// The key is never modified after the box is made, and OpenSSL 3 allows an `EVP_PKEY` to be
/// used by many threads at once as long as nobody modifies it; every operation takes its own
/// `EVP_PKEY_CTX` (from ``contexts``), so sharing the box across tasks is safe.
final class PKeyBox: @unchecked Sendable {
    let pointer: OpaquePointer
    let kind: KeyKind
    /// Set-up sign/verify contexts for this key, tagged by operation, padding and digest.
    let contexts = ContextPool()

    /// Takes ownership of `pointer`.
    init(taking pointer: OpaquePointer, kind: KeyKind) {
        self.pointer = pointer
        self.kind = kind
    }

    deinit { EVP_PKEY_free(pointer) }

    /// Takes ownership of `pointer` after working out its kind; frees it and throws when the
    /// kind is not supported or (for RSA) its size is outside `allowedRSABits`.
    static func adopt(
        _ pointer: OpaquePointer, allowedRSABits: ClosedRange<Int>
    ) throws(CryptoError)
        -> PKeyBox
    {
        do throws(CryptoError) {
            let kind = try KeyInspection.kind(of: pointer)
            if let bits = kind.modulusBits, !allowedRSABits.contains(bits) {
                throw CryptoError(
                    .keySizeNotAllowed,
                    "RSA modulus of \(bits) bits is outside \(allowedRSABits.lowerBound)...\(allowedRSABits.upperBound)"
                )
            }
            return PKeyBox(taking: pointer, kind: kind)
        } catch {
            EVP_PKEY_free(pointer)
            throw error
        }
    }
}
