/// How a client may reach an authenticator (WebAuthn `AuthenticatorTransport`).
public struct AuthenticatorTransport: WebAuthnStringEnumeration {
    /// The spelling in JSON.
    public let rawValue: String

    /// The value spelled `rawValue`, known or not.
    public init(rawValue: String) {
        self.rawValue = rawValue
    }

    /// `usb`: a removable USB authenticator.
    public static let usb = AuthenticatorTransport(rawValue: "usb")

    /// `nfc`: Near Field Communication.
    public static let nfc = AuthenticatorTransport(rawValue: "nfc")

    /// `ble`: Bluetooth Low Energy.
    public static let ble = AuthenticatorTransport(rawValue: "ble")

    /// `smart-card`: an ISO/IEC 7816 smart card with contacts.
    public static let smartCard = AuthenticatorTransport(rawValue: "smart-card")

    /// `hybrid`: a phone reached through the hybrid (caBLE) transport.
    public static let hybrid = AuthenticatorTransport(rawValue: "hybrid")

    /// `internal`: a platform authenticator built into the client device.
    public static let `internal` = AuthenticatorTransport(rawValue: "internal")
}
