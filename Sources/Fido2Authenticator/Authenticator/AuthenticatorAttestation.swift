import Fido2Crypto
import Fido2WebAuthnWire

/// What attestation the software authenticator produces.
public enum AuthenticatorAttestation: Sendable {
    /// `none`: an empty statement (the AAGUID is still the configured one).
    case none
    /// `packed` self attestation: the credential key signs its own registration.
    case packedSelf
    /// `packed` full attestation: `attestationKey` signs, `certificateChain` (DER, the
    /// attestation certificate first, then any intermediates, not the root) goes in `x5c`.
    case packed(attestationKey: PrivateKey, certificateChain: [[UInt8]])
    /// `fido-u2f`: a U2F attestation by a P-256 `attestationKey` with its `certificate`. Only
    /// ES256 credentials; the flags are UP|AT only, as a U2F device reports.
    case fidoU2F(attestationKey: PrivateKey, certificate: [UInt8])
}
