@_spi(Fido2Internals) import Fido2WebAuthnWire

/// What an authentication response says about whose credential it is, read before any
/// verification so the server can find the credential record: by ``credentialId``, and in a
/// discoverable sign-in by ``userHandle`` too.
///
/// Nothing here is verified yet; use it only to look the record up.
public struct CredentialReference: Sendable, Hashable {
    /// The credential ID (`rawId`).
    public let credentialId: [UInt8]
    /// The user handle the authenticator returned, if any (always, for a discoverable
    /// credential).
    public let userHandle: [UInt8]?

    /// A reference from its parts.
    public init(credentialId: [UInt8], userHandle: [UInt8]?) {
        self.credentialId = credentialId
        self.userHandle = userHandle
    }
}
