import COpenSSL

/// Reads PEM blocks (keys, certificates, CRLs) with OpenSSL's PEM reader.
///
/// Every block must carry the expected label and no headers, so encrypted PEM is refused and
/// OpenSSL is never asked for a passphrase. The copy of the text and each block's DER are wiped
/// once read, since the text may hold a private key.
enum PEMReader {
    /// The DER of the first PEM block of `text`, passed to `body` and then wiped; text after the
    /// block is not read.
    ///
    /// - Throws: ``CryptoError/Code-swift.struct/invalidPEM`` for text that is empty, larger than
    ///   1 MiB or holds no readable block, a block with another label or with headers; what
    ///   `body` throws.
    static func withFirstBlock<R>(
        _ text: String, label: String, _ body: (UnsafeRawBufferPointer) throws(CryptoError) -> R
    ) throws(CryptoError) -> R {
        try withMemoryBIO(text) { (bio) throws(CryptoError) in
            guard let result = try nextBlock(bio, label: label, body) else {
                throw CryptoError.openSSL(.invalidPEM, "no PEM block found")
            }
            return result
        }
    }

    /// The DER of every PEM block of `text` (a certificate bundle), in order.
    ///
    /// - Throws: ``CryptoError/Code-swift.struct/invalidPEM`` as ``withFirstBlock(_:label:_:)``
    ///   does, for any block of the text.
    static func blocks(_ text: String, label: String) throws(CryptoError) -> [[UInt8]] {
        try withMemoryBIO(text) { (bio) throws(CryptoError) in
            var blocks: [[UInt8]] = []
            while let block = try nextBlock(bio, label: label, { Array($0) }) {
                blocks.append(block)
            }
            // "No start line" is how the reader reports the end of the text; anything else is
            // a malformed block.
            guard !blocks.isEmpty, ERR_GET_REASON(ERR_peek_last_error()) == PEM_R_NO_START_LINE
            else {
                throw CryptoError.openSSL(
                    .invalidPEM,
                    blocks.isEmpty
                        ? "no PEM block found" : "unreadable PEM block after \(blocks.count)")
            }
            OpenSSLErrorQueue.clear()
            return blocks
        }
    }

    /// Runs `body` with a memory BIO over a copy of `text`'s UTF-8, which is wiped afterwards.
    private static func withMemoryBIO<R>(
        _ text: String, _ body: (OpaquePointer) throws(CryptoError) -> R
    ) throws(CryptoError) -> R {
        var utf8 = Array(text.utf8)
        defer { SecureBytes.wipe(&utf8) }
        guard !utf8.isEmpty, utf8.count <= 1 << 20 else {
            throw CryptoError(.invalidPEM, "PEM text is empty or larger than 1 MiB")
        }
        // A memory BIO reads the buffer in place, so every read happens inside withUnsafeBytes:
        // after it the optimizer may already have freed the array (fuzz finding 1).
        let result = utf8.withUnsafeBytes { (text) -> Result<R, CryptoError> in
            guard let bio = BIO_new_mem_buf(text.baseAddress, Int32(text.count)) else {
                return .failure(.openSSL("BIO_new_mem_buf failed"))
            }
            defer { BIO_free(bio) }
            return Result { () throws(CryptoError) in try body(bio) }
        }
        return try result.get()
    }

    /// Reads the next block of `bio` and passes its DER to `body`, then wipes it; nil when
    /// OpenSSL reads no block (its reason stays on OpenSSL's error queue).
    private static func nextBlock<R>(
        _ bio: OpaquePointer, label: String,
        _ body: (UnsafeRawBufferPointer) throws(CryptoError) -> R
    ) throws(CryptoError) -> R? {
        var name: UnsafeMutablePointer<CChar>?
        var header: UnsafeMutablePointer<CChar>?
        var data: UnsafeMutablePointer<UInt8>?
        var length = 0
        let ok = PEM_read_bio(bio, &name, &header, &data, &length) == 1
        defer {
            fido2_openssl_free(name)
            fido2_openssl_free(header)
            fido2_openssl_clear_free(data, length)
        }
        guard ok, let name, let data, length > 0 else { return nil }
        let found = String(cString: name)
        guard found == label else {
            throw CryptoError(.invalidPEM, "PEM label is \"\(found)\", expected \"\(label)\"")
        }
        if let header, header.pointee != 0 {
            throw CryptoError(.invalidPEM, "PEM headers (encryption) are not supported")
        }
        return try body(UnsafeRawBufferPointer(start: data, count: length))
    }
}
