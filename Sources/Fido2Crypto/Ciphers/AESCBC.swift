import COpenSSL

/// AES in CBC mode without padding (NIST SP 800-38A), as CTAP2's PIN/UV auth protocols use it:
/// the input must be a whole number of 16-byte blocks. The `EVP_CIPHER`s are fetched once.
public enum AESCBC {
    /// The AES block size in bytes.
    public static let blockSize = 16

    /// Encrypts `plaintext` under `key` (16, 24 or 32 bytes) with the 16-byte `iv`.
    ///
    /// - Throws: ``CryptoError/Code-swift.struct/invalidLength`` for a key, IV or plaintext of
    ///   the wrong size; ``CryptoError/Code-swift.struct/openSSLFailure`` if OpenSSL fails.
    public static func encrypt<P: Collection<UInt8>, K: Collection<UInt8>, I: Collection<UInt8>>(
        _ plaintext: P, key: K, iv: I
    ) throws -> [UInt8] {
        try crypt(Array(plaintext), key: Array(key), iv: Array(iv), encrypting: true)
    }

    /// Decrypts `ciphertext` under `key` (16, 24 or 32 bytes) with the 16-byte `iv`.
    ///
    /// - Throws: as ``encrypt(_:key:iv:)``.
    public static func decrypt<C: Collection<UInt8>, K: Collection<UInt8>, I: Collection<UInt8>>(
        _ ciphertext: C, key: K, iv: I
    ) throws -> [UInt8] {
        try crypt(Array(ciphertext), key: Array(key), iv: Array(iv), encrypting: false)
    }

    private static let aes128 = OpenSSLHandle(EVP_CIPHER_fetch(nil, "AES-128-CBC", nil))
    private static let aes192 = OpenSSLHandle(EVP_CIPHER_fetch(nil, "AES-192-CBC", nil))
    private static let aes256 = OpenSSLHandle(EVP_CIPHER_fetch(nil, "AES-256-CBC", nil))

    private static func crypt(
        _ input: [UInt8], key: [UInt8], iv: [UInt8], encrypting: Bool
    )
        throws(CryptoError) -> [UInt8]
    {
        let cipher: OpenSSLHandle?
        switch key.count {
        case 16: cipher = aes128
        case 24: cipher = aes192
        case 32: cipher = aes256
        default:
            throw CryptoError(
                .invalidLength, "AES keys are 16, 24 or 32 bytes, not \(key.count)", field: "key")
        }
        guard iv.count == blockSize else {
            throw CryptoError(
                .invalidLength, "the IV must be 16 bytes, not \(iv.count)", field: "iv")
        }
        guard input.count % blockSize == 0 else {
            throw CryptoError(
                .invalidLength,
                "AES-CBC without padding needs whole 16-byte blocks, not \(input.count) bytes",
                field: encrypting ? "plaintext" : "ciphertext")
        }
        guard let cipher else { throw CryptoError.openSSL("AES-CBC is not available") }
        guard let context = EVP_CIPHER_CTX_new() else {
            throw CryptoError.openSSL("EVP_CIPHER_CTX_new failed")
        }
        defer { EVP_CIPHER_CTX_free(context) }
        let started = key.withUnsafeBufferPointer { keyBytes in
            iv.withUnsafeBufferPointer { ivBytes in
                EVP_CipherInit_ex2(
                    context, cipher.pointer, keyBytes.baseAddress, ivBytes.baseAddress,
                    encrypting ? 1 : 0, nil)
            }
        }
        guard started == 1, EVP_CIPHER_CTX_set_padding(context, 0) == 1 else {
            throw CryptoError.openSSL("AES-CBC set-up failed")
        }
        var output = [UInt8](repeating: 0, count: input.count + blockSize)
        var written: Int32 = 0
        var final: Int32 = 0
        let ok = output.withUnsafeMutableBufferPointer { out in
            input.withUnsafeBufferPointer { source in
                EVP_CipherUpdate(
                    context, out.baseAddress, &written, source.baseAddress, Int32(source.count))
                    == 1
                    && EVP_CipherFinal_ex(
                        context, out.baseAddress.map { $0 + Int(written) }, &final) == 1
            }
        }
        guard ok else { throw CryptoError.openSSL("AES-CBC failed") }
        output.removeLast(output.count - Int(written + final))
        return output
    }
}
