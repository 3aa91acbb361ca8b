import Fido2WebAuthn
import Fido2WebAuthnWire

/// The attestation a generated registration carries, and what a relying party that trusts
/// the test root learns from it.
enum VectorAttestation: String, CaseIterable {
    case none
    case packedSelf = "packed-self"
    case packedChain = "packed-chain"
    case fidoU2F = "fido-u2f"

    /// The attestation statement format identifier (`fmt`).
    var format: String {
        switch self {
        case .none: "none"
        case .packedSelf, .packedChain: "packed"
        case .fidoU2F: "fido-u2f"
        }
    }

    /// The attestation type (§6.5.4) the statement proves, as the files name it.
    var attestationType: String {
        switch self {
        case .none: "none"
        case .packedSelf: "self"
        case .packedChain, .fidoU2F: "basic"
        }
    }

    /// What happens to the certificate chain with the test root as the format's anchor.
    var trustPath: String {
        switch self {
        case .none, .packedSelf: "not-applicable"
        case .packedChain, .fidoU2F: "verified"
        }
    }

    /// The conveyance preference the options ask for.
    var conveyance: AttestationConveyancePreference { self == .none ? .none : .direct }
}
