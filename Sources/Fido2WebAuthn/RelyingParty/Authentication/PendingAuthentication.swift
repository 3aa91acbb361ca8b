@_spi(Fido2Internals) import Fido2WebAuthnWire

/// An authentication ceremony begun: the options to send to the browser and the state to keep
/// until its response comes back.
public struct PendingAuthentication: Sendable, Hashable {
    /// The request options.
    public let options: PublicKeyCredentialRequestOptionsJSON
    /// The state ``RelyingParty/finishAuthentication(responseJSON:state:credential:)``
    /// verifies the response against.
    public let state: AuthenticationState

    /// The options as `PublicKeyCredentialRequestOptionsJSON` text, for the browser's
    /// `PublicKeyCredential.parseRequestOptionsFromJSON`.
    public var optionsJSON: String { options.jsonText() }

    /// A pending authentication from its parts.
    public init(options: PublicKeyCredentialRequestOptionsJSON, state: AuthenticationState) {
        self.options = options
        self.state = state
    }
}
