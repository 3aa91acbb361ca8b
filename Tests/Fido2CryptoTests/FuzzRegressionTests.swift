import Fido2Crypto
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
}
