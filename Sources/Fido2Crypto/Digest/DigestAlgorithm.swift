import COpenSSL

/// A hash function: SHA-256, SHA-384 and SHA-512, and SHA-1 for verifying legacy data only.
///
/// One-shot digests (``hash(_:)``, ``withHash(of:_:)``) run OpenSSL's block functions on a stack
/// context, without an `EVP_MD_CTX` (see `digestPieces`). Where an `EVP_MD` is needed (HMAC,
/// ``DigestContext``, signature contexts), each algorithm's is fetched once per process and
/// cached: passing `EVP_sha256()` on every call would make OpenSSL look the provider up again
/// each time, which doubles the cost of hashing a 200-byte clientDataJSON.
public struct DigestAlgorithm: Hashable, Sendable, CustomStringConvertible {
    enum Kind: Hashable, Sendable {
        case sha1, sha256, sha384, sha512
    }

    let kind: Kind

    private init(_ kind: Kind) { self.kind = kind }

    /// SHA-1. Broken for collisions: only for verifying legacy signatures (COSE RS1 from old
    /// TPMs); never use it to sign.
    public static let sha1 = DigestAlgorithm(.sha1)
    /// SHA-256.
    public static let sha256 = DigestAlgorithm(.sha256)
    /// SHA-384.
    public static let sha384 = DigestAlgorithm(.sha384)
    /// SHA-512.
    public static let sha512 = DigestAlgorithm(.sha512)

    /// The length of the digest in bytes.
    public var byteCount: Int {
        switch kind {
        case .sha1: 20
        case .sha256: 32
        case .sha384: 48
        case .sha512: 64
        }
    }

    /// The algorithm's name as OpenSSL spells it (`"SHA2-256"`, …).
    var openSSLName: String {
        switch kind {
        case .sha1: "SHA1"
        case .sha256: "SHA2-256"
        case .sha384: "SHA2-384"
        case .sha512: "SHA2-512"
        }
    }

    /// The algorithm's usual name: `"SHA-256"`, ….
    public var description: String {
        switch kind {
        case .sha1: "SHA-1"
        case .sha256: "SHA-256"
        case .sha384: "SHA-384"
        case .sha512: "SHA-512"
        }
    }

    private static let sha1MD = OpenSSLHandle(EVP_MD_fetch(nil, "SHA1", nil))
    private static let sha256MD = OpenSSLHandle(EVP_MD_fetch(nil, "SHA2-256", nil))
    private static let sha384MD = OpenSSLHandle(EVP_MD_fetch(nil, "SHA2-384", nil))
    private static let sha512MD = OpenSSLHandle(EVP_MD_fetch(nil, "SHA2-512", nil))

    /// The cached `EVP_MD`.
    func messageDigest() throws(CryptoError) -> OpaquePointer {
        let handle: OpenSSLHandle?
        switch kind {
        case .sha1: handle = Self.sha1MD
        case .sha256: handle = Self.sha256MD
        case .sha384: handle = Self.sha384MD
        case .sha512: handle = Self.sha512MD
        }
        guard let handle else {
            throw .openSSL(.unsupportedAlgorithm, "OpenSSL cannot provide \(self)")
        }
        return handle.pointer
    }

    /// The digest of `bytes`, computed in one call.
    ///
    /// - Throws: ``CryptoError/Code-swift.struct/openSSLFailure`` if OpenSSL cannot hash (it
    ///   cannot allocate, or the default provider is missing).
    @inlinable
    public func hash<C: Collection<UInt8>>(_ bytes: C) throws(CryptoError) -> [UInt8] {
        try ByteAccess.with(bytes) { (buffer) throws(CryptoError) in try hash(buffer: buffer) }
    }

