import COpenSSL

/// The OpenSSL calls behind ``PublicKey`` verification and ``PrivateKey`` signing.
///
/// ECDSA and RSA hash the message pieces themselves (cached `EVP_MD`, no concatenation). Signing
/// and RSA verification pass the digest to `EVP_PKEY_sign`/`EVP_PKEY_verify` with a context from
/// the key's pool, so a call costs no algorithm fetch once the key has been used. ECDSA
/// verification calls `ECDSA_verify` on the key's `EC_KEY`, which is what OpenSSL's provider runs
/// under `EVP_PKEY_verify`, without the per-key context set-up that would otherwise cost a freshly
/// imported key about 3 µs. Pure EdDSA is one-shot in OpenSSL (`EVP_DigestSign`/`EVP_DigestVerify`
/// over the whole message).
enum SignatureEngine {
    private static let largestDigest = 64

    /// Whether `signature` is valid for `message` under `box`'s key with `scheme`.
    static func verify(
        _ box: PKeyBox, scheme: SignatureScheme, signature: UnsafeRawBufferPointer,
        message: MessageParts
    ) throws(CryptoError) -> Bool {
        let valid: Bool
        switch scheme {
        case .ecdsa(let digest, _):
            guard let ecKey = try box.ecKey else {
                throw CryptoError.openSSL("\(box.kind) key without its point")
            }
            valid = try verifyECDSA(ecKey, digest: digest, signature: signature, message: message)
        case .rsaPKCS1(let digest):
            if let rsaKey = try box.rsaKey {
                valid = try verifyPKCS1(
                    rsaKey, digest: digest, signature: signature, message: message)
                break
            }
            // RFC 8017 §8.2.2 step 1: the signature is exactly k bytes. OpenSSL would accept
            // shorter input as if left-padded with zeros.
            guard signature.count == Int(EVP_PKEY_get_size(try box.pointer)) else { return false }
            valid = try verifyDigest(
                box, digest: digest, padding: RSA_PKCS1_PADDING, signature: signature,
                message: message)
        case .rsaPSS(let digest):
            guard signature.count == Int(EVP_PKEY_get_size(try box.pointer)) else { return false }
            valid = try verifyDigest(
                box, digest: digest, padding: RSA_PKCS1_PSS_PADDING, signature: signature,
                message: message)
        case .edDSA:
            valid = try message.withContiguous { (data) throws(CryptoError) in
                try verifyEdDSA(box, signature: signature, message: data)
            }
        }
        // A failed verification leaves entries on the queue; they must not leak into the next
        // unrelated error report.
        if !valid { OpenSSLErrorQueue.clear() }
        return valid
    }

    /// A signature by `key` over `message` with `scheme` (ECDSA in DER); the nonce's
    /// ``ECDSANonce/pssSalt`` makes the salt of a PSS signature (nil: OpenSSL's random salt).
    static func sign(
        _ key: PrivateKey, scheme: SignatureScheme, message: MessageParts, nonce: ECDSANonce
    ) throws(CryptoError) -> [UInt8] {
        let box = key.box
        switch scheme {
        case .ecdsa(let digest, _):
            if nonce.isDeterministic {
                return try withDigest(digest, of: message) { (hash) throws(CryptoError) in
                    try DeterministicECDSA.sign(box, messageDigest: hash, digest: digest)
                }
            }
            return try signDigest(box, digest: digest, padding: nil, message: message)
        case .rsaPKCS1(let digest):
            return try signDigest(box, digest: digest, padding: RSA_PKCS1_PADDING, message: message)
        case .rsaPSS(let digest):
            if let rule = nonce.pssSalt {
                return try withDigest(digest, of: message) { (hash) throws(CryptoError) in
                    let salt = try rule.make(key, Array(hash), digest)
                    return try SaltedPSS.sign(box, messageDigest: hash, digest: digest, salt: salt)
                }
            }
            return try signDigest(
                box, digest: digest, padding: RSA_PKCS1_PSS_PADDING, message: message)
        case .edDSA:
            return try message.withContiguous { (data) throws(CryptoError) in
                try signEdDSA(box, message: data)
            }
        }
    }

    // MARK: Digest-then-sign (ECDSA, RSA)

