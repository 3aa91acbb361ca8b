import Fido2Crypto
@_spi(Fido2Internals) import Fido2WebAuthnWire

/// What a registration's attestation proved, as the relying party judged it: the verdict
/// beside the ``AttestationType`` that the statement claims.
///
/// A statement's type is what it says about itself: a packed statement with an `x5c` chain
/// claims ``AttestationType/basic`` whoever made the certificate. Only a chain that verified to
/// a trust anchor proves it; ``verified(_:)`` says to which kind of anchor. Store the verdict
/// with the credential (``CredentialRecord/attestationTrust``) and decide on it, not on the
/// type.
///
/// A relying party whose ``RegistrationExpectations/acceptedAttestationTypes`` leaves out both
/// ``AttestationType/selfAttestation`` and ``AttestationType/none`` asks for proven
/// attestation: an ``unverified`` chain then fails §7.1 at the trustworthiness step.
public enum AttestationTrust: Sendable, Hashable, CustomStringConvertible {
    /// The certificate chain verified to a trust anchor of the given kind.
    case verified(AttestationTrustAnchor)
    /// Self attestation: signed with the credential's own key; nothing about the
    /// authenticator is proven.
    case selfAttestation
    /// No attestation (the `none` format).
    case none
    /// The statement carried a certificate chain that reached no trust anchor (none were
    /// configured for its format): its signatures and rules verified, but anyone can make
    /// such a chain.
    case unverified
    /// Not known: a record written before verdicts were kept (JSON form version 1), or made
    /// without a registration.
    case unknown

    /// Whether the chain verified to an anchor.
    public var isVerified: Bool {
        if case .verified = self { return true }
        return false
    }

    /// The verdict's name in JSON: `verified-caller`, `verified-well-known-root`,
    /// `verified-metadata`, `self`, `none`, `unverified` or `unknown`.
    public var description: String {
        switch self {
        case .verified(let anchor): "verified-\(anchor.rawValue)"
        case .selfAttestation: "self"
        case .none: "none"
        case .unverified: "unverified"
        case .unknown: "unknown"
        }
    }

    /// The verdict named `name` (as ``description`` writes it); nil for any other text.
    public init?(name: String) {
        switch name {
        case "self": self = .selfAttestation
        case "none": self = .none
        case "unverified": self = .unverified
        case "unknown": self = .unknown
        default:
            let prefix = "verified-"
            guard name.hasPrefix(prefix),
                let anchor = AttestationTrustAnchor(rawValue: String(name.dropFirst(prefix.count)))
            else { return nil }
            self = .verified(anchor)
        }
    }

    /// The verdict for an attestation that verified with `result`; `wellKnownRoots` are the
    /// shipped roots the policy used, told apart from the caller's anchors by their bytes.
    static func of(
        _ result: AttestationVerificationResult, wellKnownRoots: [Certificate]
    ) -> AttestationTrust {
        switch result.trustPath {
        case .verified(let path):
            if result.metadataEntry != nil { return .verified(.metadata) }
            guard let anchor = path.last else { return .verified(.caller) }
            let shipped = wellKnownRoots.contains { $0.derEncoded == anchor.derEncoded }
            return .verified(shipped ? .wellKnownRoot : .caller)
        case .notEvaluated: return .unverified
        case .notApplicable: return result.type == .none ? .none : .selfAttestation
        }
    }
}

/// The kind of trust anchor an attestation chain verified to.
public enum AttestationTrustAnchor: String, Sendable, Hashable {
    /// An anchor the caller configured (``AttestationTrustPolicy/anchors``).
    case caller
    /// A root fido2kit ships (``WellKnownAttestationRoots``).
    case wellKnownRoot = "well-known-root"
    /// A root of the authenticator's FIDO metadata entry (``AttestationTrustPolicy/metadata``).
    case metadata
}
