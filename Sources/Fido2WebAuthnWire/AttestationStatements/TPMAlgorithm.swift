/// A TPM 2.0 algorithm identifier (`TPM_ALG_ID`, TPM 2.0 Part 2 §6.3): key types, hashes,
/// schemes. Any value reads; the common ones are named.
package struct TPMAlgorithm: RawRepresentable, Sendable, Hashable, CustomStringConvertible {
    /// The 16-bit identifier.
    package let rawValue: UInt16

    /// The identifier `rawValue`.
    package init(rawValue: UInt16) { self.rawValue = rawValue }

    /// `TPM_ALG_RSA`.
    package static let rsa = TPMAlgorithm(rawValue: 0x0001)
    /// `TPM_ALG_SHA1`.
    package static let sha1 = TPMAlgorithm(rawValue: 0x0004)
    /// `TPM_ALG_SHA256`.
    package static let sha256 = TPMAlgorithm(rawValue: 0x000B)
    /// `TPM_ALG_SHA384`.
    package static let sha384 = TPMAlgorithm(rawValue: 0x000C)
    /// `TPM_ALG_SHA512`.
    package static let sha512 = TPMAlgorithm(rawValue: 0x000D)
    /// `TPM_ALG_NULL`: no algorithm.
    package static let null = TPMAlgorithm(rawValue: 0x0010)
    /// `TPM_ALG_RSASSA`: RSASSA-PKCS1-v1_5.
    package static let rsassa = TPMAlgorithm(rawValue: 0x0014)
    /// `TPM_ALG_RSAPSS`.
    package static let rsapss = TPMAlgorithm(rawValue: 0x0016)
    /// `TPM_ALG_ECDSA`.
    package static let ecdsa = TPMAlgorithm(rawValue: 0x0018)
    /// `TPM_ALG_ECDAA`: its scheme details carry a count after the hash.
    package static let ecdaa = TPMAlgorithm(rawValue: 0x001A)
    /// `TPM_ALG_ECC`.
    package static let ecc = TPMAlgorithm(rawValue: 0x0023)

    /// `0x000b` and so on.
    package var description: String {
        let hex = Array("0123456789abcdef".utf8)
        let digits = (0..<4).reversed().map { hex[Int(rawValue >> (UInt16($0) * 4) & 0xf)] }
        return "0x" + String(decoding: digits, as: UTF8.self)
    }
}

/// A TPM algorithm selector with the details that follow it when it is not `TPM_ALG_NULL`:
/// `TPMT_SYM_DEF_OBJECT` (key bits and mode), `TPMT_RSA_SCHEME`/`TPMT_ECC_SCHEME` (a hash, and
/// for ECDAA a count), `TPMT_KDF_SCHEME` (a hash).
package struct TPMAlgorithmSelection: Sendable, Equatable {
    /// The selected algorithm.
    package let algorithm: TPMAlgorithm
    /// The details as encoded (empty for `TPM_ALG_NULL`).
    package let details: ArraySlice<UInt8>

    /// The hash algorithm of a scheme's details, when there is one.
    package var hashAlgorithm: TPMAlgorithm? {
        guard details.count >= 2 else { return nil }
        let first = details.startIndex
        return TPMAlgorithm(rawValue: UInt16(details[first]) << 8 | UInt16(details[first + 1]))
    }

    /// Reads an algorithm and its `detailLength(algorithm)` bytes of details.
    init(
        reading cursor: inout BinaryCursor, _ field: String,
        detailLength: (TPMAlgorithm) -> Int
    ) throws(WebAuthnError) {
        algorithm = TPMAlgorithm(rawValue: try cursor.uint16(field))
        details =
            algorithm == .null
            ? cursor.bytes[cursor.index..<cursor.index]
            : try cursor.take(detailLength(algorithm), field + ".details")
    }
}
