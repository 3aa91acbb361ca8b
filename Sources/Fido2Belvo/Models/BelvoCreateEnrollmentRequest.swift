/// The body of `POST /enrollments/`: start enrolling a device with the payer's bank.
///
/// ```json
/// {"type": "open_finance_biometric_pix",
///  "details": {"customer": "<uuid>", "institution": "<uuid>", "name": "…",
///              "platform": "IOS", "callback_url": "https://…", "risk_signals": {…}}}
/// ```
/// `type` and `platform` are fixed (``type``, ``platform``); the risk signals are embedded byte
/// for byte.
public struct BelvoCreateEnrollmentRequest: Sendable, Hashable {
    /// The enrollment `type` Belvo requires for Biometric Pix.
    public static let type = "open_finance_biometric_pix"
    /// The `details.platform` of an iOS device (what the iOS SDK sends).
    public static let platform = "IOS"

    /// Belvo's id of the customer (payer) enrolling (`details.customer`).
    public let customer: String
    /// Belvo's id of the chosen institution (`details.institution`).
    public let institution: String
    /// The enrollment's name (`details.name`).
    public let name: String
    /// The HTTPS app link the bank redirects back to (`details.callback_url`).
    public let callbackURL: String
    /// The device's risk signals (`details.risk_signals`).
    public let riskSignals: BelvoRiskSignals

    /// A create-enrollment request.
    ///
    /// - Throws: ``BelvoError/Code/missingField`` when `customer`, `institution` or `name` is
    ///   empty; ``BelvoError/Code/insecureCallbackURL`` when `callbackURL` is not an absolute
    ///   `https` URL.
    public init(
        customer: String, institution: String, name: String, callbackURL: String,
        riskSignals: BelvoRiskSignals
    ) throws {
        self.customer = try BelvoRequestValidation.required(customer, "details.customer")
        self.institution = try BelvoRequestValidation.required(institution, "details.institution")
        self.name = try BelvoRequestValidation.required(name, "details.name")
        self.callbackURL = try BelvoRequestValidation.httpsURL(callbackURL, "details.callback_url")
        self.riskSignals = riskSignals
    }

    /// The JSON body, members in the documented order.
    public var body: [UInt8] {
        JSONBody.object([
            ("type", .string(Self.type)),
            (
                "details",
                .object([
                    ("customer", .string(customer)),
                    ("institution", .string(institution)),
                    ("name", .string(name)),
                    ("platform", .string(Self.platform)),
                    ("callback_url", .string(callbackURL)),
                    ("risk_signals", .raw(riskSignals.json)),
                ])
            ),
        ]).bytes
    }
}
