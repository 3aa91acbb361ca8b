// Certificate revocation lists (Fido2Crypto.CertificateRevocationList): parsing, accessors and
// revocation checking with a fuzzed CRL. CRLs come from the relying party, but often from a
// network fetch it does not control, so they are read as hostile.
// dictionary:
// seeds: certificates
@_spi(Fido2Internals) import Fido2Crypto
import FuzzPKI
import FuzzSupport

/// Invariants on every CRL that parses:
/// - its DER is the input, the DER reader accepts the whole tree, and its issuer re-parses
///   from its DER to an equal name;
/// - every accessor answers without trapping;
/// - its signature never verifies under the fuzz CA's key (the fuzzer cannot forge it), so
///   checking a certificate of that CA's against it never succeeds and never says "revoked":
///   revocation checking fails closed with `revocationStatusUnknown`.
@main
enum CRLFuzzer: FuzzTarget {
    static let notBefore: Int64 = 0
    static let notAfter: Int64 = 4_102_444_800
    static let authority: FuzzAuthority = {
        do {
            return try FuzzAuthority(
                name: DistinguishedName([.commonName("fido2kit fuzz CA")]), serial: [1],
                notBefore: notBefore, notAfter: notAfter)
        } catch {
            FuzzCheck.fail("cannot make the fuzz CA: \(error)")
        }
    }()
    static let authorityKey: PublicKey = {
        do {
            return try authority.certificate.publicKey
        } catch {
            FuzzCheck.fail("cannot read the fuzz CA's key: \(error)")
        }
    }()
    static let leaf: Certificate = {
        do {
            return try authority.issue(
                to: DistinguishedName([.country("US"), .commonName("fuzz leaf")]),
                key: PrivateKey(generating: .p256).publicKey, serial: [2])
        } catch {
            FuzzCheck.fail("cannot make the fuzz leaf: \(error)")
        }
    }()

    /// CRLs of the fuzz CA (empty, revoking the leaf, revoking many serials, without
    /// nextUpdate) and of another issuer, so the fuzzer starts from lists that parse.
    static var generatedSeeds: [[UInt8]] {
        let other = try? FuzzAuthority(
            name: DistinguishedName([.country("US"), .commonName("another CA")]), serial: [9],
            notBefore: notBefore, notAfter: notAfter)
        let lists = [
            try? authority.revocationList(revoking: [], thisUpdate: 1, nextUpdate: 2),
            try? authority.revocationList(
                revoking: [[2]], thisUpdate: 1_600_000_000, nextUpdate: nil),
            try? authority.revocationList(
                revoking: (1...40).map { [UInt8($0), 0x7f, UInt8($0)] }, thisUpdate: 0,
                nextUpdate: notAfter),
            try? other?.revocationList(revoking: [[1], [2]], thisUpdate: 5, nextUpdate: 6),
        ]
        return lists.compactMap { $0?.derEncoded }
    }

    /// Makes the fuzz CA, its key and its leaf before fuzzing starts.
    static func prepare() { _ = (authorityKey, leaf) }

    static func fuzz(_ input: [UInt8]) {
        guard let list = try? CertificateRevocationList(derEncoded: input) else { return }
        FuzzCheck.require(list.derEncoded == input, "DER is not kept as given")
        FuzzCheck.require(
            (try? DERReader.validate(input[...])) != nil, "DER reader rejects the tree")
        FuzzCheck.require(
            (try? DistinguishedName(derEncoded: list.issuer.derEncoded)) == list.issuer,
            "issuer does not re-parse")
        _ = (list.version, list.signatureAlgorithm, list.signature, list.tbsCertListDER)
        _ = (list.thisUpdate, list.nextUpdate, list.revokedSerialNumbers, list.extensions)
        _ = (list.description, list.lists(leaf))
        FuzzCheck.require(
            !list.isSignatureValid(issuerKey: authorityKey),
            "a fuzzed CRL verifies under the fuzz CA's key")
        for scope in [RevocationCheck.leaf([list]), .chain([list])] {
            do {
                let verifier = try CertificateChainVerifier(
                    trustAnchors: [authority.certificate], revocation: scope)
                _ = try verifier.verify(leaf, at: 1_700_000_000)
                FuzzCheck.fail("a certificate verified against a fuzzed CRL only")
            } catch let error as CryptoError {
                FuzzCheck.require(
                    error.code == .revocationStatusUnknown,
                    "a fuzzed CRL gave \(error.code), not revocationStatusUnknown")
            } catch {
                FuzzCheck.fail("expected a CryptoError, got \(error)")
            }
        }
        if input.count % 8 == 0 {
            FuzzCheck.require(
                (try? CertificateRevocationList(pemEncoded: list.pemEncoded)) == list,
                "PEM form does not parse to the same CRL")
        }
    }
}
