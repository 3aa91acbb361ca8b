import COpenSSL

/// DER and PEM encoding and decoding of keys through OpenSSL (SubjectPublicKeyInfo, PKCS#8).
enum KeyEncoding {
    /// Parses a whole SubjectPublicKeyInfo; trailing bytes are an error.
    ///
    /// The structure is parsed first (`d2i_X509_PUBKEY`) and the key decoded from it second, so
    /// a well-formed SubjectPublicKeyInfo whose key is bad (an EC point off the curve) is told
    /// apart from malformed DER, and an unknown algorithm from both.
    static func decodeSPKI(_ der: UnsafeRawBufferPointer) throws(CryptoError) -> OpaquePointer {
        guard der.count > 0, der.count <= Int(Int32.max),
            let base = der.baseAddress?.assumingMemoryBound(to: UInt8.self)
        else { throw CryptoError(.invalidKeyEncoding, "empty SubjectPublicKeyInfo") }
        var cursor: UnsafePointer<UInt8>? = base
        guard let structure = d2i_X509_PUBKEY(nil, &cursor, der.count) else {
            throw CryptoError.openSSL(.invalidKeyEncoding, "malformed SubjectPublicKeyInfo")
        }
        defer { X509_PUBKEY_free(structure) }
        guard cursor == base + der.count else {
            OpenSSLErrorQueue.clear()
            throw CryptoError(.invalidKeyEncoding, "trailing bytes after SubjectPublicKeyInfo")
        }
        var algorithm: OpaquePointer?
        guard X509_PUBKEY_get0_param(&algorithm, nil, nil, nil, structure) == 1 else {
            throw CryptoError.openSSL(.invalidKeyEncoding, "SubjectPublicKeyInfo without algorithm")
        }
        let nid = OBJ_obj2nid(algorithm)
        guard
            [EVP_PKEY_EC, EVP_PKEY_RSA, EVP_PKEY_RSA_PSS, EVP_PKEY_ED25519, EVP_PKEY_ED448]
                .contains(nid)
        else {
            OpenSSLErrorQueue.clear()
            throw CryptoError(
                .unsupportedKeyType, "public key algorithm (NID \(nid)) is not supported")
        }
        guard let key = X509_PUBKEY_get(structure) else {
            throw CryptoError.openSSL(
                .invalidPublicKey, "SubjectPublicKeyInfo holds an invalid key")
        }
        // d2i_X509_PUBKEY tries the key eagerly and may leave a note on the queue.
        OpenSSLErrorQueue.clear()
        return key
    }

    /// Parses a whole PKCS#8 PrivateKeyInfo (unencrypted); trailing bytes are an error.
    static func decodePKCS8(_ der: UnsafeRawBufferPointer) throws(CryptoError) -> OpaquePointer {
        guard der.count > 0, der.count <= Int(Int32.max),
            let base = der.baseAddress?.assumingMemoryBound(to: UInt8.self)
        else { throw CryptoError(.invalidKeyEncoding, "empty PKCS#8") }
        var cursor: UnsafePointer<UInt8>? = base
        guard let info = d2i_PKCS8_PRIV_KEY_INFO(nil, &cursor, der.count) else {
            throw CryptoError.openSSL(.invalidKeyEncoding, "malformed PKCS#8 PrivateKeyInfo")
        }
        defer { PKCS8_PRIV_KEY_INFO_free(info) }
        guard cursor == base + der.count else {
            throw CryptoError(.invalidKeyEncoding, "trailing bytes after PKCS#8 PrivateKeyInfo")
        }
        guard let key = EVP_PKCS82PKEY(info) else {
            throw CryptoError.openSSL(.invalidKeyEncoding, "PKCS#8 holds no usable private key")
        }
        return key
    }

    /// The SubjectPublicKeyInfo DER of `key`, written straight into the result.
    /// The DER of a SubjectPublicKeyInfo up to the key's bytes, for the key kinds whose
    /// SubjectPublicKeyInfo is a fixed header followed by the uncompressed point (RFC 5480,
    /// named curves) or the raw key (RFC 8410); nil for RSA. These are the bytes OpenSSL's
    /// `i2d_PUBKEY` writes, which a test checks for every kind.
    static func spkiHeader(for kind: KeyKind) -> [UInt8]? {
        spkiHeaders.first { $0.kind == kind }?.header
    }

    /// The kind and the key's bytes of `der` when it is exactly one of the ``spkiHeader(for:)``
    /// encodings (for an EC key, of an uncompressed point); nil for anything else, which
    /// OpenSSL then decodes.
    static func fixedSPKI(
        _ der: UnsafeRawBufferPointer
    ) -> (kind: KeyKind, key: UnsafeRawBufferPointer)? {
        for (kind, header, keyLength) in spkiHeaders
        where der.count == header.count + keyLength && der.starts(with: header) {
            let key = UnsafeRawBufferPointer(rebasing: der[header.count...])
            if kind.isECDSA, key.first != 0x04 { return nil }
            return (kind, key)
        }
        return nil
    }

