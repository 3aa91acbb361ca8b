import COpenSSL

/// An incremental hash: feed bytes with ``update(_:)`` as they arrive, then ``finalize()``.
///
/// The context is non-copyable: it owns its OpenSSL `EVP_MD_CTX` and frees it when it goes out
/// of scope; `finalize()` consumes it, so it cannot be used after the digest has been taken.
public struct DigestContext: ~Copyable {
    /// The hash function this context computes.
    public let algorithm: DigestAlgorithm
    @usableFromInline let context: OpaquePointer
    @usableFromInline var failed = false

    /// Starts a hash with `algorithm`.
    ///
    /// - Throws: ``CryptoError/Code-swift.struct/openSSLFailure`` if OpenSSL cannot allocate or
    ///   initialise the context.
    public init(_ algorithm: DigestAlgorithm) throws {
        let md = try algorithm.messageDigest()
        guard let context = EVP_MD_CTX_new() else {
            throw CryptoError.openSSL("EVP_MD_CTX_new failed")
        }
        guard EVP_DigestInit_ex(context, md, nil) == 1 else {
            EVP_MD_CTX_free(context)
            throw CryptoError.openSSL("\(algorithm) initialisation failed")
        }
        self.algorithm = algorithm
        self.context = context
    }

    deinit { EVP_MD_CTX_free(context) }

    /// Adds `bytes` to the hash. A failure inside OpenSSL is remembered and reported by
    /// ``finalize()``.
    @inlinable
    public mutating func update<C: Collection<UInt8>>(_ bytes: C) {
        let context = self.context
        if !ByteAccess.with(bytes, { Self.feed(context, $0) }) { failed = true }
    }

    @usableFromInline
    static func feed(_ context: OpaquePointer, _ buffer: UnsafeRawBufferPointer) -> Bool {
        buffer.isEmpty || EVP_DigestUpdate(context, buffer.baseAddress, buffer.count) == 1
    }

    /// The digest of everything added so far; consumes the context.
    ///
    /// - Throws: ``CryptoError/Code-swift.struct/openSSLFailure`` if an update or the
    ///   finalisation failed inside OpenSSL.
    public consuming func finalize() throws -> [UInt8] {
        let count = algorithm.byteCount
        let context = self.context
        var ok = !failed
        let out = [UInt8](unsafeUninitializedCapacity: count) { buffer, initialized in
            var length: UInt32 = 0
            ok =
                ok && EVP_DigestFinal_ex(context, buffer.baseAddress, &length) == 1
                && Int(length) == count
            initialized = ok ? count : 0
        }
        guard ok else { throw CryptoError.openSSL("\(algorithm) finalisation failed") }
        return out
    }
}
