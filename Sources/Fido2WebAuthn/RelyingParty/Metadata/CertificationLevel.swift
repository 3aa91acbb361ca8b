@_spi(Fido2Internals) import Fido2WebAuthnWire

/// A FIDO certification level, ordered from ``notCertified`` to ``l3Plus``, as the statuses of
/// a metadata entry state it (see ``AuthenticatorStatus/certificationLevel``).
public enum CertificationLevel: Int, Sendable, Hashable, Comparable, CaseIterable,
    CustomStringConvertible
{
    /// `NOT_FIDO_CERTIFIED`.
    case notCertified = 0
    /// `FIDO_CERTIFIED_L1` (and the older `FIDO_CERTIFIED`).
    case l1
    /// `FIDO_CERTIFIED_L1plus`.
    case l1Plus
    /// `FIDO_CERTIFIED_L2`.
    case l2
    /// `FIDO_CERTIFIED_L2plus`.
    case l2Plus
    /// `FIDO_CERTIFIED_L3`.
    case l3
    /// `FIDO_CERTIFIED_L3plus`.
    case l3Plus

    /// Orders levels from the lowest.
    public static func < (lhs: Self, rhs: Self) -> Bool { lhs.rawValue < rhs.rawValue }

    /// The status that states this level: `FIDO_CERTIFIED_L1`, …, `NOT_FIDO_CERTIFIED`.
    public var status: AuthenticatorStatus {
        switch self {
        case .notCertified: .notFIDOCertified
        case .l1: .fidoCertifiedL1
        case .l1Plus: .fidoCertifiedL1Plus
        case .l2: .fidoCertifiedL2
        case .l2Plus: .fidoCertifiedL2Plus
        case .l3: .fidoCertifiedL3
        case .l3Plus: .fidoCertifiedL3Plus
        }
    }

    /// The level named by its status (`FIDO_CERTIFIED_L2`) or, case-insensitively, its short
    /// name (`L2`, `l1plus`, `not-certified`); nil for anything else.
    public init?(name: String) {
        if let level = AuthenticatorStatus(name).certificationLevel {
            self = level
            return
        }
        switch name.lowercased() {
        case "not-certified", "none": self = .notCertified
        case "l1": self = .l1
        case "l1plus", "l1+": self = .l1Plus
        case "l2": self = .l2
        case "l2plus", "l2+": self = .l2Plus
        case "l3": self = .l3
        case "l3plus", "l3+": self = .l3Plus
        default: return nil
        }
    }

    /// The status spelling, such as `FIDO_CERTIFIED_L1`.
    public var description: String { status.rawValue }
}
