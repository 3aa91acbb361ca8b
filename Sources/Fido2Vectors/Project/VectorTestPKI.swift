import Fido2Authenticator
@_spi(Fido2Internals) import Fido2Crypto
import Fido2WebAuthn
import Fido2WebAuthnWire

/// The generated test CA of the project's vectors: a root, an intermediate CA, the packed
/// attestation certificate it issues (WebAuthn §8.2.1, with the AAGUID extension) and a U2F
/// attestation certificate issued by the root. Every key comes from its own seeded draw, every
/// validity period is ``ProjectVectors/notBefore``…``ProjectVectors/notAfter`` and every
/// signature is RFC 6979, so the certificates are the same bytes on every run.
struct VectorTestPKI {
    /// The trust anchor of the `packed` (full) and `fido-u2f` cases.
    let root: TestCertificateAuthority
    /// The CA that issues the packed attestation certificate.
    let intermediate: TestCertificateAuthority
    /// The packed attestation key and its `x5c` (attestation certificate, intermediate).
    let packedAttestationKey: PrivateKey
    let packedChain: [Certificate]
    /// The U2F attestation key and its single certificate.
    let u2fAttestationKey: PrivateKey
    let u2fCertificate: Certificate

    init() throws {
        func key(_ label: String) throws -> PrivateKey {
            try PrivateKey(
                generating: .p256,
                using: DeterministicRandomSource(seed: ProjectVectors.seed(label)))
        }
        func name(_ commonName: String, unit: String) throws -> DistinguishedName {
            try DistinguishedName([
                .country("BR"), .organization("fido2kit test vectors"),
                .organizationalUnit(unit), .commonName(commonName),
            ])
        }
        let notBefore = ProjectVectors.notBefore
        let notAfter = ProjectVectors.notAfter
        root = try TestCertificateAuthority(
            privateKey: key("test root CA key"),
            subject: name("fido2kit test root CA", unit: "Root CA"), serialNumber: [0x01],
            notBefore: notBefore, notAfter: notAfter)
        intermediate = try root.issueIntermediateAuthority(
            privateKey: key("test intermediate CA key"),
            subject: name("fido2kit test intermediate CA", unit: "Intermediate CA"),
            serialNumber: [0x02], notBefore: notBefore, notAfter: notAfter,
            pathLengthConstraint: 0)
        packedAttestationKey = try key("packed attestation key")
        let packed = try intermediate.issuePackedAttestationCertificate(
            subjectKey: packedAttestationKey.publicKey, country: "BR",
            organization: "fido2kit test vectors", commonName: "fido2kit packed attestation",
            aaguid: ProjectVectors.aaguid.bytes, serialNumber: [0x03], notBefore: notBefore,
            notAfter: notAfter)
        packedChain = [packed, intermediate.certificate]
        u2fAttestationKey = try key("fido-u2f attestation key")
        var u2f = try root.builder(
            subject: name("fido2kit U2F attestation", unit: "Authenticator Attestation"),
            subjectKey: u2fAttestationKey.publicKey, serialNumber: [0x04], notBefore: notBefore,
            notAfter: notAfter)
        u2f.basicConstraints = BasicConstraints(isCertificateAuthority: false)
        u2f.keyUsage = .digitalSignature
        u2fCertificate = try u2f.sign(with: root.privateKey)
    }

    /// The software authenticator's attestation setting for `kind`.
    func attestation(_ kind: VectorAttestation) -> AuthenticatorAttestation {
        switch kind {
        case .none: .none
        case .packedSelf: .packedSelf
        case .packedChain:
            .packed(
                attestationKey: packedAttestationKey,
                certificateChain: packedChain.map(\.derEncoded))
        case .fidoU2F:
            .fidoU2F(attestationKey: u2fAttestationKey, certificate: u2fCertificate.derEncoded)
        }
    }
}