    // SEQUENCE { SEQUENCE { algorithm [, curve] }, BIT STRING (no unused bits) { key } }.
    private static let spkiHeaders: [(kind: KeyKind, header: [UInt8], keyLength: Int)] = {
        let ecPublicKey: [UInt8] = [0x06, 0x07, 0x2a, 0x86, 0x48, 0xce, 0x3d, 0x02, 0x01]
        return [
            (
                .p256,
                [0x30, 0x59, 0x30, 0x13] + ecPublicKey
                    + [
                        0x06, 0x08, 0x2a, 0x86, 0x48, 0xce, 0x3d, 0x03, 0x01, 0x07, 0x03, 0x42,
                        0x00,
                    ],
                65
            ),
            (
                .p384,
                [0x30, 0x76, 0x30, 0x10] + ecPublicKey
                    + [0x06, 0x05, 0x2b, 0x81, 0x04, 0x00, 0x22, 0x03, 0x62, 0x00],
                97
            ),
            (
                .p521,
                [0x30, 0x81, 0x9b, 0x30, 0x10] + ecPublicKey
                    + [0x06, 0x05, 0x2b, 0x81, 0x04, 0x00, 0x23, 0x03, 0x81, 0x86, 0x00],
                133
            ),
            (
                .secp256k1,
                [0x30, 0x56, 0x30, 0x10] + ecPublicKey
                    + [0x06, 0x05, 0x2b, 0x81, 0x04, 0x00, 0x0a, 0x03, 0x42, 0x00],
                65
            ),
            (
                .ed25519, [0x30, 0x2a, 0x30, 0x05, 0x06, 0x03, 0x2b, 0x65, 0x70, 0x03, 0x21, 0x00],
                32
            ),
            (.ed448, [0x30, 0x43, 0x30, 0x05, 0x06, 0x03, 0x2b, 0x65, 0x71, 0x03, 0x3a, 0x00], 57),
        ]
    }()

    static func encodeSPKI(_ key: OpaquePointer) throws(CryptoError) -> [UInt8] {
        let length = Int(i2d_PUBKEY(key, nil))
        guard length > 0 else { throw CryptoError.openSSL("cannot encode SubjectPublicKeyInfo") }
        var written: Int32 = 0
        let out = [UInt8](unsafeUninitializedCapacity: length) { buffer, initialized in
            var cursor = buffer.baseAddress
            written = i2d_PUBKEY(key, &cursor)
            initialized = Int(written) == length ? length : 0
        }
        guard Int(written) == length else {
            throw CryptoError.openSSL("cannot encode SubjectPublicKeyInfo")
        }
        return out
    }

    /// The PKCS#8 PrivateKeyInfo DER of `key`.
    static func encodePKCS8(_ key: OpaquePointer) throws(CryptoError) -> [UInt8] {
        guard let info = EVP_PKEY2PKCS8(key) else {
            throw CryptoError.openSSL("cannot encode PKCS#8")
        }
        defer { PKCS8_PRIV_KEY_INFO_free(info) }
        let length = Int(i2d_PKCS8_PRIV_KEY_INFO(info, nil))
        guard length > 0 else { throw CryptoError.openSSL("cannot encode PKCS#8") }
        var written: Int32 = 0
        let out = [UInt8](unsafeUninitializedCapacity: length) { buffer, initialized in
            var cursor = buffer.baseAddress
            written = i2d_PKCS8_PRIV_KEY_INFO(info, &cursor)
            initialized = Int(written) == length ? length : 0
        }
        guard Int(written) == length else { throw CryptoError.openSSL("cannot encode PKCS#8") }
        return out
    }

    /// `der` as a PEM block labelled `label`. `secret` keeps the text in a BIO that is cleared
    /// when freed.
    static func pem(_ der: [UInt8], label: String, secret: Bool) throws(CryptoError) -> String {
        guard let bio = BIO_new(secret ? BIO_s_secmem() : BIO_s_mem()) else {
            throw CryptoError.openSSL("BIO_new failed")
        }
        defer { BIO_free(bio) }
        let written = der.withUnsafeBytes { buffer in
            PEM_write_bio(
                bio, label, "", buffer.baseAddress?.assumingMemoryBound(to: UInt8.self),
                buffer.count)
        }
        guard written > 0 else { throw CryptoError.openSSL("PEM encoding failed") }
        var pointer: UnsafeMutablePointer<CChar>?
        let count = fido2_bio_get_mem_data(bio, &pointer)
        guard count > 0, let pointer else { throw CryptoError.openSSL("PEM encoding failed") }
        return pointer.withMemoryRebound(to: UInt8.self, capacity: count) {
            String(decoding: UnsafeBufferPointer(start: $0, count: count), as: UTF8.self)
        }
    }
}
