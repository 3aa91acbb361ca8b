import COpenSSL

/// HKDF (RFC 5869) extract-and-expand, on OpenSSL's `EVP_KDF`.
///
/// The W3C WebAuthn test vectors draw every value with HKDF-SHA-256; the software authenticator
/// and the tests use this to re-derive them.
public enum HKDF {
    private static let kdf = OpenSSLHandle(EVP_KDF_fetch(nil, "HKDF", nil))

    /// Derives `outputByteCount` bytes from `inputKeyMaterial`, `salt` and `info`.
    ///
    /// An empty `salt` means "no salt" (RFC 5869 §2.2: a string of zero bytes of the hash's
    /// length).
    ///
    /// - Throws: ``CryptoError/Code-swift.struct/invalidArgument`` when `outputByteCount` is
    ///   not in 1…255 × the digest length; ``CryptoError/Code-swift.struct/openSSLFailure``
    ///   when OpenSSL fails.
    @inlinable
    public static func deriveKey<
        I: Collection<UInt8>, S: Collection<UInt8>, N: Collection<UInt8>
    >(
        inputKeyMaterial: I, salt: S, info: N, outputByteCount: Int,
        digest: DigestAlgorithm = .sha256
    ) throws -> [UInt8] {
        try ByteAccess.with(inputKeyMaterial) { (ikm) throws(CryptoError) in
            try ByteAccess.with(salt) { (salt) throws(CryptoError) in
                try ByteAccess.with(info) { (info) throws(CryptoError) in
                    try derive(
                        ikm: ikm, salt: salt, info: info, outputByteCount: outputByteCount,
                        digest: digest)
                }
            }
        }
    }

    @usableFromInline
    static func derive(
        ikm: UnsafeRawBufferPointer, salt: UnsafeRawBufferPointer, info: UnsafeRawBufferPointer,
        outputByteCount: Int, digest: DigestAlgorithm
    ) throws(CryptoError) -> [UInt8] {
        guard outputByteCount > 0, outputByteCount <= 255 * digest.byteCount else {
            throw CryptoError(
                .invalidArgument,
                "HKDF output length \(outputByteCount) is not in 1...\(255 * digest.byteCount)")
        }
        guard let kdf, let context = EVP_KDF_CTX_new(kdf.pointer) else {
            throw CryptoError.openSSL("HKDF is not available")
        }
        defer { EVP_KDF_CTX_free(context) }
        var output = [UInt8](repeating: 0, count: outputByteCount)
        // OpenSSL wants a non-null pointer even for an empty octet string.
        var empty: UInt8 = 0
        let ok = withUnsafeMutablePointer(to: &empty) { emptyPointer in
            func octets(_ key: StaticString, _ buffer: UnsafeRawBufferPointer) -> OSSL_PARAM {
                let base = buffer.count > 0 ? buffer.baseAddress : nil
                return OSSL_PARAM_construct_octet_string(
                    CName(key).pointer,
                    UnsafeMutableRawPointer(mutating: base ?? UnsafeRawPointer(emptyPointer)),
                    buffer.count)
            }
            return digest.openSSLName.withCString { name in
                var params: [OSSL_PARAM] = [
                    OSSL_PARAM_construct_utf8_string(
                        CName("digest").pointer, UnsafeMutablePointer(mutating: name), 0),
                    octets("key", ikm),
                    octets("info", info),
                ]
                if salt.count > 0 { params.append(octets("salt", salt)) }
                params.append(OSSL_PARAM_construct_end())
                return output.withUnsafeMutableBytes { out in
                    EVP_KDF_derive(
                        context, out.baseAddress?.assumingMemoryBound(to: UInt8.self), out.count,
                        &params) == 1
                }
            }
        }
        guard ok else { throw CryptoError.openSSL("HKDF derivation failed") }
        return output
    }
}