    @usableFromInline
    func hash(buffer input: UnsafeRawBufferPointer) throws(CryptoError) -> [UInt8] {
        let count = byteCount
        var ok = false
        let out = [UInt8](unsafeUninitializedCapacity: count) { buffer, initialized in
            ok = digestPieces(input, nil, into: buffer.baseAddress)
            initialized = ok ? count : 0
        }
        guard ok else { throw .openSSL("\(self) failed") }
        return out
    }

    /// The block-function kind `fido2_digest_pieces` takes.
    private var blockFunctionKind: Int32 {
        switch kind {
        case .sha1: 1
        case .sha256: 256
        case .sha384: 384
        case .sha512: 512
        }
    }

    /// Hashes `first ‖ second` into `output` (room for ``byteCount`` bytes) with OpenSSL's block
    /// functions, without an `EVP_MD_CTX` (why, and what it costs: docs/architecture.md, "One-shot
    /// digests without EVP").
    private func digestPieces(
        _ first: UnsafeRawBufferPointer, _ second: UnsafeRawBufferPointer?,
        into output: UnsafeMutablePointer<UInt8>?
    ) -> Bool {
        fido2_digest_pieces(
            blockFunctionKind, first.baseAddress, first.count, second?.baseAddress,
            second?.count ?? 0, output) == 1
    }

    /// Computes the digest of `bytes` into a stack buffer and passes it to `body`: no heap
    /// allocation at all, for hot paths that only need the digest briefly (a clientDataHash
    /// about to be signed or compared). The buffer is only valid inside `body`.
    ///
    /// - Throws: ``CryptoError/Code-swift.struct/openSSLFailure`` if OpenSSL cannot hash, or
    ///   whatever `body` throws.
    @inlinable
    public func withHash<C: Collection<UInt8>, R>(
        of bytes: C, _ body: (UnsafeRawBufferPointer) throws(CryptoError) -> R
    ) throws(CryptoError) -> R {
        try ByteAccess.with(bytes) { (input) throws(CryptoError) in
            try withUnsafeTemporaryAllocation(byteCount: 64, alignment: 1) {
                (buffer) throws(CryptoError) -> R in
                let output = UnsafeMutableRawBufferPointer(rebasing: buffer[..<byteCount])
                try hash(pieces: (input, nil), into: output)
                return try body(UnsafeRawBufferPointer(output))
            }
        }
    }

    /// The digest of the concatenation `first ‖ second`, without building the concatenation
    /// (for `authenticatorData ‖ clientDataHash`).
    ///
    /// - Throws: ``CryptoError/Code-swift.struct/openSSLFailure`` if OpenSSL cannot hash.
    @inlinable
    public func hash<A: Collection<UInt8>, B: Collection<UInt8>>(
        _ first: A, _ second: B
    ) throws(CryptoError) -> [UInt8] {
        try ByteAccess.with(first) { (first) throws(CryptoError) in
            try ByteAccess.with(second) { (second) throws(CryptoError) in
                try hash(first: first, second: second)
            }
        }
    }

    @usableFromInline
    func hash(
        first: UnsafeRawBufferPointer, second: UnsafeRawBufferPointer
    ) throws(CryptoError)
        -> [UInt8]
    {
        var out = [UInt8](repeating: 0, count: byteCount)
        try out.withMutableBytes { (buffer) throws(CryptoError) in
            try hash(pieces: (first, second), into: buffer)
        }
        return out
    }

    /// Writes the digest of the pieces into `output` (which must hold ``byteCount`` bytes).
    @usableFromInline
    func hash(
        pieces: (UnsafeRawBufferPointer, UnsafeRawBufferPointer?),
        into output: UnsafeMutableRawBufferPointer
    ) throws(CryptoError) {
        guard output.count >= byteCount else {
            throw CryptoError(.invalidLength, "digest output buffer too small")
        }
        guard
            digestPieces(
                pieces.0, pieces.1,
                into: output.baseAddress?.assumingMemoryBound(to: UInt8.self))
        else { throw .openSSL("\(self) failed") }
    }
}
