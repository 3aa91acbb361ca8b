import Fido2Crypto
@_spi(Fido2Internals) import Fido2WebAuthnWire

/// Trust in attestation from a verified FIDO metadata BLOB: which entry vouches for an
/// authenticator, which statuses are refused, and what happens to an authenticator the BLOB
/// does not list. Set it as ``AttestationTrustPolicy/metadata``.
///
/// For a statement with a certificate chain (basic, AttCA or AnonCA attestation), the entries
/// are found by the AAGUID of the authenticator data (unless it is zero, as for `fido-u2f`)
/// **and** by the attestation certificate key identifier of every certificate of the chain
/// (``MetadataBLOB/keyIdentifier(of:)``): an authenticator may be listed twice (BLOB no. 31
/// lists the YubiKey 5 NFC by AAGUID for FIDO2 and by key identifier for U2F), and an
/// attacker choosing the AAGUID must not escape the entry that names its attestation key.
/// The primary entry is the AAGUID's when there is one, else the first found by key. Then:
///
/// - a report carrying one of ``refusedStatuses`` in **any** matching entry fails with
///   `WebAuthnError.Code.authenticatorStatusRefused` naming the status (an
///   attestation key compromise that names certificates refuses only chains holding one, see
///   ``MetadataStatusReport/concerns(path:)``), as does a primary entry whose
///   ``MetadataEntry/certificationLevel`` is below ``minimumCertificationLevel``;
/// - the chain is judged against the primary entry's
///   ``MetadataEntry/attestationRootCertificates`` **instead of** the anchors the policy
///   configures for the format: a root of one model does not vouch for another model's AAGUID;
/// - with no entry, a ``Mode/strict`` policy (the default) fails with
///   `WebAuthnError.Code.authenticatorNotInMetadata`; a ``Mode/permissive`` one
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

    /// The primary entry for an authenticator with `aaguid` whose attestation chain is
    /// `chain` (attestation certificate first): the first of
    /// ``entries(aaguid:chain:)``; nil when none matches.
    public func entry(aaguid: AAGUID?, chain: [Certificate]) -> MetadataEntry? {
        entries(aaguid: aaguid, chain: chain).first
    }

    /// Every entry matching an authenticator with `aaguid` whose attestation chain is `chain`
    /// (attestation certificate first), without repeats: the AAGUID's entry first (unless the
    /// AAGUID is zero or unlisted), then those listing the key identifier of a certificate of
    /// the chain, leaf first.
    public func entries(aaguid: AAGUID?, chain: [Certificate]) -> [MetadataEntry] {
        var found: [MetadataEntry] = []
        if let aaguid, aaguid != .zero, let entry = blob.entry(aaguid: aaguid) {
            found.append(entry)
        }
        for certificate in chain {
            guard let identifier = MetadataBLOB.keyIdentifier(of: certificate) else { continue }
            for entry in blob.entries(keyIdentifier: identifier) where !found.contains(entry) {
                found.append(entry)
            }
        }
        return found
    }

    /// Checks the statuses of every entry in `entries` (the primary first) against
    /// ``refusedStatuses`` for the attestation path `path`, and the primary entry's
    /// certification level against ``minimumCertificationLevel``: the worst wins, so one
    /// refused report in any entry refuses.
    ///
    /// - Throws: `WebAuthnError.Code.authenticatorStatusRefused` naming the
    ///   status and its entry, or the level.
    public func checkStatus(of entries: [MetadataEntry], path: [Certificate]) throws {
        switch refusal(of: entries, path: path) {
        case .status(let refused, let entry):
            throw WebAuthnError(
                .authenticatorStatusRefused,
                "the metadata of \"\(entry.description)\" reports \(refused), which the policy refuses"
            )
        case .certificationLevel(let level, let entry):
            throw Self.levelError(level, of: entry, minimum: minimumCertificationLevel)
        case nil:
            return
        }
    }

    /// Why ``checkStatus(of:path:)`` refuses `entries` for the path `path`, or nil when it
    /// accepts them: the first refused status of any entry (the primary first), else the
    /// primary entry's certification level below ``minimumCertificationLevel``.
    public func refusal(
        of entries: [MetadataEntry], path: [Certificate]
    ) -> CredentialReassessment.Refusal? {
        for entry in entries {
            if let refused = entry.firstStatus(in: refusedStatuses, concerning: path) {
                return .status(refused, entry: entry)
            }
        }
        if let primary = entries.first, let minimum = minimumCertificationLevel {
            let level = primary.certificationLevel ?? .notCertified
            if level < minimum { return .certificationLevel(level, entry: primary) }
        }
        return nil
    }

    /// Checks `entry`'s statuses against ``refusedStatuses`` and
    /// ``minimumCertificationLevel``.
    ///
    /// - Throws: `WebAuthnError.Code.authenticatorStatusRefused` naming the
    ///   status or the level.
    public func checkStatus(of entry: MetadataEntry) throws {
        if let refused = entry.firstStatus(in: refusedStatuses) {
            throw WebAuthnError(
                .authenticatorStatusRefused,
                "the metadata of \"\(entry.description)\" reports \(refused), which the policy refuses"
            )
        }
        try checkLevel(of: entry)
    }

    /// Checks `entry`'s certification level against ``minimumCertificationLevel``.
    private func checkLevel(of entry: MetadataEntry) throws(WebAuthnError) {
        if let minimum = minimumCertificationLevel {
            let level = entry.certificationLevel ?? .notCertified
            guard level >= minimum else {
                throw Self.levelError(level, of: entry, minimum: minimum)
            }
        }
    }

    /// The error of a certification level below the minimum.
    private static func levelError(
        _ level: CertificationLevel, of entry: MetadataEntry, minimum: CertificationLevel?
    ) -> WebAuthnError {
        WebAuthnError(
            .authenticatorStatusRefused,
            "the metadata of \"\(entry.description)\" states \(level), below the \(minimum.map { "\($0)" } ?? "level") the policy requires"
        )
    }
}
