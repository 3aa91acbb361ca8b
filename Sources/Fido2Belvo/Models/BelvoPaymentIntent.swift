/// A payment intent as Belvo returns it from `POST /payments/br/payment-intents/` and
/// `GET /payment-intents/{id}/`.
///
/// What the app needs sits in `payment_method_information.open_finance_biometric_pix`: the
/// `fido_options` to sign and the ids of the Pix payment (`consent_id`, `end_to_end_id`,
/// `external_payment_id`, `provider_request_id`). The guide does not pin where those ids sit, so
/// ``consentID`` and its siblings also look at the top level of the answer. Only `id` and
/// `status` are required; members Belvo adds are tolerated and ignored.
public struct BelvoPaymentIntent: Decodable, Sendable, Hashable {
    /// `payment_method_information.open_finance_biometric_pix`.
    public struct BiometricPixInformation: Decodable, Sendable, Hashable {
        /// The options for the biometric signature (`fido_options`).
        public let fidoOptions: BelvoFidoAssertionOptions?
        /// The Open Finance consent id (`consent_id`).
        public let consentID: String?
        /// The Pix end-to-end id (`end_to_end_id`).
        public let endToEndID: String?
        /// The payment's id at the institution (`external_payment_id`).
        public let externalPaymentID: String?
        /// The id of the request at the provider (`provider_request_id`).
        public let providerRequestID: String?

        private enum CodingKeys: String, CodingKey {
            case fidoOptions = "fido_options"
            case consentID = "consent_id"
            case endToEndID = "end_to_end_id"
            case externalPaymentID = "external_payment_id"
            case providerRequestID = "provider_request_id"
        }
    }

    /// Belvo's id of the payment intent, used in the authorize and get paths.
    public let id: String
    /// `REQUIRES_ACTION` until authorized, then `PROCESSING`, `SUCCEEDED` or `FAILED`.
    public let status: BelvoStatus
    /// Belvo's id of the paying customer.
    public let customer: String?
    /// What the payment is for.
    public let description: String?
    /// Why the payment failed, as a code (`status_reason_code`).
    public let statusReasonCode: String?
    /// Why the payment failed, in words (`status_reason_message`).
    public let statusReasonMessage: String?
    /// `payment_method_information.open_finance_biometric_pix`, when present.
    public let biometricPix: BiometricPixInformation?
    private let topLevelIDs: [String: String]

    /// The Open Finance consent id (`consent_id`), from the biometric Pix object or the top level.
    public var consentID: String? { biometricPix?.consentID ?? topLevelIDs["consent_id"] }
    /// The Pix end-to-end id (`end_to_end_id`), from the biometric Pix object or the top level.
    public var endToEndID: String? { biometricPix?.endToEndID ?? topLevelIDs["end_to_end_id"] }
    /// The payment's id at the institution (`external_payment_id`), from either place.
    public var externalPaymentID: String? {
        biometricPix?.externalPaymentID ?? topLevelIDs["external_payment_id"]
    }
    /// The id of the request at the provider (`provider_request_id`), from either place.
    public var providerRequestID: String? {
        biometricPix?.providerRequestID ?? topLevelIDs["provider_request_id"]
    }

    /// The `fido_options` to sign, when present.
    public var fidoOptions: BelvoFidoAssertionOptions? { biometricPix?.fidoOptions }

    /// The `fido_options` mapped for the authenticator.
    ///
    /// - Throws: ``BelvoError/Code/malformedFidoOptions`` when the payment intent carries no
    ///   `fido_options` or they cannot be mapped (see ``BelvoAssertionOptions/init(_:)``).
    public func assertionOptions() throws -> BelvoAssertionOptions {
        guard let fidoOptions else {
            throw BelvoError(
                .malformedFidoOptions, "the payment intent carries no fido_options",
                field: "payment_method_information.open_finance_biometric_pix.fido_options")
        }
        return try BelvoAssertionOptions(fidoOptions)
    }

    /// A payment intent decoded from Belvo's answer.
    ///
    /// - Throws: ``BelvoError/Code/malformedFidoOptions`` naming the member at fault when it lies
    ///   inside `fido_options` (as for standalone options);
    ///   ``BelvoError/Code/malformedResponse`` for any other member missing or mistyped.
    public init(json: some Collection<UInt8>) throws {
        do {
            self = try JSONReading.decode(
                Self.self, from: json, code: .malformedResponse, what: "payment intent")
        } catch {
            let fido = "payment_method_information.open_finance_biometric_pix.fido_options"
            guard let field = error.field, field.hasPrefix(fido) else { throw error }
            throw BelvoError(.malformedFidoOptions, error.reason, field: field)
        }
    }

    private enum CodingKeys: String, CodingKey {
        case id, status, customer, description
        case statusReasonCode = "status_reason_code"
        case statusReasonMessage = "status_reason_message"
        case paymentMethodInformation = "payment_method_information"
        case consentID = "consent_id"
        case endToEndID = "end_to_end_id"
        case externalPaymentID = "external_payment_id"
        case providerRequestID = "provider_request_id"
    }

    private enum InformationKeys: String, CodingKey {
        case biometricPix = "open_finance_biometric_pix"
    }

    /// Decodes a payment intent, tolerating unknown members.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        id = try container.decode(String.self, forKey: .id)
        status = try container.decode(BelvoStatus.self, forKey: .status)
        customer = try container.decodeIfPresent(String.self, forKey: .customer)
        description = try container.decodeIfPresent(String.self, forKey: .description)
        statusReasonCode = try container.decodeIfPresent(String.self, forKey: .statusReasonCode)
        statusReasonMessage = try container.decodeIfPresent(
            String.self, forKey: .statusReasonMessage)
        let hasInformation =
            try container.contains(.paymentMethodInformation)
            && !container.decodeNil(forKey: .paymentMethodInformation)
        if !hasInformation {
            biometricPix = nil
        } else {
            let information = try container.nestedContainer(
                keyedBy: InformationKeys.self, forKey: .paymentMethodInformation)
            biometricPix = try information.decodeIfPresent(
                BiometricPixInformation.self, forKey: .biometricPix)
        }
        var ids = [String: String]()
        for key in [CodingKeys.consentID, .endToEndID, .externalPaymentID, .providerRequestID] {
            if let value = try container.decodeIfPresent(String.self, forKey: key) {
                ids[key.rawValue] = value
            }
        }
        topLevelIDs = ids
    }
}
