import COpenSSL

/// Owns one OpenSSL `X509` and frees it in `deinit`; the private backing of ``Certificate``,
/// together with the DER and the fields the strict reader parsed.
///
/// OpenSSL caches a certificate's decoded extensions inside the `X509` the first time it needs
/// them; the box fills that cache at creation (`X509_check_purpose`), so afterwards the object
/// is only read and may be shared across threads.
final class CertificateBox: @unchecked Sendable {
    let pointer: OpaquePointer
    let der: [UInt8]
    let parsed: ParsedCertificate

    private init(pointer: OpaquePointer, der: [UInt8], parsed: ParsedCertificate) {
        self.pointer = pointer
        self.der = der
        self.parsed = parsed
    }

    deinit { X509_free(pointer) }

    /// Parses `der` with the strict DER reader (accepting the encodings of `leniency`) and with
    /// OpenSSL's `d2i_X509` (through ``DecoderFreeCertificateParser`` when the key allows);
    /// both must accept the whole input.
    static func make(
        der: [UInt8], leniency: CertificateLeniency = []
    ) throws(CryptoError) -> CertificateBox {
        let parsed = try ParsedCertificate(der: der, leniency: leniency)
        // A tolerated unused-bit count goes to OpenSSL as zero: the octet is outside what the
        // issuer signed (the TBSCertificate), and OpenSSL refuses to verify a signature whose
        // BIT STRING declares unused bits. The signature octets, the last of the DER, stay.
        var openSSLInput = der
        if parsed.signatureUnusedBitCount != 0 {
            let countOffset = der.count - parsed.signature.count - 1
            guard countOffset > 0, Int(der[countOffset]) == parsed.signatureUnusedBitCount else {
                throw CryptoError(.invalidCertificate, "signature BIT STRING not where expected")
            }
            openSSLInput[countOffset] = 0
        }
        let pointer = try openSSLInput.withUnsafeBufferPointer {
            (buffer) throws(CryptoError) -> OpaquePointer in
            guard let base = buffer.baseAddress, buffer.count <= Int(Int32.max) else {
                throw CryptoError(.invalidCertificate, "empty or oversized certificate")
            }
            if let x509 = try DecoderFreeCertificateParser.parse(
                buffer, subjectPublicKeyInfo: parsed.subjectPublicKeyInfo)
            {
                return x509
            }
            var cursor: UnsafePointer<UInt8>? = base
            guard let x509 = d2i_X509(nil, &cursor, buffer.count) else {
                throw CryptoError.openSSL(
                    .invalidCertificate, "OpenSSL cannot parse the certificate")
            }
            guard cursor == base + buffer.count else {
                X509_free(x509)
                OpenSSLErrorQueue.clear()
                throw CryptoError(
                    .derTrailingBytes, "OpenSSL read fewer bytes than the certificate has")
            }
            return x509
        }
        // Fills OpenSSL's extension cache now, while no other thread can see the object.
        _ = X509_check_purpose(pointer, -1, 0)
        OpenSSLErrorQueue.clear()
        return CertificateBox(pointer: pointer, der: der, parsed: parsed)
    }

    /// Takes a reference to an `X509` that OpenSSL handed out (a chain element), re-reading it
    /// from its DER.
    static func copy(of x509: OpaquePointer) throws(CryptoError) -> CertificateBox {
        let length = Int(i2d_X509(x509, nil))
        guard length > 0 else { throw CryptoError.openSSL("cannot encode a chain certificate") }
        var written: Int32 = 0
        let der = [UInt8](unsafeUninitializedCapacity: length) { buffer, initialized in
            var cursor = buffer.baseAddress
            written = i2d_X509(x509, &cursor)
            initialized = Int(written) == length ? length : 0
        }
        guard Int(written) == length else {
            throw CryptoError.openSSL("cannot encode a chain certificate")
        }
        return try make(der: der)
    }
}
