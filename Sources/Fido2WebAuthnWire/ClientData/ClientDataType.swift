/// The ceremony a clientDataJSON belongs to (its `type` member).
///
/// Any string reads; a relying party compares it with the one it expects.
public struct ClientDataType: WebAuthnStringEnumeration {
    /// The spelling in clientDataJSON.
    public let rawValue: String

    /// The type spelled `rawValue`, known or not.
    public init(rawValue: String) {
        self.rawValue = rawValue
    }

    /// `webauthn.create`: a registration.
    public static let create = ClientDataType(rawValue: "webauthn.create")
    /// `webauthn.get`: an authentication.
    public static let get = ClientDataType(rawValue: "webauthn.get")
    /// `payment.get`: a Secure Payment Confirmation authentication.
    public static let paymentGet = ClientDataType(rawValue: "payment.get")
}
