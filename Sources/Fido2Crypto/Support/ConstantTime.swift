import COpenSSL

/// Comparisons whose running time does not depend on where two secrets differ.
@usableFromInline
package enum ConstantTime {
    /// Whether `a` and `b` hold the same bytes. The time taken depends only on the lengths
    /// (which are not treated as secret: different lengths return `false` at once), never on
    /// the contents. Uses OpenSSL's `CRYPTO_memcmp`.
    @inlinable
    package static func equals<A: Collection<UInt8>, B: Collection<UInt8>>(_ a: A, _ b: B) -> Bool {
        ByteAccess.with(a) { left in ByteAccess.with(b) { right in equals(left, right) } }
    }

    @usableFromInline
    static func equals(_ left: UnsafeRawBufferPointer, _ right: UnsafeRawBufferPointer) -> Bool {
        guard left.count == right.count else { return false }
        guard left.count > 0, let l = left.baseAddress, let r = right.baseAddress else {
            return true
        }
        return CRYPTO_memcmp(l, r, left.count) == 0
    }
}
