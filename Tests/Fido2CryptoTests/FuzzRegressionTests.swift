@_spi(Fido2Internals) import Fido2Crypto
import Fido2Vectors
import Testing

/// Inputs the fuzz targets (`Tests/Fuzz`) found crashing, replayed. Memory errors among them
/// show only under AddressSanitizer in an optimized build, as the fuzz targets are built
/// (`Tests/Fuzz/run.sh TARGET SECONDS`); in a plain build these tests pin the behaviour.
@Suite struct FuzzRegressionTests {
    /// fuzz-x509, first run: `Certificate.certificates(pemEncoded:)` read the bundle through a
    /// memory BIO over an array that the optimizer had already released, so `PEM_read_bio` read
    /// freed memory (AddressSanitizer: heap-use-after-free in `BIO_gets`).
    @Test func readsEveryBlockOfAPEMBundleWhileTheTextIsAlive() throws {
        let authority = try TestCertificateAuthority(
            privateKey: PrivateKey(generating: .p256),
            subject: DistinguishedName([.commonName("fuzz regression")]), serialNumber: [7],
            notBefore: 0, notAfter: 4_102_444_800)
        let certificate = authority.certificate
        let pem = try certificate.pemEncoded
        #expect(
            try Certificate.certificates(pemEncoded: pem + pem + pem)
                == [certificate, certificate, certificate])
        #expect(try Certificate.certificates(pemEncoded: pem) == [certificate])
    }

    /// Found by reading, after finding 1: PEM keys, single certificates and CRLs went through
    /// a reader that gave `BIO_new_mem_buf` a pointer escaped from `withUnsafeBytes` in the same
    /// way (a later `defer` that wiped the array happened to keep it alive). They now share the
    /// bundle reader's memory BIO. Each reads its first block, from text made fresh for the call.
    @Test func readsTheFirstPEMBlockWhileTheTextIsAlive() throws {
        let key = try PrivateKey(generating: .p256)
        let other = try PrivateKey(generating: .p256)
        let privatePEM = try key.pemRepresentation
        let publicPEM = try key.publicKey.pemRepresentation
        #expect(
            try PrivateKey(pemRepresentation: String(privatePEM.utf8)).publicKey == key.publicKey)
        #expect(try PublicKey(pemRepresentation: String(publicPEM.utf8)) == key.publicKey)
        // Only the first block is read; what follows it is not.
        let second = try other.publicKey.pemRepresentation
        #expect(try PublicKey(pemRepresentation: publicPEM + second) == key.publicKey)
        #expect(try PublicKey(pemRepresentation: publicPEM + "garbage") == key.publicKey)
        let authority = try TestCertificateAuthority(
            privateKey: key, subject: DistinguishedName([.commonName("fuzz regression")]),
            serialNumber: [7], notBefore: 0, notAfter: 4_102_444_800)
        let certificatePEM = try authority.certificate.pemEncoded
        #expect(
            try Certificate(pemEncoded: certificatePEM + certificatePEM) == authority.certificate)
        let list = try authority.issueRevocationList(
            revoking: [[3]], thisUpdate: 0, nextUpdate: 4_102_444_800)
        #expect(try CertificateRevocationList(pemEncoded: String(try list.pemEncoded.utf8)) == list)
    }

    /// fuzz-x509, CI's 30-second run: a certificate whose issuer had an attribute value of
    /// type ANY holding a SEQUENCE with a malformed inside (an element longer than the SEQUENCE)
    /// was accepted, because OpenSSL keeps such a value as raw bytes and the field walk does not
    /// enter it; the DER reader refused the same bytes. Certificates, CRLs and names now
    /// validate the whole tree first. The input here is made the same way from a test CA's
    /// certificate: the common name's PrintableString becomes a SEQUENCE of the same length whose
    /// one element claims two bytes more than the SEQUENCE holds.
    @Test func refusesACertificateWithAMalformedAttributeValue() throws {
        let authority = try TestCertificateAuthority(
            privateKey: PrivateKey(generating: .p256),
            subject: DistinguishedName([.commonName("fuzz regression")]), serialNumber: [7],
            notBefore: 0, notAfter: 4_102_444_800)
        let good = authority.certificate.derEncoded
        let bad = try Self.corruptingCommonName(good)
        #expect(bad.count == good.count)
        // Each parser reports the DER reader's own error for the bytes: truncation inside the
        // SEQUENCE, not a generic refusal (nor OpenSSL's acceptance).
        #expect(throws: CryptoError.self) { try DERReader.validate(bad[...]) }
        #expect(
            Self.code { () throws in try Certificate(derEncoded: bad) }
                == .derTruncated)
        let name = try Self.corruptingCommonName(authority.certificate.subject.derEncoded)
        #expect(
            Self.code { () throws in try DistinguishedName(derEncoded: name) }
                == .derTruncated)
        let list = try authority.issueRevocationList(
            revoking: [[3]], thisUpdate: 0, nextUpdate: 4_102_444_800)
        let badList = try Self.corruptingCommonName(list.derEncoded)
        #expect(
            Self.code { () throws in try CertificateRevocationList(derEncoded: badList)
            } == .derTruncated)
        // The unpatched forms still parse.
        #expect(try Certificate(derEncoded: good) == authority.certificate)
        #expect(try CertificateRevocationList(derEncoded: list.derEncoded) == list)
    }

    /// `der` with the first common name (OID 2.5.4.3, then a PrintableString or UTF8String of
    /// length L) turned into `30 L 13 L` followed by the first L - 2 bytes of the text.
    static func corruptingCommonName(_ der: [UInt8]) throws -> [UInt8] {
        let oid: [UInt8] = [0x06, 0x03, 0x55, 0x04, 0x03]
        guard
            let start = der.indices.first(where: { index in
                der[index...].starts(with: oid)
                    && der[index...].dropFirst(oid.count).first.map { [0x13, 0x0c].contains($0) }
                        == true
            })
        else { throw CryptoError(.invalidCertificate, "no common name") }
        let header = start + oid.count
        let length = der[header + 1]
        guard length >= 2, header + 2 + Int(length) <= der.count else {
            throw CryptoError(.invalidCertificate, "common name too short to corrupt")
        }
        var patched = der
        patched.replaceSubrange(
            header..<(header + 2 + Int(length)),
            with: [0x30, length, 0x13, length] + der[(header + 2)..<(header + Int(length))])
        return patched
    }

    /// The code of the error `body` throws, or nil when it throws none.
    static func code(_ body: () throws -> some Any) -> CryptoError.Code? {
        do {
            _ = try body()
            return nil
        } catch let error as CryptoError {
            return error.code
        } catch {
            Issue.record("expected a CryptoError, got \(error)")
            return nil
        }
    }
}
