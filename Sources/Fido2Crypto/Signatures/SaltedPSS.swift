import COpenSSL

/// RSASSA-PSS signing with a salt the caller chooses (``PSSSalt``), for reproducible output:
/// OpenSSL always draws the PSS salt from its DRBG, so the encoding is done here. EMSA-PSS
/// (RFC 8017 §9.1.1, MGF1 with the same digest, a salt as long as the digest, as COSE's PS256,
/// PS384 and PS512 require) followed by the raw RSA private operation (RSASP1, OpenSSL's
/// `RSA_NO_PADDING`, which still blinds). Verifiers cannot tell these signatures from randomly
/// salted ones.
enum SaltedPSS {
    /// The PSS signature (k bytes) of the message whose `digest` hash is `messageDigest`, with
    /// `salt` (exactly as long as the hash).
    static func sign(
        _ box: PKeyBox, messageDigest: UnsafeRawBufferPointer, digest: DigestAlgorithm,
        salt: [UInt8]
    ) throws(CryptoError) -> [UInt8] {
        let key = try evpKey(box)
        let modulusBits = Int(EVP_PKEY_get_bits(key))
        let k = Int(EVP_PKEY_get_size(key))
        let hashLength = digest.byteCount
        let encodedBits = modulusBits - 1
        let encodedLength = (encodedBits + 7) / 8
        guard salt.count == hashLength else {
            throw CryptoError(
                .invalidLength, "a PSS salt for \(digest) is \(hashLength) bytes, not \(salt.count)"
            )
        }
        // RFC 8017 §9.1.1 step 3: room for the hash, the salt and the two marker bytes.
        guard modulusBits > 0, k >= encodedLength,
            encodedLength >= 2 * hashLength + 2
        else {
            throw CryptoError(
                .invalidLength, "RSA key of \(modulusBits) bits is too small for PSS with \(digest)"
            )
        }
        let messageHash = Array(messageDigest)

        // Steps 5–6: H = Hash(0x00 × 8 ‖ mHash ‖ salt).
        let h = digest.hash([UInt8](repeating: 0, count: 8) + messageHash + salt)
        // Steps 7–10: maskedDB = (PS ‖ 0x01 ‖ salt) ⊕ MGF1(H).
        let dbLength = encodedLength - hashLength - 1
        var db = [UInt8](repeating: 0, count: dbLength)
        db[dbLength - salt.count - 1] = 0x01
        db.replaceSubrange((dbLength - salt.count)..., with: salt)
        let mask = try mgf1(seed: h, length: dbLength, digest: digest)
        for index in db.indices { db[index] ^= mask[index] }
        // Step 11: clear the leftmost 8·emLen − emBits bits.
        db[0] &= UInt8(0xff) >> (8 * encodedLength - encodedBits)
        // Step 12: EM = maskedDB ‖ H ‖ 0xbc, left-padded to k bytes for RSASP1.
        let encoded =
            [UInt8](repeating: 0, count: k - encodedLength) + db + h + [0xbc]
        return try rawPrivateOperation(key, input: encoded)
    }

    /// MGF1 (RFC 8017 §B.2.1): Hash(seed ‖ counter) for counter 0, 1, …, truncated to `length`.
    private static func mgf1(
        seed: [UInt8], length: Int, digest: DigestAlgorithm
    ) throws(CryptoError) -> [UInt8] {
        var output: [UInt8] = []
        output.reserveCapacity(length + digest.byteCount)
        var counter: UInt32 = 0
        while output.count < length {
            let counterBytes: [UInt8] = [
                UInt8(counter >> 24), UInt8(counter >> 16 & 0xff), UInt8(counter >> 8 & 0xff),
                UInt8(counter & 0xff),
            ]
            output += digest.hash(seed + counterBytes)
            counter += 1
        }
        return Array(output.prefix(length))
    }

    /// The box's `EVP_PKEY` (the one place this file reads it).
    private static func evpKey(_ box: PKeyBox) throws(CryptoError) -> OpaquePointer {
        try box.pointer
    }

    /// RSASP1: `input` (k bytes, less than n) raised to d, with OpenSSL's blinding.
    private static func rawPrivateOperation(
        _ key: OpaquePointer, input: [UInt8]
    ) throws(CryptoError) -> [UInt8] {
        guard let context = EVP_PKEY_CTX_new_from_pkey(nil, key, nil) else {
            throw .openSSL("EVP_PKEY_CTX_new_from_pkey failed")
        }
        defer { EVP_PKEY_CTX_free(context) }
        guard EVP_PKEY_sign_init(context) == 1,
            EVP_PKEY_CTX_set_rsa_padding(context, RSA_NO_PADDING) == 1
        else { throw .openSSL("raw RSA context set-up failed") }
        let capacity = input.count
        var ok = false
        let signature = [UInt8](unsafeUninitializedCapacity: capacity) { buffer, initialized in
            var length = capacity
            ok =
                EVP_PKEY_sign(context, buffer.baseAddress, &length, input, input.count) == 1
                && length == capacity
            initialized = ok ? capacity : 0
        }
        guard ok else { throw .openSSL("raw RSA signing failed") }
        return signature
    }
}
