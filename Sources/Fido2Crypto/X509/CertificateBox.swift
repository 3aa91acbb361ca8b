import COpenSSL
import Fido2Support
import Synchronization

/// Owns one OpenSSL `X509` and frees it in `deinit`; the private backing of ``Certificate``,
/// together with the DER and the fields the strict reader parsed.
///
/// OpenSSL reads every certificate when it is made (so a certificate it refuses does not
/// parse). For the key encodings ``DecoderFreeCertificateParser`` imports, the rest of what
/// `d2i_X509` and the first `X509_check_purpose` do (the key, the extension cache) waits until
/// something first uses the `X509` (chain building, `X509_verify`, the trust store): most
/// certificates an attestation carries are only read, and for them that is most of OpenSSL's
/// cost. The completion happens once, under a lock, before ``pointer`` hands the object out;
/// afterwards it is only read and may be shared across threads.
final class CertificateBox: @unchecked Sendable {
    let der: [UInt8]
    let parsed: ParsedCertificate
    private let x509: OpaquePointer
    /// Whether the key and the extension cache are set up.
    private let completed: Atomic<Bool>
    /// Serializes the completion and records, under its lock, whether it ran; nil when the box
    /// was made complete. (Not `LockedState<Void>`: ThreadSanitizer reported the inout access
    /// to a zero-sized state, at the buffer's base address, racing with another thread's
    /// `withUnsafeMutablePointers` before it took the lock.)
    private let completion: LockedState<Bool>?

    private init(x509: OpaquePointer, der: [UInt8], parsed: ParsedCertificate, complete: Bool) {
        self.x509 = x509
        self.der = der
        self.parsed = parsed
        completed = Atomic(complete)
        completion = complete ? nil : LockedState(false)
    }

    deinit { X509_free(x509) }

    /// The `X509`, its key and extension cache set up. The box keeps ownership.
    var pointer: OpaquePointer {
        if !completed.load(ordering: .acquiring), let completion {
            completion.withLock { done in
                guard !done else { return }
                done = true
                DecoderFreeCertificateParser.setKey(
                    of: x509, subjectPublicKeyInfo: parsed.subjectPublicKeyInfo)
                _ = X509_check_purpose(x509, -1, 0)
                OpenSSLErrorQueue.clear()
                completed.store(true, ordering: .releasing)
            }
        }
        return x509
    }

    /// Whether the `X509`'s key and extension cache are set up yet (for tests of the deferral).
    var isComplete: Bool { completed.load(ordering: .acquiring) }

    /// Parses `der` with the strict DER reader (accepting the encodings of `leniency`) and with
    /// OpenSSL (``DecoderFreeCertificateParser`` when the key allows, else `d2i_X509`); both
    /// must accept the whole input.
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
        return try openSSLInput.withUnsafeBufferPointer {
            (buffer) throws(CryptoError) -> CertificateBox in
            guard let base = buffer.baseAddress, buffer.count <= Int(Int32.max) else {
                throw CryptoError(.invalidCertificate, "empty or oversized certificate")
            }
            if let x509 = try DecoderFreeCertificateParser.readWithoutKey(
                buffer, subjectPublicKeyInfo: parsed.subjectPublicKeyInfo)
            {
                return CertificateBox(x509: x509, der: der, parsed: parsed, complete: false)
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
            // Fills OpenSSL's extension cache now, while no other thread can see the object.
            _ = X509_check_purpose(x509, -1, 0)
            OpenSSLErrorQueue.clear()
            return CertificateBox(x509: x509, der: der, parsed: parsed, complete: true)
        }
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
