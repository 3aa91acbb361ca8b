import Fido2Crypto
@_spi(Fido2Internals) import Fido2WebAuthnWire

/// One authenticator model of a FIDO metadata BLOB (MDS3 §3.1.1, `MetadataBLOBPayloadEntry`),
/// with the metadata statement fields that attestation verification uses, parsed when the BLOB
/// is read so that look-ups never parse.
public struct MetadataEntry: Sendable, Hashable {
    /// The model's AAGUID (FIDO2 authenticators); nil for U2F and UAF models.
    public let aaguid: AAGUID?
    /// The hex SHA-1 of the subjectPublicKey of the model's attestation certificates (or of
    /// their issuers), lower case: how U2F models are found.
    public let attestationCertificateKeyIdentifiers: [String]
    /// The statement's `description`, such as `YubiKey 5 Series with NFC`.
    public let description: String
    /// The statement's `attestationTypes` (`basic_full`, `basic_surrogate`, `attca`,
    /// `anonca`, …).
    public let attestationTypes: [String]
    /// The statement's `attestationRootCertificates`: the anchors the model's attestation
    /// chains end at. Certificates that do not parse are left out (see
    /// ``unreadableRootCertificateCount``).
    public let attestationRootCertificates: [Certificate]
    /// How many of the statement's `attestationRootCertificates` did not parse.
    public let unreadableRootCertificateCount: Int
    /// The AAGUID of the statement's `authenticatorGetInfo`, when it has one.
    public let authenticatorGetInfoAAGUID: AAGUID?
    /// The status reports, latest (by `effectiveDate`) first.
    public let statusReports: [MetadataStatusReport]
    /// `timeOfLastStatusChange`, `YYYY-MM-DD`, when stated.
    public let timeOfLastStatusChange: String?
    /// The statement's `friendlyNames`: the model's name for people, by language tag
    /// (`en-US`); empty when the statement has none. For display only.
    public let friendlyNames: [String: String]

    /// An entry; the BLOB reader makes them, tests and callers with their own metadata may
    /// too. `statusReports` are sorted latest first (by `effectiveDate`, reports without one
    /// last, ties in the given order).
    public init(
        aaguid: AAGUID?, attestationCertificateKeyIdentifiers: [String] = [],
        description: String, attestationTypes: [String] = [],
        attestationRootCertificates: [Certificate] = [], unreadableRootCertificateCount: Int = 0,
        authenticatorGetInfoAAGUID: AAGUID? = nil, statusReports: [MetadataStatusReport] = [],
        timeOfLastStatusChange: String? = nil, friendlyNames: [String: String] = [:]
    ) {
        self.aaguid = aaguid
        self.attestationCertificateKeyIdentifiers = attestationCertificateKeyIdentifiers.map {
            $0.lowercased()
        }
        self.description = description
        self.attestationTypes = attestationTypes
        self.attestationRootCertificates = attestationRootCertificates
        self.unreadableRootCertificateCount = unreadableRootCertificateCount
        self.authenticatorGetInfoAAGUID = authenticatorGetInfoAAGUID
        self.statusReports = statusReports.enumerated().sorted { lhs, rhs in
            switch (lhs.element.effectiveDate, rhs.element.effectiveDate) {
            case (let left?, let right?) where left != right: left > right
            case (.some, nil): true
            case (nil, .some): false
            default: lhs.offset < rhs.offset
            }
        }.map(\.element)
        self.timeOfLastStatusChange = timeOfLastStatusChange
        self.friendlyNames = friendlyNames
    }

    /// The latest status (that of the first of ``statusReports``); nil without reports.
    public var status: AuthenticatorStatus? { statusReports.first?.status }

    /// The certification level of the latest report that states one (a status such as
    /// `UPDATE_AVAILABLE` states none); nil when no report does.
    public var certificationLevel: CertificationLevel? {
        statusReports.lazy.compactMap(\.status.certificationLevel).first
    }

    /// The first status among `statuses` that any report carries, latest first; nil when none
    /// does.
    public func firstStatus(in statuses: Set<AuthenticatorStatus>) -> AuthenticatorStatus? {
        statusReports.first { statuses.contains($0.status) }?.status
    }

    /// The first status among `statuses` that a report concerning the attestation path `path`
    /// carries (``MetadataStatusReport/concerns(path:)``: a key compromise naming certificates
    /// concerns only paths holding one), latest first; nil when none does.
    public func firstStatus(
        in statuses: Set<AuthenticatorStatus>, concerning path: [Certificate]
    ) -> AuthenticatorStatus? {
        statusReports.first { statuses.contains($0.status) && $0.concerns(path: path) }?.status
    }
}
