import Fido2CBOR

/// Something an authenticator or client did that CTAP2 or WebAuthn does not allow, which the
/// relying party accepted anyway: under the `VerificationProfile.compatible` profile, or
/// because a named relaxation (``VerificationRelaxations``) says so. Verified results list
/// them so an operator can see what a device did wrong without refusing its user.
public struct ToleratedDeviation: Sendable, Hashable, CustomStringConvertible {
    /// What kind of deviation it is. New kinds may be added, so switch with a `default`.
    public struct Kind: Sendable, Hashable, CustomStringConvertible {
        private enum Value: String, Sendable, Hashable {
            case cborEncoding, certificateEncoding, certificateWithoutBasicConstraints
            case tpmStructure, relaxedCheck, backupEligibilityGained, tokenBindingIgnored
        }

        private let value: Value

        private init(_ value: Value) { self.value = value }

        /// CBOR that is well-formed but not CTAP2 canonical: map keys out of order,
        /// indefinite lengths, or integers and lengths not in their shortest form.
        public static let cborEncoding = Kind(.cborEncoding)
        /// An attestation certificate that is not DER but that OpenSSL reads
        /// (`CertificateLeniency`).
        public static let certificateEncoding = Kind(.certificateEncoding)
        /// An attestation certificate without basicConstraints, read as an end-entity
        /// certificate (RFC 5280 §4.2.1.9).
        public static let certificateWithoutBasicConstraints = Kind(
            .certificateWithoutBasicConstraints)
        /// A TPM structure written as deployed relying parties read it but not as TPM 2.0
        /// Part 2 lays it out (a `pubArea` scheme without its details).
        public static let tpmStructure = Kind(.tpmStructure)
        /// A check that a named relaxation skipped or relaxed, and that the input would have
        /// failed; ``ToleratedDeviation/relaxation`` names it.
        public static let relaxedCheck = Kind(.relaxedCheck)
        /// An assertion whose BE flag is set for a credential registered with BE clear, as
        /// platforms that later sync a credential report it (WebAuthn Level 3 §7.2 step 19
        /// leaves it to the relying party's policy). The compatible profile accepts it and
        /// stores the new BE in the updated credential record.
        public static let backupEligibilityGained = Kind(.backupEligibilityGained)
        /// A clientDataJSON `tokenBinding` member whose status is not a Level 2
        /// `TokenBindingStatus` (an early Edge sent `not-supported`). Level 3 keeps the member
        /// reserved and no longer checks it; the compatible profile ignores it.
        public static let tokenBindingIgnored = Kind(.tokenBindingIgnored)

        /// The kind's name, such as `cborEncoding`.
        public var description: String { value.rawValue }
    }

    /// What kind of deviation it is.
    public let kind: Kind
    /// Where it is: a path into the response, such as
    /// `attestationObject.authData.attestedCredentialData.credentialPublicKey`.
    public let field: String
    /// What was wrong, in words (may change between releases).
    public let detail: String
    /// The byte offset within the field's encoding, when there is one.
    public let offset: Int?
    /// The relaxation that accepted it; nil when the compatible profile did.
    public let relaxation: VerificationRelaxations?

    /// A deviation of `kind` at `field`.
    public init(
        kind: Kind, field: String, detail: String, offset: Int? = nil,
        relaxation: VerificationRelaxations? = nil
    ) {
        self.kind = kind
        self.field = field
        self.detail = detail
        self.offset = offset
        self.relaxation = relaxation
    }

    /// The deviations of a CBOR item read from `field`, offsets moved by `base`.
    static func cbor(_ deviations: [CBORDeviation], field: String, base: Int = 0) -> [Self] {
        deviations.map {
            ToleratedDeviation(
                kind: .cborEncoding, field: field, detail: $0.summary,
                offset: base + $0.offset)
        }
    }

    /// The same deviation with `prefix` put before its field.
    package func prefixingField(_ prefix: String) -> ToleratedDeviation {
        ToleratedDeviation(
            kind: kind, field: "\(prefix).\(field)", detail: detail, offset: offset,
            relaxation: relaxation)
    }

    /// `"attestationObject.attStmt: map keys not in canonical order (offset 12; tolerated by
    /// the compatible profile)"`.
    public var description: String {
        let offsetText = offset.map { "offset \($0); " } ?? ""
        let cause =
            relaxation.map { "accepted by the relaxation \($0.names.joined(separator: ", "))" }
            ?? "tolerated by the compatible profile"
        return "\(field): \(detail) (\(offsetText)\(cause))"
    }
}
