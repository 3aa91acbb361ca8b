@_spi(Fido2Internals) import Fido2WebAuthnWire

/// What an authentication response says about whose credential it is, read before any
/// verification so the server can find the credential record: by ``credentialId``, and in a
/// discoverable sign-in by ``userHandle`` too.
///
/// Nothing here is verified yet; use it only to look the record up. A reference read from a
/// response keeps the parsed ``response``, so that
/// `RelyingParty.finishAuthentication(_:state:credential:)` verifies it without reading the
/// body again.
public struct CredentialReference: Sendable, Hashable {
    /// The credential ID (`rawId`).
    public let credentialId: [UInt8]
    /// The user handle the authenticator returned, if any (always, for a discoverable
    /// credential).
    public let userHandle: [UInt8]?
    /// The response the reference was read from, parsed; nil for a reference made from its
    /// parts.
    public let response: AuthenticationResponseJSON?

    /// A reference from its parts, with no response.
    public init(credentialId: [UInt8], userHandle: [UInt8]?) {
        self.credentialId = credentialId
        self.userHandle = userHandle
        self.response = nil
    }

    /// The reference a parsed response makes.
    public init(response: AuthenticationResponseJSON) {
        self.credentialId = response.rawId
        self.userHandle = response.response.userHandle
        self.response = response
    }
}
