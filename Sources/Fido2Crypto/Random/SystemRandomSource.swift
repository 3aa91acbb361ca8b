import COpenSSL

/// Cryptographically secure random bytes from OpenSSL's `RAND_bytes` (its DRBG seeded from the
/// operating system). The source for everything in production.
public struct SystemRandomSource: RandomSource {
    /// Makes the source; it has no state of its own.
    public init() {}

    /// Fills `buffer` from `RAND_bytes`.
    ///
    /// - Throws: ``CryptoError/Code-swift.struct/randomGenerationFailed`` if OpenSSL's DRBG
    ///   cannot produce output (it could not be seeded).
    public func fill(_ buffer: UnsafeMutableRawBufferPointer) throws {
        var offset = 0
        // RAND_bytes takes an Int32 count; large requests go in chunks.
        while offset < buffer.count {
            let chunk = min(buffer.count - offset, 1 << 20)
            guard let base = buffer.baseAddress,
                RAND_bytes(
                    base.advanced(by: offset).assumingMemoryBound(to: UInt8.self), Int32(chunk))
                    == 1
            else { throw CryptoError.openSSL(.randomGenerationFailed, "RAND_bytes failed") }
            offset += chunk
        }
    }
}
