import Fido2Crypto

/// Trust in attestation from a verified FIDO metadata BLOB: which entry vouches for an
/// authenticator, which statuses are refused, and what happens to an authenticator the BLOB
/// does not list. Set it as ``AttestationTrustPolicy/metadata``.
///
/// For a statement with a certificate chain (basic, AttCA or AnonCA attestation), the entry is
/// found by the AAGUID of the authenticator data or, when that is zero (`fido-u2f`) or not
/// listed, by the attestation certificate key identifier of a certificate of the chain
/// (``MetadataBLOB/keyIdentifier(of:)``, leaf first). Then:
///
/// - an entry with a report carrying one of ``refusedStatuses`` fails with
///   ``WebAuthnError/Code-swift.struct/authenticatorStatusRefused`` naming the status, as does
///   one whose ``MetadataEntry/certificationLevel`` is below ``minimumCertificationLevel``;
/// - the chain is judged against the entry's ``MetadataEntry/attestationRootCertificates``
///   **instead of** the anchors the policy configures for the format: a root of one model does
///   not vouch for another model's AAGUID;
/// - with no entry, a ``Mode/strict`` policy (the default) fails with
///   ``WebAuthnError/Code-swift.struct/authenticatorNotInMetadata``; a ``Mode/permissive`` one
///   judges the chain against the configured anchors as if there were no metadata (trust path
///   not evaluated when there are none).
///
/// Self and none attestation carry no chain, and are not looked up.
public struct MetadataTrustPolicy: Sendable {
    /// What becomes of an attested authenticator the BLOB does not list.
    public enum Mode: Sendable, Hashable {
        /// Registration fails (`authenticatorNotInMetadata`).
        case strict
        /// The chain is judged against the configured anchors, as without metadata.
        case permissive
    }

    /// The verified BLOB.
    public var blob: MetadataBLOB
    /// Statuses that refuse an authenticator when any of its reports carries one; default
    /// ``AuthenticatorStatus/refusedByDefault``.
    public var refusedStatuses: Set<AuthenticatorStatus>
    /// The lowest acceptable certification level; nil (the default) accepts any, including
    /// none.
    public var minimumCertificationLevel: CertificationLevel?
    /// Strict (the default) or permissive about unlisted authenticators.
    public var mode: Mode

    /// A policy trusting `blob`, refusing `refusedStatuses`, requiring
    /// `minimumCertificationLevel` when given, in `mode`.
    public init(
        blob: MetadataBLOB,
        refusedStatuses: Set<AuthenticatorStatus> = AuthenticatorStatus.refusedByDefault,
        minimumCertificationLevel: CertificationLevel? = nil, mode: Mode = .strict
    ) {
        self.blob = blob
        self.refusedStatuses = refusedStatuses
        self.minimumCertificationLevel = minimumCertificationLevel
        self.mode = mode
    }

    /// The entry for an authenticator with `aaguid` whose attestation chain is `chain`
    /// (attestation certificate first): by AAGUID unless it is zero, then by the key
    /// identifier of each certificate of the chain in turn; nil when none matches.
    public func entry(aaguid: AAGUID?, chain: [Certificate]) -> MetadataEntry? {
        if let aaguid, aaguid != .zero, let entry = blob.entry(aaguid: aaguid) { return entry }
        for certificate in chain {
            if let entry = blob.entry(attestationCertificate: certificate) { return entry }
        }
        return nil
    }

    /// Checks `entry`'s statuses against ``refusedStatuses`` and
    /// ``minimumCertificationLevel``.
    ///
    /// - Throws: ``WebAuthnError/Code-swift.struct/authenticatorStatusRefused`` naming the
    ///   status or the level.
    public func checkStatus(of entry: MetadataEntry) throws {
        if let refused = entry.firstStatus(in: refusedStatuses) {
            throw WebAuthnError(
                .authenticatorStatusRefused,
                "the metadata of \"\(entry.description)\" reports \(refused), which the policy refuses"
            )
        }
        if let minimum = minimumCertificationLevel {
            let level = entry.certificationLevel ?? .notCertified
            guard level >= minimum else {
                throw WebAuthnError(
                    .authenticatorStatusRefused,
                    "the metadata of \"\(entry.description)\" states \(level), below the \(minimum) the policy requires"
                )
            }
        }
    }
}
