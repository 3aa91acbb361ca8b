import COpenSSL

/// HMAC (RFC 2104) over any ``DigestAlgorithm``, on OpenSSL's `EVP_MAC`.
///
/// The `EVP_MAC` and one keyless context per digest are created once; each computation
/// duplicates that template instead of fetching the algorithm and naming the digest again.
public enum HMAC {
    /// The HMAC of `message` under `key` with `digest`.
    ///
    /// - Throws: ``CryptoError/Code-swift.struct/openSSLFailure`` if OpenSSL cannot compute it.
    @inlinable
    public static func authenticationCode<M: Collection<UInt8>, K: Collection<UInt8>>(
        for message: M, key: K, digest: DigestAlgorithm = .sha256
    ) throws -> [UInt8] {
        try ByteAccess.with(message) { (message) throws(CryptoError) in
            try ByteAccess.with(key) { (key) throws(CryptoError) in
                try authenticationCode(message: message, key: key, digest: digest)
            }
        }
    }

    @usableFromInline
    static func authenticationCode(
        message: UnsafeRawBufferPointer, key: UnsafeRawBufferPointer, digest: DigestAlgorithm
    ) throws(CryptoError) -> [UInt8] {
        var context = try HMACContext(digest)
        try context.start(key: key)
        context.update(message)
        var out = [UInt8](repeating: 0, count: digest.byteCount)
        try out.withMutableBytes { (buffer) throws(CryptoError) in
            try context.finish(into: buffer)
        }
        return out
    }

    /// Whether `code` is the HMAC of `message` under `key`, compared in constant time.
    ///
    /// - Throws: ``CryptoError/Code-swift.struct/openSSLFailure`` if OpenSSL cannot compute it.
    @inlinable
    public static func isValidAuthenticationCode<
        C: Collection<UInt8>, M: Collection<UInt8>, K: Collection<UInt8>
    >(
        _ code: C, for message: M, key: K, digest: DigestAlgorithm = .sha256
    ) throws -> Bool {
        let expected = try authenticationCode(for: message, key: key, digest: digest)
        return ConstantTime.equals(expected, code)
    }
}

/// An HMAC computation that can be re-keyed and reused (RFC 6979 and HMAC-DRBG run many HMACs
/// with changing keys). Owns one `EVP_MAC_CTX`.
struct HMACContext: ~Copyable {
    let digest: DigestAlgorithm
    private let context: OpaquePointer
    private var failed = false

    private static let mac = OpenSSLHandle(EVP_MAC_fetch(nil, "HMAC", nil))
    private static let sha1Template = makeTemplate(.sha1)
    private static let sha256Template = makeTemplate(.sha256)
    private static let sha384Template = makeTemplate(.sha384)
    private static let sha512Template = makeTemplate(.sha512)

    private static func makeTemplate(_ digest: DigestAlgorithm) -> OpenSSLHandle? {
        guard let mac, let context = EVP_MAC_CTX_new(mac.pointer) else { return nil }
        let ok = digest.openSSLName.withCString { name in
            var params = [
                OSSL_PARAM_construct_utf8_string(
                    CName("digest").pointer, UnsafeMutablePointer(mutating: name), 0),
                OSSL_PARAM_construct_end(),
            ]
            return EVP_MAC_CTX_set_params(context, &params) == 1
        }
        guard ok else {
            EVP_MAC_CTX_free(context)
            return nil
        }
        return OpenSSLHandle(context)
    }

    init(_ digest: DigestAlgorithm) throws(CryptoError) {
        let template: OpenSSLHandle?
        switch digest.kind {
        case .sha1: template = Self.sha1Template
        case .sha256: template = Self.sha256Template
        case .sha384: template = Self.sha384Template
        case .sha512: template = Self.sha512Template
        }
        guard let template, let context = EVP_MAC_CTX_dup(template.pointer) else {
            throw CryptoError.openSSL("HMAC-\(digest) is not available")
        }
        self.digest = digest
        self.context = context
    }

    deinit { EVP_MAC_CTX_free(context) }

    /// Starts a new HMAC under `key`, discarding any previous state.
    mutating func start(key: UnsafeRawBufferPointer) throws(CryptoError) {
        failed = false
        // A zero-length key is legal for HMAC; OpenSSL wants a non-null pointer for it.
        var empty: UInt8 = 0
        let ok = withUnsafePointer(to: &empty) { emptyPointer in
            let base = key.count > 0 ? key.baseAddress?.assumingMemoryBound(to: UInt8.self) : nil
            return EVP_MAC_init(context, base ?? emptyPointer, key.count, nil) == 1
        }
        guard ok else { throw CryptoError.openSSL("HMAC key set-up failed") }
    }

    /// Adds bytes to the current HMAC.
    mutating func update(_ bytes: UnsafeRawBufferPointer) {
        guard bytes.count > 0, let base = bytes.baseAddress else { return }
        if EVP_MAC_update(context, base.assumingMemoryBound(to: UInt8.self), bytes.count) != 1 {
            failed = true
        }
    }

    /// Adds one byte to the current HMAC.
    mutating func update(byte: UInt8) {
        var byte = byte
        withUnsafeBytes(of: &byte) { update($0) }
    }

    /// Writes the HMAC (``DigestAlgorithm/byteCount`` bytes) into `output`.
    mutating func finish(into output: UnsafeMutableRawBufferPointer) throws(CryptoError) {
        let count = digest.byteCount
        guard output.count >= count, let base = output.baseAddress else {
            throw CryptoError(.invalidLength, "HMAC output buffer too small")
        }
        var length = 0
        guard !failed,
            EVP_MAC_final(context, base.assumingMemoryBound(to: UInt8.self), &length, count)
                == 1,
            length == count
        else { throw CryptoError.openSSL("HMAC failed") }
    }
}
