import COpenSSL

/// Builds RSA `EVP_PKEY`s from big-number components with `EVP_PKEY_fromdata`.
enum RSAKeyBuilder {
    /// An RSA key from named `BIGNUM` parameters (`n`, `e`, `d`, `rsa-factor1`, …). Secret
    /// numbers should be secure `BIGNUM`s so the parameter copies are cleared when freed.
    static func build(
        _ numbers: [(StaticString, OpaquePointer)], selection: Int32
    )
        throws(CryptoError) -> OpaquePointer
    {
        guard let builder = OSSL_PARAM_BLD_new() else {
            throw CryptoError.openSSL("OSSL_PARAM_BLD_new failed")
        }
        defer { OSSL_PARAM_BLD_free(builder) }
        for (name, number) in numbers {
            guard OSSL_PARAM_BLD_push_BN(builder, CName(name).pointer, number) == 1 else {
                throw CryptoError.openSSL("OSSL_PARAM_BLD_push_BN failed")
            }
        }
        guard let params = OSSL_PARAM_BLD_to_param(builder) else {
            throw CryptoError.openSSL("OSSL_PARAM_BLD_to_param failed")
        }
        defer { OSSL_PARAM_free(params) }
        guard let context = EVP_PKEY_CTX_new_from_name(nil, "RSA", nil) else {
            throw CryptoError.openSSL("RSA is not available")
        }
        defer { EVP_PKEY_CTX_free(context) }
        var key: OpaquePointer?
        guard EVP_PKEY_fromdata_init(context) == 1,
            EVP_PKEY_fromdata(context, &key, selection, params) == 1, let key
        else { throw CryptoError.openSSL(.invalidKeyEncoding, "RSA key components refused") }
        return key
    }
}

extension RSAKeyBuilder {
    /// An RSA public `EVP_PKEY` from its modulus and public exponent (big-endian unsigned).
    static func publicKey(modulus: [UInt8], exponent: [UInt8]) throws(CryptoError) -> OpaquePointer
    {
        let n = try BigNumber.make(modulus)
        defer { BN_free(n) }
        let e = try BigNumber.make(exponent)
        defer { BN_free(e) }
        return try build([("n", n), ("e", e)], selection: fido2_evp_pkey_public_key)
    }
}

extension RSAKeyBuilder {
    /// An RSA private key from p, q and e; see ``PrivateKey/init(rsaPrimeP:primeQ:publicExponent:)``.
    static func fromPrimes(
        p pBytes: UnsafeRawBufferPointer, q qBytes: UnsafeRawBufferPointer,
        e eBytes: UnsafeRawBufferPointer, allowed: ClosedRange<Int>
    ) throws(CryptoError) -> PKeyBox {
        guard pBytes.count <= 1024, qBytes.count <= 1024, eBytes.count <= 1024 else {
            throw CryptoError(.keySizeNotAllowed, "RSA component longer than 1024 bytes")
        }
        guard let context = BN_CTX_secure_new() else {
            throw CryptoError.openSSL("BN_CTX_new failed")
        }
        defer { BN_CTX_free(context) }
        var numbers: [OpaquePointer] = []
        defer { for number in numbers { BN_clear_free(number) } }
        func fresh() throws(CryptoError) -> OpaquePointer {
            guard let number = BN_secure_new() else { throw CryptoError.openSSL("BN_new failed") }
            numbers.append(number)
            BN_set_flags(number, BN_FLG_CONSTTIME)
            return number
        }
        let p = try BigNumber.make(pBytes, secure: true)
        numbers.append(p)
        let q = try BigNumber.make(qBytes, secure: true)
        numbers.append(q)
        let e = try BigNumber.make(eBytes)
        numbers.append(e)

        guard BN_cmp(p, q) != 0, BN_num_bits(p) > 1, BN_num_bits(q) > 1 else {
            throw CryptoError(.invalidPrivateKey, "RSA primes must be distinct and above 1")
        }
        guard BN_is_odd(e) == 1, BN_num_bits(e) >= 2 else {
            throw CryptoError(.invalidPrivateKey, "RSA public exponent must be odd and at least 3")
        }
        let n = try fresh()
        guard BN_mul(n, p, q, context) == 1 else { throw CryptoError.openSSL("BN_mul failed") }
        let bits = Int(BN_num_bits(n))
        guard allowed.contains(bits) else {
            throw CryptoError(
                .keySizeNotAllowed,
                "RSA modulus of \(bits) bits is outside \(allowed.lowerBound)...\(allowed.upperBound)"
            )
        }
        guard BN_check_prime(p, context, nil) == 1, BN_check_prime(q, context, nil) == 1 else {
            OpenSSLErrorQueue.clear()
            throw CryptoError(.invalidPrivateKey, "RSA factors must be prime")
        }
        let pMinusOne = try fresh()
        let qMinusOne = try fresh()
        let gcd = try fresh()
        let product = try fresh()
        let lambda = try fresh()
        let remainder = try fresh()
        guard BN_copy(pMinusOne, p) != nil, BN_sub_word(pMinusOne, 1) == 1,
            BN_copy(qMinusOne, q) != nil, BN_sub_word(qMinusOne, 1) == 1,
            BN_gcd(gcd, pMinusOne, qMinusOne, context) == 1,
            BN_mul(product, pMinusOne, qMinusOne, context) == 1,
            BN_div(lambda, remainder, product, gcd, context) == 1
        else { throw CryptoError.openSSL("RSA parameter arithmetic failed") }
        let d = try fresh()
        guard BN_mod_inverse(d, e, lambda, context) != nil else {
            OpenSSLErrorQueue.clear()
            throw CryptoError(.invalidPrivateKey, "e is not invertible modulo lcm(p-1, q-1)")
        }
        let dP = try fresh()
        let dQ = try fresh()
        let qInverse = try fresh()
        guard BN_nnmod(dP, d, pMinusOne, context) == 1,
            BN_nnmod(dQ, d, qMinusOne, context) == 1,
            BN_mod_inverse(qInverse, q, p, context) != nil
        else { throw CryptoError.openSSL("RSA CRT parameter arithmetic failed") }
        let key = try build(
            [
                ("n", n), ("e", e), ("d", d), ("rsa-factor1", p), ("rsa-factor2", q),
                ("rsa-exponent1", dP), ("rsa-exponent2", dQ), ("rsa-coefficient1", qInverse),
            ], selection: fido2_evp_pkey_keypair)
        return PKeyBox(taking: key, kind: .rsa(modulusBits: bits))
    }
}
