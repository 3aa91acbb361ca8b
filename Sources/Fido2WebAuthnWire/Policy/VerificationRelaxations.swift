/// The ways a relying party may knowingly accept less than WebAuthn Level 3 and CTAP2 require,
/// beyond what its `VerificationProfile` reads. Every relaxation is off by default; each one
/// names what it lets through, and a result lists what it let through as
/// ``ToleratedDeviation``s. A failure that a relaxation would have accepted says so, naming it
/// here and on the command line (``named``).
public struct VerificationRelaxations: OptionSet, Sendable, Hashable {
    /// The raw bits.
    public let rawValue: UInt16

    /// The relaxations of `rawValue`.
    public init(rawValue: UInt16) { self.rawValue = rawValue }

    /// Under the `VerificationProfile.strict` profile, reads attestation objects, attestation
    /// statements and authenticator data (credential public keys, extension outputs) whose CBOR
    /// maps are not in CTAP2 canonical key order, as the FIDO conformance tool and some
    /// authenticators write them; the compatible profile reads them anyway. Every other rule
    /// of the strict profile stays. Command line: `cbor-key-order`.
    public static let acceptsNonCanonicalKeyOrder = VerificationRelaxations(rawValue: 1 << 0)

    /// Registration only (§7.1 step 15): accepts authenticator data whose UP flag is clear, as
    /// a `create()` with `mediation: "conditional"` (an automatic passkey upgrade) produces.
    /// Authentication always requires UP (§7.2 step 16). Command line: `user-presence`.
    public static let allowsRegistrationWithoutUserPresence = VerificationRelaxations(
        rawValue: 1 << 1)

    /// Authentication (§7.2 step 19, "apply Relying Party policy"): accepts an assertion whose
    /// BE flag differs from the one recorded at registration, as some platforms flip BE on
    /// synced passkeys. Without it the compatible profile still accepts (and reports) BE going
    /// from 0 to 1, and refuses 1 to 0; the strict profile refuses both. Command line:
    /// `backup-eligibility-change`.
    public static let acceptsBackupEligibilityChange = VerificationRelaxations(rawValue: 1 << 2)

    /// `android-safetynet` (§8.5): skips the `timestampMs` freshness check, for recorded
    /// responses; the same as `AndroidSafetyNetAttestationOptions.skipsTimestampCheck`.
    /// Command line: `safetynet-timestamp`.
    public static let skipsSafetyNetTimestampCheck = VerificationRelaxations(rawValue: 1 << 3)

    /// `android-safetynet` (§8.5): accepts `ctsProfileMatch: false` when `basicIntegrity` is
    /// true; the same as `AndroidSafetyNetAttestationOptions.acceptsCTSProfileMismatch`.
    /// Command line: `safetynet-cts-profile`.
    public static let acceptsSafetyNetCTSProfileMismatch = VerificationRelaxations(
        rawValue: 1 << 4)

    /// `android-key` (§8.4): accepts authorization lists that omit `origin` or `purpose`
    /// (pre-2019 keystores, the W3C test vector); the same as
    /// `AndroidKeyAttestationOptions.acceptsMissingOriginAndPurpose`. Command line:
    /// `android-key-missing-origin-purpose`.
    public static let acceptsAndroidKeyMissingOriginAndPurpose = VerificationRelaxations(
        rawValue: 1 << 5)

    /// `android-key` (§8.4): takes `origin` and `purpose` from `softwareEnforced` as well as
    /// `teeEnforced`; the same as
    /// `AndroidKeyAttestationOptions.acceptsSoftwareEnforcedAuthorizations`. Command line:
    /// `android-key-software-enforced`.
    public static let acceptsAndroidKeySoftwareEnforcedAuthorizations = VerificationRelaxations(
        rawValue: 1 << 6)

    /// Authentication (§7.2 step 22): a signature counter that does not advance (while the
    /// stored or the received one is non-zero) is reported as
    /// `SignCountVerdict.possibleClone(stored:received:)` and a deviation instead of failing
    /// the ceremony. Credentials that keep no counter (synced passkeys report 0 every time)
    /// pass without it. Command line: `sign-count-regression`.
    public static let acceptsSignCountRegression = VerificationRelaxations(rawValue: 1 << 7)

    /// One relaxation with its names.
    public struct Descriptor: Sendable, Hashable {
        /// The relaxation.
        public let relaxation: VerificationRelaxations
        /// Its command-line name, such as `user-presence`.
        public let name: String
        /// Its name in this library, such as `allowsRegistrationWithoutUserPresence`.
        public let symbol: String
        /// What it lets through, in one line.
        public let summary: String
    }

    /// Every relaxation, in a stable order, with its command-line name.
    public static let named: [Descriptor] = [
        Descriptor(
            relaxation: .allowsRegistrationWithoutUserPresence, name: "user-presence",
            symbol: "allowsRegistrationWithoutUserPresence",
            summary: "registration with the UP flag clear (conditional create)"),
        Descriptor(
            relaxation: .acceptsBackupEligibilityChange, name: "backup-eligibility-change",
            symbol: "acceptsBackupEligibilityChange",
            summary: "an assertion whose BE flag differs from the registered one"),
        Descriptor(
            relaxation: .acceptsSignCountRegression, name: "sign-count-regression",
            symbol: "acceptsSignCountRegression",
            summary: "a signature counter that does not advance (reported, not refused)"),
        Descriptor(
            relaxation: .skipsSafetyNetTimestampCheck, name: "safetynet-timestamp",
            symbol: "skipsSafetyNetTimestampCheck",
            summary: "an android-safetynet timestampMs far from the validation time"),
        Descriptor(
            relaxation: .acceptsSafetyNetCTSProfileMismatch, name: "safetynet-cts-profile",
            symbol: "acceptsSafetyNetCTSProfileMismatch",
            summary: "android-safetynet ctsProfileMatch false with basicIntegrity true"),
        Descriptor(
            relaxation: .acceptsAndroidKeyMissingOriginAndPurpose,
            name: "android-key-missing-origin-purpose",
            symbol: "acceptsAndroidKeyMissingOriginAndPurpose",
            summary: "android-key authorization lists without origin or purpose"),
        Descriptor(
            relaxation: .acceptsAndroidKeySoftwareEnforcedAuthorizations,
            name: "android-key-software-enforced",
            symbol: "acceptsAndroidKeySoftwareEnforcedAuthorizations",
            summary: "android-key origin and purpose from softwareEnforced"),
        Descriptor(
            relaxation: .acceptsNonCanonicalKeyOrder, name: "cbor-key-order",
            symbol: "acceptsNonCanonicalKeyOrder",
            summary: "strict profile: CBOR map keys out of canonical order"),
    ]

    /// The relaxation whose command-line name is `name`, or nil.
    public init?(name: String) {
        guard let descriptor = Self.named.first(where: { $0.name == name }) else { return nil }
        self = descriptor.relaxation
    }

    /// The command-line names of the relaxations in this set, in ``named`` order.
    public var names: [String] {
        Self.named.filter { contains($0.relaxation) }.map(\.name)
    }

    /// The sentence an error adds when `relaxation` would have accepted the input.
    package static func hint(_ relaxation: VerificationRelaxations) -> String {
        guard let descriptor = named.first(where: { $0.relaxation == relaxation }) else {
            return ""
        }
        return " (a relying party that accepts this sets VerificationRelaxations."
            + "\(descriptor.symbol); command line: --relax \(descriptor.name))"
    }
}
