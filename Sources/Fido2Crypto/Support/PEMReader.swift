import COpenSSL

/// Reads every PEM block of a text (a certificate bundle) with OpenSSL's PEM reader.
enum PEMBundle {
    /// The DER of each block, in order; every block must carry `label` and no headers.
    static func blocks(_ text: String, label: String) throws(CryptoError) -> [[UInt8]] {
        let utf8 = Array(text.utf8)
        guard !utf8.isEmpty, utf8.count <= 1 << 20 else {
            throw CryptoError(.invalidPEM, "PEM text is empty or larger than 1 MiB")
        }
        // A memory BIO reads the buffer in place, so every read happens inside withUnsafeBytes:
        // after it the optimizer may already have freed the array.
        let result = utf8.withUnsafeBytes { (text) -> Result<[[UInt8]], CryptoError> in
            guard let bio = BIO_new_mem_buf(text.baseAddress, Int32(text.count)) else {
                return .failure(.openSSL("BIO_new_mem_buf failed"))
            }
            defer { BIO_free(bio) }
            return Result { () throws(CryptoError) in try blocks(bio, label: label) }
        }
        return try result.get()
    }

    /// The DER of each block `bio` holds; see ``blocks(_:label:)``.
    private static func blocks(
        _ bio: OpaquePointer, label: String
    ) throws(CryptoError) -> [[UInt8]] {
        var blocks: [[UInt8]] = []
        while true {
            var name: UnsafeMutablePointer<CChar>?
            var header: UnsafeMutablePointer<CChar>?
            var data: UnsafeMutablePointer<UInt8>?
            var length = 0
            let ok = PEM_read_bio(bio, &name, &header, &data, &length) == 1
            defer {
                fido2_openssl_free(name)
                fido2_openssl_free(header)
                fido2_openssl_free(data)
            }
            guard ok, let name, let data, length > 0 else {
                // "No start line" is how the reader reports the end of the text; anything else
                // is a malformed block.
                if !blocks.isEmpty, ERR_GET_REASON(ERR_peek_last_error()) == PEM_R_NO_START_LINE {
                    OpenSSLErrorQueue.clear()
                    break
                }
                throw .openSSL(
                    .invalidPEM,
                    blocks.isEmpty
                        ? "no PEM block found" : "unreadable PEM block after \(blocks.count)")
            }
            let found = String(cString: name)
            guard found == label else {
                throw CryptoError(.invalidPEM, "PEM label is \"\(found)\", expected \"\(label)\"")
            }
            if let header, header.pointee != 0 {
                throw CryptoError(.invalidPEM, "PEM headers are not supported")
            }
            blocks.append(Array(UnsafeBufferPointer(start: data, count: length)))
        }
        return blocks
    }
}
