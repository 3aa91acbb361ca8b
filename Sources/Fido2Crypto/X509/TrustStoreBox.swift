import COpenSSL

/// Owns an OpenSSL `X509_STORE` holding the trust anchors, and the set of critical extension
/// identifiers the caller handles; the private backing of ``CertificateChainVerifier``.
///
/// The store is filled once and only read afterwards; OpenSSL locks its lookups, so one store
/// serves concurrent verifications (each takes its own `X509_STORE_CTX`).
final class TrustStoreBox: @unchecked Sendable {
    let store: OpaquePointer
    let anchors: [Certificate]
    /// DER contents octets of each OID the caller allows as an unhandled critical extension.
    let allowedCriticalExtensions: [[UInt8]]

    init(
        anchors: [Certificate], allowedCriticalExtensions: Set<ASN1ObjectIdentifier>
    )
        throws(CryptoError)
    {
        guard let store = X509_STORE_new() else {
            throw CryptoError.openSSL("X509_STORE_new failed")
        }
        for anchor in anchors where X509_STORE_add_cert(store, anchor.box.pointer) != 1 {
            X509_STORE_free(store)
            throw CryptoError.openSSL("X509_STORE_add_cert failed")
        }
        // Anchors may be intermediate CAs: a chain ends at the first certificate in the store.
        X509_STORE_set_flags(store, UInt(X509_V_FLAG_PARTIAL_CHAIN))
        self.store = store
        self.anchors = anchors
        self.allowedCriticalExtensions = allowedCriticalExtensions.sorted().map(\.derContents)
    }

    deinit { X509_STORE_free(store) }

    /// Whether `x509` is one of the anchors (the store holds the anchors' own objects).
    func isAnchor(_ x509: OpaquePointer) -> Bool {
        anchors.contains { $0.box.pointer == x509 }
    }

    /// Whether every critical extension of `x509` that OpenSSL does not process is one the
    /// caller allows.
    func allowsUnhandledCriticalExtensions(of x509: OpaquePointer) -> Bool {
        for index in 0..<max(0, X509_get_ext_count(x509)) {
            guard let item = X509_get_ext(x509, index) else { return false }
            guard X509_EXTENSION_get_critical(item) == 1, X509_supported_extension(item) == 0
            else { continue }
            guard let object = X509_EXTENSION_get_object(item), let data = OBJ_get0_data(object)
            else { return false }
            let contents = UnsafeBufferPointer(start: data, count: Int(OBJ_length(object)))
            guard allowedCriticalExtensions.contains(where: { $0.elementsEqual(contents) }) else {
                return false
            }
        }
        return true
    }
}
