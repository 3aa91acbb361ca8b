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
            throw CryptoError.openSSL(.unsupportedAlgorithm, "OpenSSL cannot provide \(self)")
        }
        return handle.pointer
    }

    /// The digest of `bytes`, computed in one call. One-shot digests cannot fail: they run
    /// OpenSSL's block functions on a stack context, which allocate nothing.
    @inlinable
    public func hash<C: Collection<UInt8>>(_ bytes: C) -> [UInt8] {
        ByteAccess.with(bytes) { (buffer) in hash(buffer: buffer) }
    }

    @usableFromInline
    func hash(buffer input: UnsafeRawBufferPointer) -> [UInt8] {
        [UInt8](unsafeUninitializedCapacity: byteCount) { buffer, initialized in
            digest(input, nil, into: buffer.baseAddress)
            initialized = byteCount
        }
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
    /// digests without EVP"). `SHA*_Init`, `_Update` and `_Final` cannot fail on a stack
    /// context and a valid output pointer, so a failure is a broken invariant, not an input
    /// error.
    private func digest(
        _ first: UnsafeRawBufferPointer, _ second: UnsafeRawBufferPointer?,
        into output: UnsafeMutablePointer<UInt8>?
    ) {
        let ok = fido2_digest_pieces(
            blockFunctionKind, first.baseAddress, first.count, second?.baseAddress,
            second?.count ?? 0, output)
        precondition(ok == 1 && output != nil, "OpenSSL's \(self) block functions failed")
    }

    /// Computes the digest of `bytes` into a stack buffer and passes it to `body`: no heap
    /// allocation at all, for hot paths that only need the digest briefly (a clientDataHash
    /// about to be signed or compared). The buffer is only valid inside `body`.
    ///
    /// - Throws: whatever `body` throws; hashing itself cannot fail.
    @inlinable
    public func withHash<C: Collection<UInt8>, R, E: Error>(
        of bytes: C, _ body: (UnsafeRawBufferPointer) throws(E) -> R
    ) throws(E) -> R {
        try ByteAccess.with(bytes) { (input) throws(E) -> R in
            try withUnsafeTemporaryAllocation(byteCount: 64, alignment: 1) {
                (buffer) throws(E) -> R in
                let output = UnsafeMutableRawBufferPointer(rebasing: buffer[..<byteCount])
                hash(pieces: (input, nil), into: output)
                return try body(UnsafeRawBufferPointer(output))
            }
        }
    }

    /// The digest of the concatenation `first ‖ second`, without building the concatenation
    /// (for `authenticatorData ‖ clientDataHash`).
    @inlinable
    public func hash<A: Collection<UInt8>, B: Collection<UInt8>>(
        _ first: A, _ second: B
    ) -> [UInt8] {
        ByteAccess.with(first) { (first: UnsafeRawBufferPointer) -> [UInt8] in
            ByteAccess.with(second) { (second: UnsafeRawBufferPointer) -> [UInt8] in
                hash(first: first, second: second)
            }
        }
    }

    @usableFromInline
    func hash(first: UnsafeRawBufferPointer, second: UnsafeRawBufferPointer) -> [UInt8] {
        var out = [UInt8](repeating: 0, count: byteCount)
        out.withMutableBytes { (buffer: UnsafeMutableRawBufferPointer) -> Void in
            hash(pieces: (first, second), into: buffer)
        }
        return out
    }

    /// Writes the digest of the pieces into `output`, which must hold ``byteCount`` bytes
    /// (every caller passes a buffer sized by ``byteCount``).
    @usableFromInline
    func hash(
        pieces: (UnsafeRawBufferPointer, UnsafeRawBufferPointer?),
        into output: UnsafeMutableRawBufferPointer
    ) {
        precondition(output.count >= byteCount, "digest output buffer too small")
        digest(pieces.0, pieces.1, into: output.baseAddress?.assumingMemoryBound(to: UInt8.self))
    }
}
