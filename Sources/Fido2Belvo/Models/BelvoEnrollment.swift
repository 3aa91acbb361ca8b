/// An enrollment as Belvo returns it from `POST /enrollments/`, `GET /enrollments/{id}/`,
/// `GET /enrollments/?device_id=` and `POST /enrollments/complete-redirection/`.
///
/// Only `id` and `status` are required; the other documented members are optional because not
/// every answer carries them, and members Belvo adds are tolerated and ignored.
public struct BelvoEnrollment: Decodable, Sendable, Hashable {
    /// The `details` object of an enrollment.
    public struct Details: Decodable, Sendable, Hashable {
        /// The detailed state, e.g. `AWAITING_ACCOUNT_HOLDER_VALIDATION` right after creation.
        public let status: String?
        /// Where to send the user to approve the enrollment in their bank app (`redirect_url`).
        public let redirectURL: String?
        /// Belvo's id of the customer.
        public let customer: String?
        /// Belvo's id of the institution.
        public let institution: String?
        /// The enrollment's name.
        public let name: String?
        /// The device platform, `IOS` for this adapter.
        public let platform: String?
        /// The app link the bank redirects back to (`callback_url`).
        public let callbackURL: String?

        private enum CodingKeys: String, CodingKey {
            case status, customer, institution, name, platform
            case redirectURL = "redirect_url"
            case callbackURL = "callback_url"
        }
    }

    /// Belvo's id of the enrollment, used in the later enrollment paths.
    public let id: String
    /// `PENDING` until confirmed, then `SUCCEEDED` or `FAILED`.
    public let status: BelvoStatus
    /// The enrollment type, `open_finance_biometric_pix`.
    public let type: String?
    /// The details object (redirect URL and the detailed state).
    public let details: Details?
    /// Why the enrollment failed, as a code (`status_reason_code`).
    public let statusReasonCode: String?
    /// Why the enrollment failed, in words (`status_reason_message`).
    public let statusReasonMessage: String?
    /// When the enrollment was created (`created_at`, ISO 8601).
    public let createdAt: String?
    /// Your own id for the enrollment, when you set one (`external_id`).
    public let externalID: String?

    private enum CodingKeys: String, CodingKey {
        case id, status, type, details
        case statusReasonCode = "status_reason_code"
        case statusReasonMessage = "status_reason_message"
        case createdAt = "created_at"
        case externalID = "external_id"
    }
}
