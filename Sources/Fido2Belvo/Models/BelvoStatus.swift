/// The `status` of an enrollment or a payment intent.
///
/// A string wrapper rather than an enum: Belvo may add values, and an unknown status must decode
/// (and be compared) rather than fail the whole answer. The documented values are static members.
public struct BelvoStatus: RawRepresentable, Decodable, Sendable, Hashable, CustomStringConvertible
{
    /// The status as Belvo spells it.
    public let rawValue: String

    /// A status from Belvo's spelling.
    public init(rawValue: String) { self.rawValue = rawValue }

    /// Enrollment created or redirected, still waiting for the next step.
    public static let pending = BelvoStatus(rawValue: "PENDING")
    /// Enrollment confirmed, or payment completed.
    public static let succeeded = BelvoStatus(rawValue: "SUCCEEDED")
    /// Enrollment or payment failed; see `status_reason_code` / `status_reason_message`.
    public static let failed = BelvoStatus(rawValue: "FAILED")
    /// Payment intent being processed by the payer's bank.
    public static let processing = BelvoStatus(rawValue: "PROCESSING")
    /// Payment intent waiting for the payer's action (the biometric authorization).
    public static let requiresAction = BelvoStatus(rawValue: "REQUIRES_ACTION")
    /// Payment intent waiting for a payment method.
    public static let requiresPaymentMethod = BelvoStatus(rawValue: "REQUIRES_PAYMENT_METHOD")

    /// Whether polling can stop: `SUCCEEDED` or `FAILED`.
    public var isFinal: Bool { self == .succeeded || self == .failed }

    /// The raw value.
    public var description: String { rawValue }

}
