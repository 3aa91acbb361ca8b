import Fido2Crypto
@_spi(Fido2Internals) import Fido2WebAuthnWire

/// What became of an attestation statement's certificate chain.
public enum TrustPathEvaluation: Sendable, Equatable {
    /// The chain verified to a configured anchor; the path runs from the attestation
    /// certificate to the anchor, both included.
    case verified(path: [Certificate])
    /// The statement's signatures and rules verified, but no anchors are configured for its
    /// format, so the chain was not judged.
    case notEvaluated(reason: String)
    /// The statement carries no certificates to judge (`none`, self attestation).
    case notApplicable
}
