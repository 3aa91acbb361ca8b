import COpenSSL

/// Builds EC key pairs from a private scalar.
enum ECKeyBuilder {
    /// A key pair for `scalar` (a secure, constant-time-flagged `BIGNUM` in 1…n−1) with public
    /// point scalar·G.
    static func keyPair(
        scalar: OpaquePointer, support: ECCurveSupport
    ) throws(CryptoError)
        -> OpaquePointer
    {
        guard let bnContext = BN_CTX_secure_new() else {
            throw CryptoError.openSSL("BN_CTX_new failed")
        }
        defer { BN_CTX_free(bnContext) }
        guard let point = EC_POINT_new(support.group) else {
            throw CryptoError.openSSL("EC_POINT_new failed")
        }
        defer { EC_POINT_free(point) }
        guard EC_POINT_mul(support.group, point, scalar, nil, nil, bnContext) == 1 else {
            throw CryptoError.openSSL("EC_POINT_mul failed")
        }
        let width = 1 + 2 * support.coordinateByteCount
        return try withUnsafeTemporaryAllocation(of: UInt8.self, capacity: width) {
            (encoded) throws(CryptoError) -> OpaquePointer in
            guard
                EC_POINT_point2oct(
                    support.group, point, POINT_CONVERSION_UNCOMPRESSED, encoded.baseAddress, width,
                    bnContext) == width
            else { throw CryptoError.openSSL("EC_POINT_point2oct failed") }
            guard let builder = OSSL_PARAM_BLD_new() else {
                throw CryptoError.openSSL("OSSL_PARAM_BLD_new failed")
            }
            defer { OSSL_PARAM_BLD_free(builder) }
            guard
                OSSL_PARAM_BLD_push_utf8_string(
                    builder, CName("group").pointer, CName(support.groupName).pointer, 0) == 1,
                OSSL_PARAM_BLD_push_BN(builder, CName("priv").pointer, scalar) == 1,
                OSSL_PARAM_BLD_push_octet_string(
                    builder, CName("pub").pointer, encoded.baseAddress, width) == 1,
                let params = OSSL_PARAM_BLD_to_param(builder)
            else { throw CryptoError.openSSL("cannot build EC key parameters") }
            // The private scalar was pushed from a secure BIGNUM, so OSSL_PARAM_free clears it.
            defer { OSSL_PARAM_free(params) }
            guard let context = EVP_PKEY_CTX_new_from_name(nil, "EC", nil) else {
                throw CryptoError.openSSL("EC is not available")
            }
            defer { EVP_PKEY_CTX_free(context) }
            var key: OpaquePointer?
            guard EVP_PKEY_fromdata_init(context) == 1,
                EVP_PKEY_fromdata(context, &key, fido2_evp_pkey_keypair, params) == 1, let key
            else { throw CryptoError.openSSL(.invalidPrivateKey, "EC key refused") }
            return key
        }
    }
}
