import COpenSSL

/// Owns one OpenSSL `X509_CRL` and frees it in `deinit`; the private backing of
/// ``CertificateRevocationList``, together with the DER and the fields the strict reader parsed.
///
/// OpenSSL sorts a CRL's revoked entries the first time it looks a serial number up; the box
/// does one lookup at creation, so afterwards the object is only read and may be shared across
/// threads and verifications.
final class CertificateRevocationListBox: @unchecked Sendable {
    let pointer: OpaquePointer
    let der: [UInt8]
    let parsed: ParsedCertificateRevocationList

    private init(pointer: OpaquePointer, der: [UInt8], parsed: ParsedCertificateRevocationList) {
        self.pointer = pointer
        self.der = der
        self.parsed = parsed
    }

    deinit { X509_CRL_free(pointer) }

    /// Parses `der` with the strict DER reader and with OpenSSL's `d2i_X509_CRL`; both must
    /// accept the whole input.
    static func make(der: [UInt8]) throws(CryptoError) -> CertificateRevocationListBox {
        let parsed = try ParsedCertificateRevocationList(der: der)
        let pointer = try der.withUnsafeBufferPointer {
            (buffer) throws(CryptoError) -> OpaquePointer in
            guard let base = buffer.baseAddress, buffer.count <= Int(Int32.max) else {
                throw CryptoError(.invalidRevocationList, "empty or oversized CRL")
            }
            var cursor: UnsafePointer<UInt8>? = base
            guard let crl = d2i_X509_CRL(nil, &cursor, buffer.count) else {
                throw CryptoError.openSSL(.invalidRevocationList, "OpenSSL cannot parse the CRL")
            }
            guard cursor == base + buffer.count else {
                X509_CRL_free(crl)
                OpenSSLErrorQueue.clear()
                throw CryptoError(.derTrailingBytes, "OpenSSL read fewer bytes than the CRL has")
            }
            return crl
        }
        // Sorts the revoked entries now, while no other thread can see the object.
        if let serial = ASN1_INTEGER_new() {
            var entry: OpaquePointer?
            _ = X509_CRL_get0_by_serial(pointer, &entry, serial)
            ASN1_INTEGER_free(serial)
        }
        OpenSSLErrorQueue.clear()
        return CertificateRevocationListBox(pointer: pointer, der: der, parsed: parsed)
    }
}
