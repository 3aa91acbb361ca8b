@_spi(Fido2Internals) import Fido2Crypto
import Fido2TestSupport
import Testing

/// `Certificate(derEncoded:tolerating:)`: the encodings deployed attestation certificates use
/// that DER forbids (a signature BIT STRING with unused bits, a key identifier that is not the
/// SEQUENCE RFC 5280 defines) parse and are reported; the strict parse refuses them; nothing
/// else is let through.
struct CertificateLeniencyTests {
    /// A self-signed end-entity certificate with key identifiers, and its DER.
    static func certificate() throws -> [UInt8] {
        let key = try PrivateKey(generating: .p256)
        let name = try DistinguishedName([.country("SE"), .organization("o"), .commonName("cn")])
        var builder = CertificateBuilder(
            serialNumber: [7], issuer: name, subject: name, notBefore: 1_700_000_000,
            notAfter: 2_000_000_000, subjectPublicKey: try key.publicKey)
        builder.basicConstraints = BasicConstraints(isCertificateAuthority: false)
        builder.subjectKeyIdentifier = Array(repeating: 0x11, count: 20)
        builder.authorityKeyIdentifier = Array(repeating: 0x22, count: 20)
        return try builder.sign(with: key).derEncoded
    }

    /// `der` with the first occurrence of `pattern` replaced by `replacement` (same length).
    static func patch(_ der: [UInt8], _ pattern: [UInt8], _ replacement: [UInt8]) throws -> [UInt8]
    {
        let start = try #require(
            (0...(der.count - pattern.count)).first {
                Array(der[$0..<($0 + pattern.count)]) == pattern
            })
        var patched = der
        patched.replaceSubrange(start..<(start + pattern.count), with: replacement)
        return patched
    }

    @Test func readsASignatureWithUnusedBitsAndReportsIt() throws {
        var der = try Self.certificate()
        // The signature BIT STRING is the last element: 03 len 00 30 … (an ECDSA-Sig-Value).
        let bitString = try #require(
            (0..<(der.count - 3)).last {
                der[$0] == 0x03 && der[$0 + 2] == 0x00 && der[$0 + 3] == 0x30
            })
        // Two unused bits, which are zero (as in the YubiKey certificate).
        der[bitString + 2] = 0x02
        der[der.count - 1] &= 0xfc
        #expect(throws: CryptoError.self) { try Certificate(derEncoded: der) }
        #expect(throws: CryptoError.self) { try Certificate(derEncoded: der, tolerating: []) }
        let lenient = try Certificate(derEncoded: der, tolerating: .unusedSignatureBits)
        #expect(lenient.toleratedDeviations.count == 1)
        #expect(lenient.toleratedDeviations.first?.contains("2 unused bits") == true)
        #expect(lenient.derEncoded == der)
        // Another leniency does not cover it.
        #expect(throws: CryptoError.self) {
            try Certificate(derEncoded: der, tolerating: .malformedKeyIdentifiers)
        }
    }

    /// The count is outside what the issuer signed: a certificate whose signature octets are
    /// unchanged by declaring two unused bits (its last octet ends in two zero bits) still
    /// verifies under the issuer's key when tolerated, as the real YubiKey's chain must.
    @Test func signatureWithDeclaredUnusedBitsStillVerifies() throws {
        for _ in 0..<64 {
            let key = try PrivateKey(generating: .p256)
            let name = try DistinguishedName([.commonName("unused bits")])
            var builder = CertificateBuilder(
                serialNumber: [9], issuer: name, subject: name, notBefore: 1_700_000_000,
                notAfter: 2_000_000_000, subjectPublicKey: try key.publicKey)
            builder.basicConstraints = BasicConstraints(isCertificateAuthority: true)
            var der = try builder.sign(with: key).derEncoded
            guard let last = der.last, last & 0x03 == 0 else { continue }
            let signatureLength = try Certificate(derEncoded: der).signature.count
            let countOffset = der.count - signatureLength - 1
            #expect(der[countOffset] == 0)
            der[countOffset] = 0x02
            let lenient = try Certificate(derEncoded: der, tolerating: .unusedSignatureBits)
            #expect(lenient.derEncoded == der)
            #expect(lenient.isSignatureValid(issuerKey: try key.publicKey))
            #expect(lenient.isIssued(by: lenient))
            // A changed signature octet still fails: only the count is set aside.
            der[der.count - 2] ^= 0x01
            let forged = try Certificate(derEncoded: der, tolerating: .unusedSignatureBits)
            #expect(!forged.isSignatureValid(issuerKey: try key.publicKey))
            return
        }
        Issue.record("no signature ending in two zero bits in 64 tries")
    }

    @Test func readsAMalformedAuthorityKeyIdentifierAsAbsentAndReportsIt() throws {
        let der = try Self.certificate()
        let keyIdentifier = Array(repeating: UInt8(0x22), count: 20)
        // AuthorityKeyIdentifier ::= SEQUENCE { [0] keyIdentifier } becomes an OCTET STRING
        // holding an OCTET STRING, as a FIDO conformance-tool certificate writes it.
        let patched = try Self.patch(
            der, [0x30, 0x16, 0x80, 0x14] + keyIdentifier, [0x04, 0x16, 0x04, 0x14] + keyIdentifier)
        #expect(throws: CryptoError.self) { try Certificate(derEncoded: patched) }
        let lenient = try Certificate(derEncoded: patched, tolerating: .all)
        #expect(lenient.authorityKeyIdentifier == nil)
        #expect(lenient.subjectKeyIdentifier == Array(repeating: 0x11, count: 20))
        #expect(lenient.toleratedDeviations.count == 1)
        #expect(lenient.toleratedDeviations.first?.contains("2.5.29.35") == true)
    }

    @Test func refusesAMalformedBasicConstraintsInEveryProfile() throws {
        let der = try Self.certificate()
        // basicConstraints' value SEQUENCE {} (30 00) becomes an OCTET STRING (04 00).
        let basicConstraints: [UInt8] = [
            0x06, 0x03, 0x55, 0x1d, 0x13, 0x01, 0x01, 0xff, 0x04, 0x02,
        ]
        let patched = try Self.patch(
            der, basicConstraints + [0x30, 0x00], basicConstraints + [0x04, 0x00])
        #expect(throws: CryptoError.self) { try Certificate(derEncoded: patched) }
        #expect(throws: CryptoError.self) { try Certificate(derEncoded: patched, tolerating: .all) }
    }

    @Test func aValidCertificateHasNothingToReport() throws {
        let der = try Self.certificate()
        let certificate = try Certificate(derEncoded: der, tolerating: .all)
        #expect(certificate.toleratedDeviations.isEmpty)
        #expect(certificate.authorityKeyIdentifier == Array(repeating: 0x22, count: 20))
    }

    @Test func refusesWhatOpenSSLRefusesWhateverTheLeniency() throws {
        let der = try Self.certificate()
        #expect(throws: CryptoError.self) {
            try Certificate(derEncoded: der.dropLast(), tolerating: .all)
        }
        #expect(throws: CryptoError.self) {
            try Certificate(derEncoded: der + [0x00], tolerating: .all)
        }
    }
}
