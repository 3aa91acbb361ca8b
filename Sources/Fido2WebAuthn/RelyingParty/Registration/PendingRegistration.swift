@_spi(Fido2Internals) import Fido2WebAuthnWire

/// A registration ceremony begun: the options to send to the browser and the state to keep
/// until its response comes back.
public struct PendingRegistration: Sendable, Hashable {
    /// The creation options.
    public let options: PublicKeyCredentialCreationOptionsJSON
    /// The state ``RelyingParty/finishRegistration(responseJSON:state:)`` verifies the
    /// response against.
    public let state: RegistrationState

    /// The options as `PublicKeyCredentialCreationOptionsJSON` text, for the browser's
    /// `PublicKeyCredential.parseCreationOptionsFromJSON` (or a library that decodes its
    /// base64url members the same way).
    public var optionsJSON: String { options.jsonText() }

    /// A pending registration from its parts.
    public init(options: PublicKeyCredentialCreationOptionsJSON, state: RegistrationState) {
        self.options = options
        self.state = state
    }
}
