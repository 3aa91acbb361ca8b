/// Splits an X.509 certificate into tbsCertificate and signature with a minimal DER walk
/// (definite lengths only) — enough to re-sign the W3C vectors' certificates and to find the
/// subject key of real attestation certificates in tests.
struct CertificateParts {
    let tbsCertificate: ArraySlice<UInt8>
    let signature: ArraySlice<UInt8>
    /// The subject's SubjectPublicKeyInfo, as encoded in the certificate.
    let subjectPublicKeyInfo: ArraySlice<UInt8>

    init?(_ der: [UInt8]) {
        guard let outer = Self.element(der, at: 0), outer.tag == 0x30,
            let tbs = Self.element(der, at: outer.contentStart), tbs.tag == 0x30,
            let algorithm = Self.element(der, at: tbs.end), algorithm.tag == 0x30,
            let bits = Self.element(der, at: algorithm.end), bits.tag == 0x03,
            bits.end == outer.end, outer.end == der.count,
            der[bits.contentStart] == 0  // no unused bits
        else { return nil }
        tbsCertificate = der[tbs.start..<tbs.end]
        signature = der[(bits.contentStart + 1)..<bits.end]
        // tbsCertificate: [0] version (optional), serial, signature, issuer, validity, subject,
        // subjectPublicKeyInfo, ...
        var cursor = tbs.contentStart
        if der[cursor] == 0xa0, let version = Self.element(der, at: cursor) { cursor = version.end }
        for _ in 0..<5 {
            guard let field = Self.element(der, at: cursor) else { return nil }
            cursor = field.end
        }
        guard let spki = Self.element(der, at: cursor), spki.tag == 0x30 else { return nil }
        subjectPublicKeyInfo = der[spki.start..<spki.end]
    }

    private struct Element {
        let tag: UInt8
        let start: Int
        let contentStart: Int
        let end: Int
    }

    private static func element(_ der: [UInt8], at start: Int) -> Element? {
        guard start + 2 <= der.count else { return nil }
        var index = start + 1
        var length = Int(der[index])
        index += 1
        if length & 0x80 != 0 {
            let count = length & 0x7f
            guard count >= 1, count <= 3, index + count <= der.count else { return nil }
            length = 0
            for _ in 0..<count {
                length = length << 8 | Int(der[index])
                index += 1
            }
        }
        guard index + length <= der.count else { return nil }
        return Element(tag: der[start], start: start, contentStart: index, end: index + length)
    }
}
