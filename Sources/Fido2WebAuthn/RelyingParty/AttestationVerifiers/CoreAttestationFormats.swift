@_spi(Fido2Internals) import Fido2WebAuthnWire

extension AttestationFormatVerifiers {
    /// `none`, `packed` and `fido-u2f`.
    static let coreFormats: [any AttestationFormatVerifier.Type] = [
        NoneAttestationVerifier.self, PackedAttestationVerifier.self,
        FIDOU2FAttestationVerifier.self,
    ]
}