    private static func withDigest<R>(
        _ digest: DigestAlgorithm, of message: MessageParts,
        _ body: (UnsafeRawBufferPointer) throws(CryptoError) -> R
    ) throws(CryptoError) -> R {
        try withUnsafeTemporaryAllocation(byteCount: largestDigest, alignment: 1) {
            (buffer) throws(CryptoError) -> R in
            let output = UnsafeMutableRawBufferPointer(rebasing: buffer[..<digest.byteCount])
            try message.hash(digest, into: output)
            return try body(UnsafeRawBufferPointer(output))
        }
    }

    /// The pool tag of a context set up for (operation, padding, digest).
    private static func tag(signing: Bool, padding: Int32?, digest: DigestAlgorithm) -> Int {
        let digestIndex: Int
        switch digest.kind {
        case .sha1: digestIndex = 1
        case .sha256: digestIndex = 2
        case .sha384: digestIndex = 3
        case .sha512: digestIndex = 4
        }
        return (signing ? 1000 : 2000) + Int(padding ?? 0) * 10 + digestIndex
    }

    /// A context for `box` initialised for signing or verifying; RSA contexts also get the
    /// padding and digest (and for PSS, MGF1 with the same digest and a digest-length salt).
    private static func makeContext(
        _ box: PKeyBox, signing: Bool, padding: Int32?, digest: DigestAlgorithm
    ) throws(CryptoError) -> OpaquePointer {
        guard let context = EVP_PKEY_CTX_new_from_pkey(nil, try box.pointer, nil) else {
            throw CryptoError.openSSL("EVP_PKEY_CTX_new_from_pkey failed")
        }
        var ok = (signing ? EVP_PKEY_sign_init(context) : EVP_PKEY_verify_init(context)) == 1
        if ok, let padding {
            let md = try digest.messageDigest()
            ok =
                EVP_PKEY_CTX_set_rsa_padding(context, padding) == 1
                && EVP_PKEY_CTX_set_signature_md(context, md) == 1
            if ok, padding == RSA_PKCS1_PSS_PADDING {
                ok =
                    EVP_PKEY_CTX_set_rsa_mgf1_md(context, md) == 1
                    && EVP_PKEY_CTX_set_rsa_pss_saltlen(context, RSA_PSS_SALTLEN_DIGEST) == 1
            }
        }
        guard ok else {
            EVP_PKEY_CTX_free(context)
            throw CryptoError.openSSL(
                "signature context set-up failed for \(box.kind) with \(digest)")
        }
        return context
    }

    private static func verifyDigest(
        _ box: PKeyBox, digest: DigestAlgorithm, padding: Int32?,
        signature: UnsafeRawBufferPointer, message: MessageParts
    ) throws(CryptoError) -> Bool {
        try withDigest(digest, of: message) { (hash) throws(CryptoError) in
            try box.contexts.withContext(
                tag: tag(signing: false, padding: padding, digest: digest),
                make: { () throws(CryptoError) in
                    try makeContext(box, signing: false, padding: padding, digest: digest)
                }
            ) { context in
                let result = EVP_PKEY_verify(
                    context, signature.baseAddress?.assumingMemoryBound(to: UInt8.self),
                    signature.count, hash.baseAddress?.assumingMemoryBound(to: UInt8.self),
                    hash.count)
                return (result == 1, true)
            }
        }
    }

    /// `ECDSA_verify` parses the DER signature, re-encodes it and refuses any difference (strict
    /// DER, no trailing bytes), then checks r and s are in 1…n−1 and verifies.
    private static func verifyECDSA(
        _ ecKey: OpaquePointer, digest: DigestAlgorithm, signature: UnsafeRawBufferPointer,
        message: MessageParts
    ) throws(CryptoError) -> Bool {
        guard let signatureBase = signature.baseAddress,
            let length = Int32(exactly: signature.count)
        else { return false }
        return try withDigest(digest, of: message) { (hash) throws(CryptoError) in
            fido2_ecdsa_verify(
                hash.baseAddress?.assumingMemoryBound(to: UInt8.self), Int32(hash.count),
                signatureBase.assumingMemoryBound(to: UInt8.self), length, ecKey) == 1
        }
    }

