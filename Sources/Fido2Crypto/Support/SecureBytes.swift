import COpenSSL

/// Wiping of secret bytes we hold in our own buffers (private scalars, HMAC-DRBG state, RFC 6979
/// nonce material). `OPENSSL_cleanse` is used because the compiler may not elide it.
enum SecureBytes {
    /// Overwrites `bytes` with zeros in place.
    static func wipe(_ bytes: inout [UInt8]) {
        bytes.withUnsafeMutableBytes { buffer in
            if let base = buffer.baseAddress { OPENSSL_cleanse(base, buffer.count) }
        }
    }

    /// Overwrites a raw buffer with zeros.
    static func wipe(_ buffer: UnsafeMutableRawBufferPointer) {
        if let base = buffer.baseAddress { OPENSSL_cleanse(base, buffer.count) }
    }
}
