extension PrivateKey {
    /// An `algorithm` signature of `message`.
    ///
    /// ECDSA signatures are DER; `nonce` chooses OpenSSL's random k (``ECDSANonce/random``, the
    /// default) or RFC 6979 (``ECDSANonce/deterministic``). PSS signatures have OpenSSL's random
    /// salt (of the hash's length). RSASSA-PKCS1-v1_5 and pure EdDSA are deterministic by
    /// construction.
    ///
    /// - Throws: ``CryptoError/Code-swift.struct/unsupportedAlgorithm`` for unknown algorithms
    ///   and for RS1 (verification only); ``CryptoError/Code-swift.struct/algorithmKeyMismatch``
    ///   when the algorithm does not fit this key; ``CryptoError/Code-swift.struct/openSSLFailure``
    ///   if OpenSSL fails.
    @inlinable
    public func signature<M: Collection<UInt8>>(
        for message: M, algorithm: COSEAlgorithm, nonce: ECDSANonce = .random
    ) throws -> [UInt8] {
        try ByteAccess.with(message) { (message) throws(CryptoError) in
            try signature(first: message, second: nil, algorithm: algorithm, nonce: nonce)
        }
    }

    /// An `algorithm` signature of `first ‖ second` (authenticatorData ‖ clientDataHash)
    /// without building the concatenation (EdDSA copies into a temporary buffer; see
    /// ``PublicKey/isValidSignature(_:for:_:algorithm:)``).
    ///
    /// - Throws: as ``signature(for:algorithm:nonce:)``.
    @inlinable
    public func signature<A: Collection<UInt8>, B: Collection<UInt8>>(
        for first: A, _ second: B, algorithm: COSEAlgorithm, nonce: ECDSANonce = .random
    ) throws -> [UInt8] {
        try ByteAccess.with(first) { (first) throws(CryptoError) in
            try ByteAccess.with(second) { (second) throws(CryptoError) in
                try signature(first: first, second: second, algorithm: algorithm, nonce: nonce)
            }
        }
    }

    @usableFromInline
    func signature(
        first: UnsafeRawBufferPointer, second: UnsafeRawBufferPointer?, algorithm: COSEAlgorithm,
        nonce: ECDSANonce
    ) throws(CryptoError) -> [UInt8] {
        let scheme = try algorithm.requireScheme()
        guard algorithm.isAllowedForSigning else {
            throw CryptoError(
                .unsupportedAlgorithm, "\(algorithm) is for verifying legacy data only",
                field: "alg")
        }
        guard algorithm.isCompatible(with: kind) else {
            throw CryptoError(
                .algorithmKeyMismatch, "\(algorithm) cannot be used with a \(kind) key",
                field: "alg")
        }
        return try SignatureEngine.sign(
            self, scheme: scheme, message: MessageParts(first: first, second: second), nonce: nonce)
    }

    /// The first RFC 6979 nonce for a message digest (tests against RFC 6979 appendix A only).
    func rfc6979FirstNonce(
        messageDigest: [UInt8], digest: DigestAlgorithm
    ) throws(CryptoError)
        -> [UInt8]
    {
        try ByteAccess.with(messageDigest) { (hash) throws(CryptoError) in
            try DeterministicECDSA.firstNonce(box, messageDigest: hash, digest: digest)
        }
    }
}
