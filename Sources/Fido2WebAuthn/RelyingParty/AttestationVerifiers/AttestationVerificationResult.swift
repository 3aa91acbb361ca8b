import Fido2Crypto
@_spi(Fido2Internals) import Fido2WebAuthnWire

/// The outcome of verifying an attestation statement (WebAuthn Level 3 §7.1 steps 21–24).
public struct AttestationVerificationResult: Sendable, Equatable {
    /// The statement format identifier, such as `packed`.
    public let format: String
    /// The attestation type the statement proved.
    public let type: AttestationType
    /// The certificates the statement carried (`x5c`), attestation certificate first; empty
    /// when it carried none.
    public let certificates: [Certificate]
    /// Whether and how the chain was judged against the trust policy.
    public let trustPath: TrustPathEvaluation
    /// What the verifier tolerated in the statement (fields relative to the attestation
    /// object: `attStmt.x5c[0]`, …), in the order met.
    public let deviations: [ToleratedDeviation]
    /// The metadata entry whose roots the chain verified to, when the trust policy has
    /// ``AttestationTrustPolicy/metadata`` and the BLOB lists the authenticator; nil otherwise.
    public internal(set) var metadataEntry: MetadataEntry?

    /// Creates a result.
    public init(
        format: String, type: AttestationType, certificates: [Certificate] = [],
        trustPath: TrustPathEvaluation, deviations: [ToleratedDeviation] = [],
        metadataEntry: MetadataEntry? = nil
    ) {
        self.metadataEntry = metadataEntry
        self.format = format
        self.type = type
        self.certificates = certificates
        self.trustPath = trustPath
        self.deviations = deviations
    }
}
