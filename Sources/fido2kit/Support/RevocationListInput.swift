import Fido2Crypto

/// Reads `--crl` files: PEM (possibly several blocks) or DER.
enum RevocationListInput {
    /// The CRLs of every file in `paths`.
    ///
    /// - Throws: ``CommandFailure`` naming the file that cannot be read or parsed.
    static func read(_ paths: [String]) throws -> [CertificateRevocationList] {
        var lists: [CertificateRevocationList] = []
        for path in paths {
            let bytes = try InputFile.read(path, limit: .crl)
            do {
                // PEM is text starting with a "-----BEGIN" line; anything else is DER.
                let text = bytes.drop { $0 == 0x20 || $0 == 0x0A || $0 == 0x0D || $0 == 0x09 }
                if text.starts(with: Array("-----BEGIN".utf8)) {
                    lists += try CertificateRevocationList.revocationLists(
                        pemEncoded: String(decoding: bytes, as: UTF8.self))
                } else {
                    lists.append(try CertificateRevocationList(derEncoded: bytes))
                }
            } catch {
                throw CommandFailure("\(path): \(error)")
            }
        }
        return lists
    }
}
