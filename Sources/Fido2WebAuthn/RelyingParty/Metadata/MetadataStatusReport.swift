/// One status report of a metadata entry (MDS3 §3.1.3, `StatusReport`): a status and the day
/// it took effect.
public struct MetadataStatusReport: Sendable, Hashable {
    /// The status reported.
    public let status: AuthenticatorStatus
    /// The day the status took effect, `YYYY-MM-DD` as the BLOB writes it; nil when absent.
    public let effectiveDate: String?
    /// The certificate number of a certification status, when stated.
    public let certificateNumber: String?
    /// The certification descriptor (the model's name as certified), when stated.
    public let certificationDescriptor: String?

    /// A report of `status` effective on `effectiveDate`.
    public init(
        status: AuthenticatorStatus, effectiveDate: String? = nil,
        certificateNumber: String? = nil, certificationDescriptor: String? = nil
    ) {
        self.status = status
        self.effectiveDate = effectiveDate
        self.certificateNumber = certificateNumber
        self.certificationDescriptor = certificationDescriptor
    }
}
