/// Contiguous access to caller-supplied bytes without copying when the collection already has
/// contiguous storage (`[UInt8]`, `ArraySlice<UInt8>`, unsafe buffers); any other collection is
/// copied once into an array.
///
/// Public generic entry points are `@inlinable` shims over this, so the generic part is
/// specialised in the caller's module and the work happens in non-generic code: an
/// unspecialised generic would look up type metadata at run time on every call, which costs
/// more than hashing a clientDataJSON.
@usableFromInline
enum ByteAccess {
    @inlinable
    static func with<C: Collection<UInt8>, R>(
        _ bytes: C, _ body: (UnsafeRawBufferPointer) -> R
    ) -> R {
        if let result = bytes.withContiguousStorageIfAvailable({
            body(UnsafeRawBufferPointer($0))
        }) {
            return result
        }
        return Array(bytes).withUnsafeBytes(body)
    }

    /// Like ``with(_:_:)`` with a body that throws.
    @inlinable
    static func with<C: Collection<UInt8>, R, E: Error>(
        _ bytes: C, _ body: (UnsafeRawBufferPointer) throws(E) -> R
    ) throws(E) -> R {
        let result: Result<R, E> = with(bytes) { buffer in
            do throws(E) {
                return .success(try body(buffer))
            } catch {
                return .failure(error)
            }
        }
        return try result.get()
    }
}

extension Array where Element == UInt8 {
    /// `withUnsafeMutableBytes` for a body that throws `E` (the standard library's version is
    /// `rethrows`, which loses the typed error).
    mutating func withMutableBytes<R, E: Error>(
        _ body: (UnsafeMutableRawBufferPointer) throws(E) -> R
    ) throws(E) -> R {
        let result: Result<R, E> = withUnsafeMutableBytes { buffer in
            do throws(E) {
                return .success(try body(buffer))
            } catch {
                return .failure(error)
            }
        }
        return try result.get()
    }
}
