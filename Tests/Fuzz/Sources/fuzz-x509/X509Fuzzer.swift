// X.509 certificates (Fido2Crypto.Certificate) as attestation statements carry them, their
// accessors, signature checks and chain verification.
// dictionary:
// seeds: certificates
@_spi(Fido2Internals) import Fido2Crypto
import FuzzPKI
import FuzzSupport

/// Invariants on every certificate that parses:
/// - its DER is the input, the DER reader accepts the whole tree, and its names re-parse from
///   their DER to equal names;
/// - every accessor answers without trapping; a self-issued certificate's signature check, the
///   subject key and chain verification against a CA made at start-up never trap, and the
///   fuzzed certificate is never trusted under that CA;
/// - on one input length in eight, its PEM form parses to the same certificate (PEM goes
///   through OpenSSL's encoder, slow under AddressSanitizer).
@main
enum X509Fuzzer: FuzzTarget {
    static let verifier: CertificateChainVerifier = {
        do {
            let authority = try FuzzAuthority(
                name: DistinguishedName([.commonName("fido2kit fuzz CA")]), serial: [1],
                notBefore: 0, notAfter: 4_102_444_800)
            return try CertificateChainVerifier(trustAnchors: [authority.certificate])
        } catch {
            FuzzCheck.fail("cannot make the fuzz CA: \(error)")
        }
    }()

    /// Makes the fuzz CA before fuzzing starts.
    static func prepare() { _ = verifier }

    static func fuzz(_ input: [UInt8]) {
        guard let certificate = try? Certificate(derEncoded: input) else { return }
        FuzzCheck.require(certificate.derEncoded == input, "DER is not kept as given")
        FuzzCheck.require(
            (try? DERReader.validate(input[...])) != nil, "DER reader rejects the tree")
        for name in [certificate.subject, certificate.issuer] {
            FuzzCheck.require(
                (try? DistinguishedName(derEncoded: name.derEncoded)) == name,
                "name does not re-parse")
            _ = name.description
        }

        _ = certificate.description
        _ = (certificate.version, certificate.serialNumber, certificate.signatureAlgorithm)
        _ = (certificate.signature, certificate.tbsCertificateDER, certificate.notBefore)
        _ = certificate.isValid(at: certificate.notAfter)
        _ = (
            certificate.extensions, certificate.basicConstraints, certificate.isCertificateAuthority
        )
        _ = (
            certificate.keyUsage, certificate.extendedKeyUsage, certificate.subjectAlternativeNames
        )
        _ = (certificate.subjectKeyIdentifier, certificate.authorityKeyIdentifier)
        _ = certificate.fidoAAGUID
        for fixture in certificate.extensions { _ = certificate.findExtension(fixture.oid) }
        if let key = try? certificate.publicKey {
            _ = certificate.isSignatureValid(issuerKey: key)
        }
        if certificate.isSelfIssued { _ = certificate.isIssued(by: certificate) }
        FuzzCheck.require(
            (try? verifier.verify(certificate, at: certificate.notBefore)) == nil,
            "a fuzzed certificate chains to the fuzz CA")
        _ = try? verifier.verify(chain: [certificate, certificate])

        guard input.count % 8 == 0 else { return }
        let pem = try? certificate.pemEncoded
        FuzzCheck.require(
            pem.flatMap { try? Certificate(pemEncoded: $0) } == certificate,
            "PEM form does not parse to the same certificate")
        FuzzCheck.require(
            pem.flatMap { try? Certificate.certificates(pemEncoded: $0 + $0) } == [
                certificate, certificate,
            ],
            "a PEM bundle does not parse to its certificates")
    }
}
