import COpenSSL

/// Reading facts and fields out of an `EVP_PKEY`.
enum KeyInspection {
    /// The kind of `key`, or `unsupportedKeyType`.
    static func kind(of key: OpaquePointer) throws(CryptoError) -> KeyKind {
        switch EVP_PKEY_get_base_id(key) {
        case EVP_PKEY_EC:
            let name = groupName(of: key)
            guard let name, let kind = ECCurveSupport.kind(forGroupName: name) else {
                throw CryptoError(
                    .unsupportedKeyType,
                    "EC curve \(name ?? "(explicit parameters)") is not supported")
            }
            return kind
        case EVP_PKEY_RSA:
            return .rsa(modulusBits: Int(EVP_PKEY_get_bits(key)))
        case EVP_PKEY_ED25519:
            return .ed25519
        case EVP_PKEY_ED448:
            return .ed448
        case EVP_PKEY_RSA_PSS:
            throw CryptoError(
                .unsupportedKeyType,
                "RSASSA-PSS-restricted keys (id-RSASSA-PSS) are not supported; use rsaEncryption")
        case let id:
            throw CryptoError(.unsupportedKeyType, "key type \(id) is not supported")
        }
    }

    static func groupName(of key: OpaquePointer) -> String? {
        withUnsafeTemporaryAllocation(of: CChar.self, capacity: 64) { buffer in
            var length = 0
            guard let base = buffer.baseAddress,
                EVP_PKEY_get_utf8_string_param(key, "group", base, buffer.count, &length) == 1
            else {
                OpenSSLErrorQueue.clear()
                return nil
            }
            return String(cString: base)
        }
    }

    /// A big-number parameter of `key` as big-endian bytes, left-padded to `width` when given
    /// (otherwise minimal). Secret parameters are cleared from the temporary `BIGNUM`.
    static func bigNumber(
        _ name: StaticString, of key: OpaquePointer, width: Int? = nil
    )
        throws(CryptoError) -> [UInt8]
    {
        var number: OpaquePointer?
        guard EVP_PKEY_get_bn_param(key, CName(name).pointer, &number) == 1, let number else {
            throw CryptoError.openSSL("key has no parameter \(name)")
        }
        defer { BN_clear_free(number) }
        return try BigNumber.bytes(of: number, width: width)
    }

    /// The public point of an EC key as OpenSSL encodes it (`encoded-pub-key`: uncompressed
    /// unless the key was imported from a compressed point), in one parameter read.
    static func encodedPoint(of key: OpaquePointer, capacity: Int) throws(CryptoError) -> [UInt8] {
        var ok = false
        let out = [UInt8](unsafeUninitializedCapacity: capacity) { buffer, initialized in
            var length = 0
            ok =
                EVP_PKEY_get_octet_string_param(
                    key, "encoded-pub-key", buffer.baseAddress, buffer.count, &length) == 1
                && length > 1 && length <= capacity
            initialized = ok ? length : 0
        }
        guard ok else {
            OpenSSLErrorQueue.clear()
            throw CryptoError.openSSL("cannot read the EC public point")
        }
        return out
    }

    /// The raw public key of an EdDSA key.
    static func rawPublicKey(of key: OpaquePointer, count: Int) throws(CryptoError) -> [UInt8] {
        var length = count
        var ok = false
        let out = [UInt8](unsafeUninitializedCapacity: count) { buffer, initialized in
            ok =
                EVP_PKEY_get_raw_public_key(key, buffer.baseAddress, &length) == 1
                && length == count
            initialized = ok ? count : 0
        }
        guard ok else { throw CryptoError.openSSL("cannot read the raw public key") }
        return out
    }
}
