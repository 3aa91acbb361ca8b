import COpenSSL

/// Key generation with cached, set-up `EVP_PKEY_CTX`s (a pool per curve): making and initialising
/// a keygen context on every call more than doubles the cost of a P-256 key.
enum KeyGeneration {
    private static let ed25519Pool = ContextPool()
    private static let ed448Pool = ContextPool()

    /// A fresh key of an EC or EdDSA kind from OpenSSL's DRBG.
    static func generate(_ kind: KeyKind) throws(CryptoError) -> OpaquePointer {
        let key: OpaquePointer?
        switch kind.storage {
        case .p256, .p384, .p521, .secp256k1:
            let support = try ECCurveSupport.forKind(kind)
            key = try support.keyGeneration.withContext(
                make: { () throws(CryptoError) in try makeECContext(support) }, generate)
        case .ed25519:
            key = try ed25519Pool.withContext(
                make: { () throws(CryptoError) in try makeContext(CName("ED25519")) }, generate)
        case .ed448:
            key = try ed448Pool.withContext(
                make: { () throws(CryptoError) in try makeContext(CName("ED448")) }, generate)
        case .rsa(let bits):
            return try generateRSA(bits: bits)
        }
        guard let key else { throw CryptoError.openSSL("\(kind) key generation failed") }
        return key
    }

    /// One generation with a pooled context; a failed context is not reused.
    private static func generate(_ context: OpaquePointer) -> (result: OpaquePointer?, keep: Bool) {
        var key: OpaquePointer?
        let ok = EVP_PKEY_generate(context, &key) == 1
        return (ok ? key : nil, ok)
    }

    private static func makeContext(_ name: CName) throws(CryptoError) -> OpaquePointer {
        guard let context = EVP_PKEY_CTX_new_from_name(nil, name.pointer, nil) else {
            throw CryptoError.openSSL("key generation is not available")
        }
        guard EVP_PKEY_keygen_init(context) == 1 else {
            EVP_PKEY_CTX_free(context)
            throw CryptoError.openSSL("key generation set-up failed")
        }
        return context
    }

    private static func makeECContext(
        _ support: ECCurveSupport
    ) throws(CryptoError)
        -> OpaquePointer
    {
        let context = try makeContext(CName("EC"))
        guard EVP_PKEY_CTX_set_group_name(context, CName(support.groupName).pointer) == 1 else {
            EVP_PKEY_CTX_free(context)
            throw CryptoError.openSSL("cannot select \(support.kind)")
        }
        return context
    }

    private static func generateRSA(bits: Int) throws(CryptoError) -> OpaquePointer {
        let context = try makeContext(CName("RSA"))
        defer { EVP_PKEY_CTX_free(context) }
        var key: OpaquePointer?
        guard EVP_PKEY_CTX_set_rsa_keygen_bits(context, Int32(bits)) == 1,
            EVP_PKEY_generate(context, &key) == 1, let key
        else { throw CryptoError.openSSL("RSA-\(bits) key generation failed") }
        return key
    }
}
