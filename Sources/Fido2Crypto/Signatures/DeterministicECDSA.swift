import COpenSSL

/// ECDSA with RFC 6979 deterministic nonces, built from OpenSSL primitives.
///
/// OpenSSL 3.0 has no deterministic ECDSA, so the nonce k comes from ``RFC6979Nonces`` (HMAC
/// with the algorithm's hash, on OpenSSL's `EVP_MAC`), and the signature from OpenSSL `EC`/`BN`
/// operations: R = k·G with `EC_POINT_mul` (OpenSSL uses its constant-time ladder for secret
/// scalars times the generator), r = x(R) mod n, k⁻¹ by a constant-time modular exponentiation
/// (k^(n−2) mod n, `BN_mod_exp_mont_consttime`), s = k⁻¹·(e + r·d) mod n with Montgomery
/// multiplications. There is no hand-written field arithmetic. k and d carry
/// `BN_FLG_CONSTTIME`; secret byte buffers are wiped.
///
/// The output is plain RFC 6979: s is not normalised to the low half (the W3C WebAuthn vectors
/// contain high-s signatures and are reproduced byte for byte).
enum DeterministicECDSA {
    /// A DER signature of the message whose `digest` hash is `messageDigest`.
    static func sign(
        _ box: PKeyBox, messageDigest: UnsafeRawBufferPointer, digest: DigestAlgorithm
    )
        throws(CryptoError) -> [UInt8]
    {
        let support = try ECCurveSupport.forKind(box.kind)
        let scalar = try privateScalar(box)
        defer { BN_clear_free(scalar) }
        guard let context = BN_CTX_secure_new() else {
            throw CryptoError.openSSL("BN_CTX_new failed")
        }
        defer { BN_CTX_free(context) }
        let e = try messageRepresentative(messageDigest, support: support)
        defer { BN_free(e) }
        var nonces = try RFC6979Nonces.make(
            scalar: scalar, messageDigest: messageDigest, digest: digest, support: support)
        // Each candidate that is out of range or gives r = 0 or s = 0 moves to the next k
        // (RFC 6979 §3.2 step h.3); this practically never happens, so the loop is bounded.
        for _ in 0..<64 {
            let k = try nonces.next()
            defer { BN_clear_free(k) }
            if let signature = try signature(
                k: k, scalar: scalar, e: e, support: support, context: context)
            {
                return signature
            }
        }
        throw CryptoError(.openSSLFailure, "no usable RFC 6979 nonce found")
    }

    /// The first RFC 6979 nonce k for a message digest, big-endian and padded to the order's
    /// byte length. For tests against RFC 6979 appendix A; never expose k in real use.
    static func firstNonce(
        _ box: PKeyBox, messageDigest: UnsafeRawBufferPointer, digest: DigestAlgorithm
    ) throws(CryptoError) -> [UInt8] {
        let support = try ECCurveSupport.forKind(box.kind)
        let scalar = try privateScalar(box)
        defer { BN_clear_free(scalar) }
        var nonces = try RFC6979Nonces.make(
            scalar: scalar, messageDigest: messageDigest, digest: digest, support: support)
        let k = try nonces.next()
        defer { BN_clear_free(k) }
        return try BigNumber.bytes(of: k, width: (support.orderBitCount + 7) / 8)
    }

    /// The private scalar d of an EC key as a new constant-time `BIGNUM` (caller clears it).
    private static func privateScalar(_ box: PKeyBox) throws(CryptoError) -> OpaquePointer {
        var scalar: OpaquePointer?
        guard try EVP_PKEY_get_bn_param(box.pointer, "priv", &scalar) == 1, let scalar else {
            throw CryptoError.openSSL("EC private scalar unavailable")
        }
        BN_set_flags(scalar, BN_FLG_CONSTTIME)
        return scalar
    }

    /// e = bits2int(H(m)) mod n (the ECDSA message representative, reduced).
    private static func messageRepresentative(
        _ messageDigest: UnsafeRawBufferPointer, support: ECCurveSupport
    ) throws(CryptoError) -> OpaquePointer {
        let e = try RFC6979Nonces.bitsToInteger(messageDigest, orderBitCount: support.orderBitCount)
        if BN_cmp(e, support.order) >= 0 {
            guard BN_sub(e, e, support.order) == 1 else {
                BN_free(e)
                throw CryptoError.openSSL("BN_sub failed")
            }
        }
        return e
    }

    /// The DER signature for nonce k, or nil when r or s is zero (then the next k is tried).
    private static func signature(
        k: OpaquePointer, scalar: OpaquePointer, e: OpaquePointer, support: ECCurveSupport,
        context: OpaquePointer
    ) throws(CryptoError) -> [UInt8]? {
        guard let point = EC_POINT_new(support.group) else {
            throw CryptoError.openSSL("EC_POINT_new failed")
        }
        defer { EC_POINT_free(point) }
        guard let r = BN_new(), let s = BN_new() else { throw CryptoError.openSSL("BN_new failed") }
        var owned = true
        defer {
            if owned {
                BN_free(r)
                BN_free(s)
            }
        }
        guard let x = BN_new(), let kInverse = BN_secure_new(), let t = BN_secure_new() else {
            throw CryptoError.openSSL("BN_new failed")
        }
        defer {
            BN_free(x)
            BN_clear_free(kInverse)
            BN_clear_free(t)
        }
        BN_set_flags(kInverse, BN_FLG_CONSTTIME)
        BN_set_flags(t, BN_FLG_CONSTTIME)
        let n = support.order
        let montgomery = support.orderMontgomery
        guard EC_POINT_mul(support.group, point, k, nil, nil, context) == 1,
            EC_POINT_get_affine_coordinates(support.group, point, x, nil, context) == 1,
            BN_nnmod(r, x, n, context) == 1
        else { throw CryptoError.openSSL("computing R = k·G failed") }
        if BN_is_zero(r) == 1 { return nil }
        guard
            BN_mod_exp_mont_consttime(kInverse, k, support.orderMinusTwo, n, context, montgomery)
                == 1,
            // t = r·d mod n (to Montgomery form, then one Montgomery product leaves the plain value).
            BN_to_montgomery(t, r, montgomery, context) == 1,
            BN_mod_mul_montgomery(t, t, scalar, montgomery, context) == 1,
            // t = e + r·d mod n
            BN_mod_add_quick(t, t, e, n) == 1,
            // s = k⁻¹·t mod n
            BN_to_montgomery(t, t, montgomery, context) == 1,
            BN_mod_mul_montgomery(s, t, kInverse, montgomery, context) == 1
        else { throw CryptoError.openSSL("computing s failed") }
        if BN_is_zero(s) == 1 { return nil }
        guard let signature = ECDSA_SIG_new() else {
            throw CryptoError.openSSL("ECDSA_SIG_new failed")
        }
        defer { ECDSA_SIG_free(signature) }
        guard ECDSA_SIG_set0(signature, r, s) == 1 else {
            throw CryptoError.openSSL("ECDSA_SIG_set0 failed")
        }
        owned = false
        let length = Int(i2d_ECDSA_SIG(signature, nil))
        guard length > 0 else { throw CryptoError.openSSL("ECDSA signature encoding failed") }
        var written: Int32 = 0
        let out = [UInt8](unsafeUninitializedCapacity: length) { buffer, initialized in
            var cursor = buffer.baseAddress
            written = i2d_ECDSA_SIG(signature, &cursor)
            initialized = Int(written) == length ? length : 0
        }
        guard Int(written) == length else {
            throw CryptoError.openSSL("ECDSA signature encoding failed")
        }
        return out
    }
}
