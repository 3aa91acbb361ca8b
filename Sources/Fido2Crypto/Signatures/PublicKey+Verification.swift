extension PublicKey {
    /// Whether `signature` is a valid `algorithm` signature of `message` under this key.
    ///
    /// The digest is the algorithm's own (ES384 → SHA-384, RS512 → SHA-512, …). ECDSA signatures
    /// are DER (convert raw `r ‖ s` with ``ECDSASignature``); OpenSSL accepts only strict DER.
    /// PS256/384/512 require MGF1 with the same hash and a salt as long as the hash. RSA
    /// signatures must be exactly the modulus length.
    ///
    /// A signature that is malformed or does not verify gives `false`, never an error.
    ///
    /// - Throws: ``CryptoError/Code-swift.struct/unsupportedAlgorithm`` for algorithms this
    ///   library does not implement (ML-DSA, …); ``CryptoError/Code-swift.struct/algorithmKeyMismatch``
    ///   when the algorithm does not fit this key (ES256 with a P-384 key, RS256 with an EC key).
    @inlinable
    public func isValidSignature<S: Collection<UInt8>, M: Collection<UInt8>>(
        _ signature: S, for message: M, algorithm: COSEAlgorithm
    ) throws -> Bool {
        try ByteAccess.with(signature) { (signature) throws(CryptoError) in
            try ByteAccess.with(message) { (message) throws(CryptoError) in
                try isValidSignature(
                    signature: signature, first: message, second: nil, algorithm: algorithm)
            }
        }
    }

    /// Whether `signature` is valid for the concatenation `first ‖ second` (WebAuthn:
    /// authenticatorData ‖ clientDataHash) without building the concatenation: ECDSA and RSA
    /// hash the two pieces in turn. Pure EdDSA has no streaming interface in OpenSSL, so for
    /// EdDSA the pieces are copied into one temporary buffer (`withUnsafeTemporaryAllocation`:
    /// on the stack when small, as authenticatorData ‖ clientDataHash is; wiped after use).
    ///
    /// - Throws: as ``isValidSignature(_:for:algorithm:)``.
    @inlinable
    public func isValidSignature<S: Collection<UInt8>, A: Collection<UInt8>, B: Collection<UInt8>>(
        _ signature: S, for first: A, _ second: B, algorithm: COSEAlgorithm
    ) throws -> Bool {
        try ByteAccess.with(signature) { (signature) throws(CryptoError) in
            try ByteAccess.with(first) { (first) throws(CryptoError) in
                try ByteAccess.with(second) { (second) throws(CryptoError) in
                    try isValidSignature(
                        signature: signature, first: first, second: second, algorithm: algorithm)
                }
            }
        }
    }

    @usableFromInline
    func isValidSignature(
        signature: UnsafeRawBufferPointer, first: UnsafeRawBufferPointer,
        second: UnsafeRawBufferPointer?, algorithm: COSEAlgorithm
    ) throws(CryptoError) -> Bool {
        let scheme = try algorithm.requireScheme()
        guard algorithm.isCompatible(with: kind) else {
            throw CryptoError(
                .algorithmKeyMismatch, "\(algorithm) cannot be used with a \(kind) key",
                field: "alg")
        }
        return try SignatureEngine.verify(
            box, scheme: scheme, signature: signature,
            message: MessageParts(first: first, second: second))
    }
}
