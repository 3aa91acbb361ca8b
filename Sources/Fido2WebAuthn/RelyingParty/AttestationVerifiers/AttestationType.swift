@_spi(Fido2Internals) import Fido2WebAuthnWire

/// The attestation types of WebAuthn Level 3 §6.5.4: what an attestation statement proves about
/// where a credential was made.
public enum AttestationType: String, Sendable, Hashable, CustomStringConvertible {
    /// No attestation: the `none` format.
    case none
    /// Self attestation: signed with the credential's own private key.
    case selfAttestation = "self"
    /// Basic attestation: signed with an attestation key certified by a vendor (`x5c`).
    case basic
    /// Attestation CA: signed with a per-credential or per-device key certified by an
    /// attestation CA (TPM AIKs).
    case attestationCA = "attCA"
    /// Anonymization CA: certificates made per credential by an anonymization service (Apple).
    case anonymizationCA = "anonCA"

    /// The name used in JSON output, e.g. `self` or `attCA`.
    public var description: String { rawValue }
}
