/// Where random bytes come from. Production code uses ``SystemRandomSource`` (OpenSSL's
/// `RAND_bytes`); tests and vector generators inject a seeded source (an HMAC_DRBG) so that
/// everything drawn from it (keys, challenges, credential IDs) is reproducible.
///
/// Conforming types must be safe to share across tasks.
public protocol RandomSource: Sendable {
    /// Fills `buffer` with random bytes.
    ///
    /// - Throws: ``CryptoError/Code-swift.struct/randomGenerationFailed`` when no bytes can be
    ///   produced.
    func fill(_ buffer: UnsafeMutableRawBufferPointer) throws
}

extension RandomSource {
    /// `count` random bytes.
    ///
    /// - Throws: ``CryptoError/Code-swift.struct/invalidArgument`` for a negative count;
    ///   ``CryptoError/Code-swift.struct/randomGenerationFailed`` when the source fails.
    public func bytes(count: Int) throws -> [UInt8] {
        guard count >= 0 else {
            throw CryptoError(.invalidArgument, "negative random byte count \(count)")
        }
        var out = [UInt8](repeating: 0, count: count)
        try out.withMutableBytes { (buffer: UnsafeMutableRawBufferPointer) throws -> Void in
            try fill(buffer)
        }
        return out
    }
}
