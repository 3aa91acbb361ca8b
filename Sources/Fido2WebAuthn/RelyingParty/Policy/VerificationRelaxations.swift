import Fido2CBOR

/// The ways a relying party may knowingly accept less than WebAuthn Level 3 and CTAP2 require.
/// Every relaxation is off by default; each one names what it lets through.
public struct VerificationRelaxations: OptionSet, Sendable, Hashable {
    /// The raw bits.
    public let rawValue: UInt8

    /// The relaxations of `rawValue`.
    public init(rawValue: UInt8) { self.rawValue = rawValue }

    /// Reads attestation objects, attestation statements and authenticator data (credential
    /// public keys, extension outputs) whose CBOR maps are not in CTAP2 canonical key order, as
    /// the FIDO conformance tool and some authenticators write them. Every other rule of the
    /// strict profile stays: shortest heads, definite lengths, unique keys, valid UTF-8, no
    /// trailing bytes. Signatures cover the bytes as sent, so this changes which encodings
    /// parse, never what is verified. Relying parties that must accept every certified
    /// authenticator should set it.
    public static let acceptsNonCanonicalKeyOrder = VerificationRelaxations(rawValue: 1 << 0)

    /// Registration only (§7.1 step 15): accepts authenticator data whose UP flag is clear, as
    /// a `create()` with `mediation: "conditional"` (an automatic passkey upgrade) produces.
    /// Authentication always requires UP (§7.2 step 16).
    public static let allowsRegistrationWithoutUserPresence = VerificationRelaxations(
        rawValue: 1 << 1)

    /// The CBOR profile the attestation object, authenticator data and COSE keys are read with.
    var cborOptions: CBORDecodingOptions {
        var options = CBORDecodingOptions.strict
        if contains(.acceptsNonCanonicalKeyOrder) { options.checks.remove(.canonicalKeyOrder) }
        return options
    }
}
