import Fido2Encoding
import Fido2WebAuthnWire

/// An authentication result as the iOS SDK's `startSigning` hands it to the app, every member
/// unpadded base64url.
///
/// A plain value; ``BelvoAuthorizePaymentRequest`` validates it when building the body.
public struct AssertionResponse: Sendable, Hashable {
    /// The credential id, base64url (the body's `id`).
    public var encodedId: String
    /// The credential id again, base64url (the body's `rawId`).
    public var rawId: String
    /// The authenticator data, base64url (`response.authenticatorData`).
    public var authenticatorData: String
    /// The clientDataJSON bytes, base64url (`response.clientDataJSON`).
    public var clientDataJSON: String
    /// The signature, base64url (`response.signature`).
    public var signature: String
    /// The user handle stored with the credential, base64url (`response.userHandle`).
    public var userHandle: String

    /// An authentication result from its six base64url members.
    public init(
        encodedId: String, rawId: String, authenticatorData: String, clientDataJSON: String,
        signature: String, userHandle: String
    ) {
        self.encodedId = encodedId
        self.rawId = rawId
        self.authenticatorData = authenticatorData
        self.clientDataJSON = clientDataJSON
        self.signature = signature
        self.userHandle = userHandle
    }

    /// The SDK's view of a WebAuthn authentication response, every member base64url.
    ///
    /// - Throws: ``BelvoError/Code/authenticatorFailure`` when the response carries no user
    ///   handle: the authorize body requires one, and a platform authenticator always returns it.
    public init(_ response: AuthenticationResponseJSON) throws {
        guard let userHandle = response.response.userHandle, !userHandle.isEmpty else {
            throw BelvoError(
                .authenticatorFailure,
                "the assertion carries no userHandle, which the authorize body requires",
                field: "assertion.response.userHandle")
        }
        self.init(
            encodedId: response.id, rawId: Base64URL.encode(response.rawId),
            authenticatorData: Base64URL.encode(response.response.authenticatorData),
            clientDataJSON: Base64URL.encode(response.response.clientDataJSON),
            signature: Base64URL.encode(response.response.signature),
            userHandle: Base64URL.encode(userHandle))
    }
}
