/// The flags byte of authenticator data (WebAuthn §6.1), every bit kept, the two reserved ones
/// included, so a parsed value rebuilds to the same byte.
public struct AuthenticatorDataFlags: OptionSet, Sendable, Hashable, CustomStringConvertible {
    /// The flags byte.
    public let rawValue: UInt8

    /// The flags of byte `rawValue`.
    public init(rawValue: UInt8) { self.rawValue = rawValue }

    /// UP (bit 0): the user was present.
    public static let userPresent = AuthenticatorDataFlags(rawValue: 0x01)
    /// RFU1 (bit 1): reserved; kept as read.
    public static let reservedBit1 = AuthenticatorDataFlags(rawValue: 0x02)
    /// UV (bit 2): the user was verified.
    public static let userVerified = AuthenticatorDataFlags(rawValue: 0x04)
    /// BE (bit 3): the credential may be backed up (a multi-device credential).
    public static let backupEligible = AuthenticatorDataFlags(rawValue: 0x08)
    /// BS (bit 4): the credential is backed up now; only meaningful with BE.
    public static let backupState = AuthenticatorDataFlags(rawValue: 0x10)
    /// RFU2 (bit 5): reserved; kept as read.
    public static let reservedBit5 = AuthenticatorDataFlags(rawValue: 0x20)
    /// AT (bit 6): attested credential data follows the sign count.
    public static let attestedCredentialData = AuthenticatorDataFlags(rawValue: 0x40)
    /// ED (bit 7): an extensions map ends the authenticator data.
    public static let extensionData = AuthenticatorDataFlags(rawValue: 0x80)

    /// The set names, such as `UP|UV|AT`, then any reserved bit as `RFU1`/`RFU2`.
    public var description: String {
        let names: [(AuthenticatorDataFlags, String)] = [
            (.userPresent, "UP"), (.reservedBit1, "RFU1"), (.userVerified, "UV"),
            (.backupEligible, "BE"), (.backupState, "BS"), (.reservedBit5, "RFU2"),
            (.attestedCredentialData, "AT"), (.extensionData, "ED"),
        ]
        let set = names.filter { contains($0.0) }.map(\.1)
        return set.isEmpty ? "none" : set.joined(separator: "|")
    }
}
