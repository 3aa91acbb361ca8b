/// The signed bytes, in one or two pieces (authenticatorData and clientDataHash), never
/// concatenated for hashing.
struct MessageParts {
    let first: UnsafeRawBufferPointer
    let second: UnsafeRawBufferPointer?

    /// The total length, or nil if it would overflow.
    var totalCount: Int? {
        let (sum, overflow) = first.count.addingReportingOverflow(second?.count ?? 0)
        return overflow ? nil : sum
    }

    /// Hashes the pieces with `digest` into `output`.
    func hash(
        _ digest: DigestAlgorithm, into output: UnsafeMutableRawBufferPointer
    )
        throws(CryptoError)
    {
        digest.hash(pieces: (first, second), into: output)
    }

    /// Runs `body` with the pieces as one contiguous buffer: the first piece itself when there
    /// is no second, else a temporary copy (`withUnsafeTemporaryAllocation`, on the stack when
    /// small) that is wiped afterwards. Only pure EdDSA needs this: OpenSSL's EdDSA is one-shot.
    func withContiguous<R>(
        _ body: (UnsafeRawBufferPointer) throws(CryptoError) -> R
    )
        throws(CryptoError) -> R
    {
        guard let second, second.count > 0 else { return try body(first) }
        guard let total = totalCount else {
            throw CryptoError(.invalidLength, "message too long")
        }
        return try withUnsafeTemporaryAllocation(byteCount: total, alignment: 1) {
            (buffer) throws(CryptoError) -> R in
            if let target = buffer.baseAddress {
                if let source = first.baseAddress {
                    target.copyMemory(from: source, byteCount: first.count)
                }
                if let source = second.baseAddress {
                    (target + first.count).copyMemory(from: source, byteCount: second.count)
                }
            }
            defer { SecureBytes.wipe(buffer) }
            return try body(UnsafeRawBufferPointer(buffer))
        }
    }
}
