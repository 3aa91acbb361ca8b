import Foundation

/// The body of `POST /payments/br/payment-intents/`: ask for a Biometric Pix payment.
///
/// ```json
/// {"amount": 0.13, "allowed_payment_method_types": ["open_finance_biometric_pix"],
///  "customer": "<uuid>", "description": "…", "statement_description": "…",
///  "payment_method_details": {"open_finance_biometric_pix": {
///      "beneficiary_bank_account": "<uuid>", "enrollment": "<uuid>"}},
///  "confirm": true}
/// ```
/// Every member is required and `confirm` must be true, so the initializer refuses anything
/// else rather than letting Belvo answer 400.
public struct BelvoPaymentIntentRequest: Sendable, Hashable {
    /// The only payment method type Biometric Pix accepts.
    public static let paymentMethodType = "open_finance_biometric_pix"
    /// The largest amount accepted, in reais: well beyond any Pix limit, and small enough that
    /// centavos fit exactly in the arithmetic used to write the number.
    public static let maximumAmount = Decimal(1_000_000_000_000)

    /// The amount in reais (BRL), positive, at most two decimal places (`amount`).
    public let amount: Decimal
    /// The same amount in centavos (exact).
    public let amountInCentavos: Int64
    /// Belvo's id of the paying customer (`customer`).
    public let customer: String
    /// What the payment is for (`description`).
    public let description: String
    /// The text on the payer's statement (`statement_description`).
    public let statementDescription: String
    /// Belvo's id of the merchant's receiving account
    /// (`payment_method_details.open_finance_biometric_pix.beneficiary_bank_account`).
    public let beneficiaryBankAccount: String
    /// Belvo's id of the device's `SUCCEEDED` enrollment
    /// (`payment_method_details.open_finance_biometric_pix.enrollment`).
    public let enrollment: String
    /// Always true (`confirm`).
    public let confirm: Bool

    /// A payment intent request.
    ///
    /// - Throws: ``BelvoError/Code/paymentNotConfirmed`` when `confirm` is false;
    ///   ``BelvoError/Code/invalidAmount`` when `amount` is not positive, has more than two
    ///   decimal places or exceeds ``maximumAmount``; ``BelvoError/Code/missingField`` when a
    ///   string is empty.
    public init(
        amount: Decimal, customer: String, description: String, statementDescription: String,
        beneficiaryBankAccount: String, enrollment: String, confirm: Bool = true
    ) throws {
        guard confirm else {
            throw BelvoError(
                .paymentNotConfirmed,
                "confirm must be true: a Biometric Pix payment intent is created confirmed",
                field: "confirm")
        }
        self.amountInCentavos = try Self.centavos(amount)
        self.amount = amount
        self.customer = try BelvoRequestValidation.required(customer, "customer")
        self.description = try BelvoRequestValidation.required(description, "description")
        self.statementDescription = try BelvoRequestValidation.required(
            statementDescription, "statement_description")
        let details = "payment_method_details.open_finance_biometric_pix"
        self.beneficiaryBankAccount = try BelvoRequestValidation.required(
            beneficiaryBankAccount, "\(details).beneficiary_bank_account")
        self.enrollment = try BelvoRequestValidation.required(enrollment, "\(details).enrollment")
        self.confirm = confirm
    }

    /// The JSON body, members in the documented order; `amount` is a JSON number written in
    /// plain decimal notation (`0.13`, `10.5`, `25`), never through a binary floating point.
    public var body: [UInt8] {
        JSONBody.object([
            ("amount", .number(Self.amountText(amountInCentavos))),
            ("allowed_payment_method_types", .array([.string(Self.paymentMethodType)])),
            ("customer", .string(customer)),
            ("description", .string(description)),
            ("statement_description", .string(statementDescription)),
            (
                "payment_method_details",
                .object([
                    (
                        Self.paymentMethodType,
                        .object([
                            ("beneficiary_bank_account", .string(beneficiaryBankAccount)),
                            ("enrollment", .string(enrollment)),
                        ])
                    )
                ])
            ),
            ("confirm", .bool(confirm)),
        ]).bytes
    }

    /// The amount in centavos, or an ``BelvoError/Code/invalidAmount`` error.
    private static func centavos(_ amount: Decimal) throws(BelvoError) -> Int64 {
        guard amount > 0, amount <= maximumAmount else {
            throw BelvoError(
                .invalidAmount,
                "amount must be positive and at most \(maximumAmount), got \(amount)",
                field: "amount")
        }
        var scaled = amount * 100
        var rounded = Decimal()
        NSDecimalRound(&rounded, &scaled, 0, .plain)
        guard rounded == scaled, let centavos = Int64(rounded.description) else {
            throw BelvoError(
                .invalidAmount, "amount must have at most two decimal places, got \(amount)",
                field: "amount")
        }
        return centavos
    }

    /// A positive amount in centavos in plain decimal notation, in reais.
    private static func amountText(_ centavos: Int64) -> String {
        let reais = centavos / 100
        let cents = centavos % 100
        if cents == 0 { return "\(reais)" }
        if cents % 10 == 0 { return "\(reais).\(cents / 10)" }
        return "\(reais).\(cents < 10 ? "0" : "")\(cents)"
    }
}
