import COpenSSL

/// Parses certificates into OpenSSL `X509` objects without OpenSSL 3.0's SubjectPublicKeyInfo
/// decoder.
///
/// `d2i_X509` decodes the certificate's key through an `OSSL_DECODER_CTX`, which OpenSSL 3.0
/// and 3.1 assemble from every decoder and key manager of the provider on each call: about
/// 130 µs of a 150 µs certificate parse, twice per registration with an x5c chain. This parser
/// lets OpenSSL read the certificate with its key decoded in a library context that holds only
/// the null provider (so the key stays unset); later, on the certificate's first use, it
/// imports the key as ``PublicKey`` does from COSE points and RSA components and gives it to
/// the certificate, which then verifies and chains exactly as one from `d2i_X509`. It relies on
/// the first members of OpenSSL's `X509_PUBKEY`, checked through the public accessors before
/// each write (`shim.h`); when that check fails or the key is in another encoding (compressed
/// or explicit-curve EC, RSASSA-PSS, an unsupported algorithm, RSA components the import
/// refuses), ``readWithoutKey(_:subjectPublicKeyInfo:)`` returns nil and the caller uses
/// `d2i_X509`, whose verdict then stands.
enum DecoderFreeCertificateParser {
    /// A library context with only the null provider, in which OpenSSL decodes no key; nil when
    /// OpenSSL cannot make one (every certificate then goes through `d2i_X509`). Never changed
    /// after it is made, and OpenSSL's library contexts may be used by many threads at once.
    nonisolated(unsafe) private static let keylessContext: OpaquePointer? = {
        guard let context = OSSL_LIB_CTX_new() else { return nil }
        // Loading a provider explicitly keeps OpenSSL from falling back to the default one.
        guard OSSL_PROVIDER_load(context, "null") != nil else {
            OSSL_LIB_CTX_free(context)
            return nil
        }
        return context
    }()

    /// The certificate in `der`, owned by the caller, read by OpenSSL without its key (no
    /// extension cache yet either); nil when `subjectPublicKeyInfo` (the bytes of its
    /// SubjectPublicKeyInfo, which the strict reader found in `der`) is not in an encoding
    /// ``setKey(of:subjectPublicKeyInfo:)`` imports, or the layout check fails: `d2i_X509`
    /// should then be used.
    ///
    /// - Throws: ``CryptoError/Code-swift.struct/invalidCertificate`` when OpenSSL refuses the
    ///   DER, and ``CryptoError/Code-swift.struct/derTrailingBytes`` when it reads fewer bytes
    ///   than `der` has (as for `d2i_X509`).
    static func readWithoutKey(
        _ der: UnsafeBufferPointer<UInt8>, subjectPublicKeyInfo: [UInt8]
    ) throws(CryptoError) -> OpaquePointer? {
        guard let keylessContext, let base = der.baseAddress, der.count <= Int(Int32.max),
            subjectPublicKeyInfo.withUnsafeBytes(PublicKey.isDecoderFreeSPKI)
        else { return nil }
        var cursor: UnsafePointer<UInt8>? = base
        var layoutHolds: Int32 = 0
        guard let x509 = fido2_d2i_x509_keyless(&cursor, der.count, keylessContext, &layoutHolds)
        else {
            guard layoutHolds == 1 else {
                OpenSSLErrorQueue.clear()
                return nil
            }
            throw CryptoError.openSSL(.invalidCertificate, "OpenSSL cannot parse the certificate")
        }
        guard cursor == base + der.count else {
            X509_free(x509)
            OpenSSLErrorQueue.clear()
            throw CryptoError(
                .derTrailingBytes, "OpenSSL read fewer bytes than the certificate has")
        }
        return x509
    }

    /// Imports the key of `subjectPublicKeyInfo` and gives it to `x509` (from
    /// ``readWithoutKey(_:subjectPublicKeyInfo:)``), returning it; nil, leaving the certificate
    /// without a key, when the import refuses the key (an EC point off its curve, which
    /// OpenSSL's decoder refuses too), the SubjectPublicKeyInfo OpenSSL read is not these bytes
    /// (it always is for DER both readers accepted; checked so a key never goes to another
    /// certificate's structure) or the layout check fails.
    @discardableResult
    static func setKey(of x509: OpaquePointer, subjectPublicKeyInfo: [UInt8]) -> PublicKey? {
        guard openSSLSubjectPublicKeyInfo(of: x509) == subjectPublicKeyInfo else {
            OpenSSLErrorQueue.clear()
            return nil
        }
        let imported = subjectPublicKeyInfo.withUnsafeBytes { PublicKey(decoderFreeSPKI: $0) }
        guard let imported, let key = try? imported.box.pointer,
            fido2_x509_set_public_key(x509, key) == 1
        else {
            OpenSSLErrorQueue.clear()
            return nil
        }
        return imported
    }

    /// The DER of the SubjectPublicKeyInfo as OpenSSL holds it in `x509` (re-encoded from its
    /// algorithm and key bits, which needs no key decoder); nil if OpenSSL cannot encode it.
    private static func openSSLSubjectPublicKeyInfo(of x509: OpaquePointer) -> [UInt8]? {
        guard let structure = X509_get_X509_PUBKEY(x509) else { return nil }
        let length = Int(i2d_X509_PUBKEY(structure, nil))
        guard length > 0, length <= 1 << 16 else { return nil }
        var written: Int32 = 0
        let der = [UInt8](unsafeUninitializedCapacity: length) { buffer, initialized in
            var cursor = buffer.baseAddress
            written = i2d_X509_PUBKEY(structure, &cursor)
            initialized = Int(written) == length ? length : 0
        }
        return Int(written) == length ? der : nil
    }
}