    /// RSASSA-PKCS1-v1_5 with a low-level `RSA` key: `RSA_verify`, which OpenSSL's provider
    /// calls for this padding, so its checks are those of the `EVP_PKEY` route.
    private static func verifyPKCS1(
        _ rsaKey: OpaquePointer, digest: DigestAlgorithm, signature: UnsafeRawBufferPointer,
        message: MessageParts
    ) throws(CryptoError) -> Bool {
        // RFC 8017 §8.2.2 step 1: the signature is exactly k bytes (RSA_verify checks it too).
        guard signature.count == Int(fido2_rsa_size(rsaKey)),
            let signatureBase = signature.baseAddress,
            let length = UInt32(exactly: signature.count)
        else { return false }
        let nid: Int32
        switch digest.kind {
        case .sha1: nid = NID_sha1
        case .sha256: nid = NID_sha256
        case .sha384: nid = NID_sha384
        case .sha512: nid = NID_sha512
        }
        return try withDigest(digest, of: message) { (hash) throws(CryptoError) in
            fido2_rsa_pkcs1_verify(
                nid, hash.baseAddress?.assumingMemoryBound(to: UInt8.self), UInt32(hash.count),
                signatureBase.assumingMemoryBound(to: UInt8.self), length, rsaKey) == 1
        }
    }

    private static func signDigest(
        _ box: PKeyBox, digest: DigestAlgorithm, padding: Int32?, message: MessageParts
    ) throws(CryptoError) -> [UInt8] {
        let capacity = Int(EVP_PKEY_get_size(try box.pointer))
        guard capacity > 0 else { throw CryptoError.openSSL("key has no signature size") }
        let signature: [UInt8]? = try withDigest(digest, of: message) {
            (hash) throws(CryptoError) in
            try box.contexts.withContext(
                tag: tag(signing: true, padding: padding, digest: digest),
                make: { () throws(CryptoError) in
                    try makeContext(box, signing: true, padding: padding, digest: digest)
                }
            ) { context in
                var ok = false
                let out = [UInt8](unsafeUninitializedCapacity: capacity) { buffer, initialized in
                    var length = capacity
                    ok =
                        EVP_PKEY_sign(
                            context, buffer.baseAddress, &length,
                            hash.baseAddress?.assumingMemoryBound(to: UInt8.self), hash.count) == 1
                        && length <= capacity
                    initialized = ok ? length : 0
                }
                return (ok ? out : nil, ok)
            }
        }
        guard let signature else { throw CryptoError.openSSL("signing with \(box.kind) failed") }
        return signature
    }

    // MARK: EdDSA

    private static func verifyEdDSA(
        _ box: PKeyBox, signature: UnsafeRawBufferPointer, message: UnsafeRawBufferPointer
    ) throws(CryptoError) -> Bool {
        guard let context = EVP_MD_CTX_new() else {
            throw CryptoError.openSSL("EVP_MD_CTX_new failed")
        }
        defer { EVP_MD_CTX_free(context) }
        guard try EVP_DigestVerifyInit_ex(context, nil, nil, nil, nil, box.pointer, nil) == 1 else {
            throw CryptoError.openSSL("EdDSA verification set-up failed")
        }
        return EVP_DigestVerify(
            context, signature.baseAddress?.assumingMemoryBound(to: UInt8.self), signature.count,
            message.baseAddress?.assumingMemoryBound(to: UInt8.self), message.count) == 1
    }

    private static func signEdDSA(
        _ box: PKeyBox, message: UnsafeRawBufferPointer
    )
        throws(CryptoError) -> [UInt8]
    {
        guard let context = EVP_MD_CTX_new() else {
            throw CryptoError.openSSL("EVP_MD_CTX_new failed")
        }
        defer { EVP_MD_CTX_free(context) }
        guard try EVP_DigestSignInit_ex(context, nil, nil, nil, nil, box.pointer, nil) == 1 else {
            throw CryptoError.openSSL("EdDSA signing set-up failed")
        }
        let capacity = Int(EVP_PKEY_get_size(try box.pointer))
        var ok = false
        let out = [UInt8](unsafeUninitializedCapacity: capacity) { buffer, initialized in
            var length = capacity
            ok =
                EVP_DigestSign(
                    context, buffer.baseAddress, &length,
                    message.baseAddress?.assumingMemoryBound(to: UInt8.self), message.count) == 1
                && length <= capacity
            initialized = ok ? length : 0
        }
        guard ok else { throw CryptoError.openSSL("EdDSA signing failed") }
        return out
    }
}
