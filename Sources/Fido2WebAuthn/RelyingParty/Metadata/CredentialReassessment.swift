import Fido2Crypto
@_spi(Fido2Internals) import Fido2WebAuthnWire

/// What a (newer) verified metadata BLOB says about a stored credential's authenticator:
/// ``MetadataTrustPolicy/reassess(_:)-(CredentialRecord)`` judges the attestation a record kept
/// (``CredentialRecord/attestationObject``) by the rule registration uses
/// (``MetadataTrustPolicy/entries(aaguid:chain:)`` and ``MetadataTrustPolicy/refusal(of:path:)``).
///
/// A credential registered before its authenticator's model was revoked, or before its
/// attestation key was reported compromised, keeps working until the relying party looks
/// again: re-assess the records after each BLOB refresh and act on the ``Verdict/refused(_:)``
/// ones (ask the user to register another authenticator, or disable the credential).
///
/// The AAGUID and chain are read from the kept attestation object and are not verified again:
/// for a `none` or self attestation the AAGUID is only what the authenticator claimed. A
/// reassessment flags; it does not prove.
public struct CredentialReassessment: Sendable, Hashable {
    /// Why the policy refuses an authenticator.
    public enum Refusal: Sendable, Hashable, CustomStringConvertible {
        /// An entry reports a status the policy refuses (revoked, a key compromise, …).
        case status(AuthenticatorStatus, entry: MetadataEntry)
        /// The primary entry's certification level is below the policy's minimum.
        case certificationLevel(CertificationLevel, entry: MetadataEntry)

        /// The entry that refuses.
        public var entry: MetadataEntry {
            switch self {
            case .status(_, let entry), .certificationLevel(_, let entry): entry
            }
        }

        /// One line: what the entry reports and its description.
        public var description: String {
            switch self {
            case .status(let status, let entry):
                "\"\(entry.description)\" reports \(status.rawValue)"
            case .certificationLevel(let level, let entry):
                "\"\(entry.description)\" states \(level), below the minimum"
            }
        }
    }

    /// The verdict on one record.
    public enum Verdict: Sendable, Hashable {
        /// The BLOB lists the authenticator and the policy refuses it now.
        case refused(Refusal)
        /// The BLOB lists the authenticator and the policy accepts it.
        case accepted
        /// The BLOB does not list the authenticator (by AAGUID nor by key identifier). When the
        /// kept statement has a chain (``CredentialReassessment/keyIdentifiers`` is not
        /// empty), a ``MetadataTrustPolicy/Mode/strict`` policy's registration would refuse it
        /// today (dropped from the BLOB since): treat it as a refusal there.
        case notListed
        /// The record kept no attestation object, or one that does not read (the reason):
        /// nothing to look up.
        case notAssessable(String)
    }

    /// The record's credential ID.
    public let credentialID: [UInt8]
    /// The AAGUID of the kept attestation object, when it has attested credential data.
    public let aaguid: AAGUID?
    /// The attestation certificate key identifiers of the kept chain, leaf first (of each
    /// chain in turn, for a `compound` statement).
    public let keyIdentifiers: [String]
    /// The matching entries, primary first (empty when none matched).
    public let entries: [MetadataEntry]
    /// The verdict.
    public let verdict: Verdict
    /// The number of the BLOB the record was judged by.
    public let blobNumber: Int64

    /// Whether the policy now refuses the record's authenticator.
    public var isRefused: Bool {
        if case .refused = verdict { return true }
        return false
    }
}

extension MetadataTrustPolicy {
    /// Judges `record`'s authenticator by this policy's BLOB, as registration would today: the
    /// entries matching the AAGUID and the attestation chain's key identifiers of the kept
    /// attestation object, refused when any reports a status in ``refusedStatuses`` concerning
    /// that chain, or when the primary entry's level is below ``minimumCertificationLevel``.
    public func reassess(_ record: CredentialRecord) -> CredentialReassessment {
        let blobNumber = blob.number
        guard let bytes = record.attestationObject else {
            return CredentialReassessment(
                credentialID: record.id, aaguid: nil, keyIdentifiers: [], entries: [],
                verdict: .notAssessable("the record kept no attestation object"),
                blobNumber: blobNumber)
        }
        let object: AttestationObject
        do {
            // Lenient: the relying party may have accepted a non-canonical encoding it tolerated.
            object = try AttestationObject(bytes: bytes[...], options: .lenient)
        } catch {
            return CredentialReassessment(
                credentialID: record.id, aaguid: nil, keyIdentifiers: [], entries: [],
                verdict: .notAssessable("the kept attestation object does not read: \(error)"),
                blobNumber: blobNumber)
        }
        let aaguid = object.authenticatorData.attestedCredentialData?.aaguid
        // Each chain is judged as registration judged it: a compound statement's entries were
        // each verified, so a status reported for any one of their chains refuses the record.
        var keyIdentifiers: [String] = []
        var found: [MetadataEntry] = []
        var firstRefusal: CredentialReassessment.Refusal?
        for chain in Self.chains(of: object.statement) {
            keyIdentifiers += chain.compactMap(MetadataBLOB.keyIdentifier(of:))
            let matched = entries(aaguid: aaguid, chain: chain)
            found += matched.filter { entry in !found.contains(entry) }
            if firstRefusal == nil, !matched.isEmpty {
                firstRefusal = refusal(of: matched, path: chain)
            }
        }
        let verdict: CredentialReassessment.Verdict =
            if found.isEmpty {
                .notListed
            } else if let firstRefusal {
                .refused(firstRefusal)
            } else {
                .accepted
            }
        return CredentialReassessment(
            credentialID: record.id, aaguid: aaguid, keyIdentifiers: keyIdentifiers,
            entries: found, verdict: verdict, blobNumber: blobNumber)
    }

    /// ``reassess(_:)-(CredentialRecord)`` for each of `records`, in order.
    public func reassess(_ records: some Sequence<CredentialRecord>) -> [CredentialReassessment] {
        records.map { reassess($0) }
    }

    /// The chains a statement carries: one (empty for `none`, self attestation and unknown
    /// formats), or for a `compound` statement each entry's that has one (one empty chain
    /// when none has).
    static func chains(of statement: AttestationStatement) -> [[Certificate]] {
        guard case .compound(let entries) = statement else { return [chain(of: statement)] }
        let chains = entries.map(chain(of:)).filter { !$0.isEmpty }
        return chains.isEmpty ? [[]] : chains
    }

    /// The certificates of a statement's chain that parse, attestation certificate first
    /// (none for `none`, self attestation and unknown formats; of a `compound` statement, the
    /// first entry's that has one).
    static func chain(of statement: AttestationStatement) -> [Certificate] {
        let encoded: [ArraySlice<UInt8>]
        switch statement {
        case .packed(let packed): encoded = packed.certificates ?? []
        case .fidoU2F(let u2f): encoded = u2f.certificates
        case .tpm(let tpm): encoded = tpm.certificates
        case .androidKey(let android): encoded = android.certificates
        case .apple(let apple): encoded = apple.certificates
        case .androidSafetyNet(let safetyNet): encoded = safetyNet.jws.certificates.map { $0[...] }
        case .compound(let entries):
            return entries.lazy.map(chain(of:)).first { !$0.isEmpty } ?? []
        case .none, .unknown: encoded = []
        }
        return encoded.compactMap { try? Certificate(derEncoded: Array($0)) }
    }
}
