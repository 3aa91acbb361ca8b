import COpenSSL

extension PrivateKey {
    /// The ECDH shared secret with `peer` (SEC 1 §3.3.1): the x-coordinate of this key times
    /// the peer's point, as many bytes as the curve's coordinates. CTAP2's PIN/UV auth
    /// protocols derive their keys from it.
    ///
    /// - Throws: ``CryptoError/Code-swift.struct/algorithmKeyMismatch`` unless both keys are EC
    ///   keys on the same curve; ``CryptoError/Code-swift.struct/openSSLFailure`` if OpenSSL
    ///   cannot derive (the peer point is validated when the peer key is made).
    public func sharedSecret(with peer: PublicKey) throws -> [UInt8] {
        guard kind.isECDSA, peer.kind == kind, let length = kind.coordinateByteCount else {
            throw CryptoError(
                .algorithmKeyMismatch,
                "ECDH needs two EC keys on one curve, not \(kind) and \(peer.kind)")
        }
        let peerKey = try peer.box.pointer
        guard let context = EVP_PKEY_CTX_new_from_pkey(nil, try box.pointer, nil) else {
            throw CryptoError.openSSL("EVP_PKEY_CTX_new_from_pkey failed")
        }
        defer { EVP_PKEY_CTX_free(context) }
        guard EVP_PKEY_derive_init(context) == 1 else {
            throw CryptoError.openSSL("ECDH set-up failed")
        }
        // Derivation keeps a reference to the peer key; `peer` outlives this call anyway.
        let peerSet = withExtendedLifetime(peer) {
            EVP_PKEY_derive_set_peer(context, peerKey)
        }
        guard peerSet == 1 else { throw CryptoError.openSSL("ECDH peer key rejected") }
        var secret = [UInt8](repeating: 0, count: length)
        var written = length
        let status = secret.withUnsafeMutableBytes {
            EVP_PKEY_derive(context, $0.baseAddress?.assumingMemoryBound(to: UInt8.self), &written)
        }
        guard status == 1, written == length else {
            throw CryptoError.openSSL("ECDH derivation failed")
        }
        return secret
    }
}
