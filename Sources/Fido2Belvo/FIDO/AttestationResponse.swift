import Fido2Encoding
import Fido2WebAuthnWire

/// A registration result as the iOS SDK's `startRegistration` hands it to the app: the new
/// credential's id and the attestation, every member unpadded base64url.
///
/// A plain value; ``BelvoConfirmEnrollmentRequest`` validates it when building the body.
public struct AttestationResponse: Sendable, Hashable {
    /// The credential id, base64url (the body's `id`).
    public var encodedId: String
    /// The credential id again, base64url (the body's `rawId`).
    public var rawId: String
    /// The CBOR attestation object, base64url (`response.attestationObject`).
    public var encodedAttestationObject: String
    /// The clientDataJSON bytes, base64url (`response.clientDataJSON`).
    public var encodedClientDataJSON: String

    /// A registration result from its four base64url members.
    public init(
        encodedId: String, rawId: String, encodedAttestationObject: String,
        encodedClientDataJSON: String
    ) {
        self.encodedId = encodedId
        self.rawId = rawId
        self.encodedAttestationObject = encodedAttestationObject
        self.encodedClientDataJSON = encodedClientDataJSON
    }

    /// The SDK's view of a WebAuthn registration response: its credential id (as `encodedId`
    /// and `rawId`), attestation object and clientDataJSON, base64url. The other members of
    /// `RegistrationResponseJSON` (transports, public key, extension results) are not part of
    /// what the SDK hands over, nor of the confirm body.
    public init(_ response: RegistrationResponseJSON) {
        self.init(
            encodedId: response.id, rawId: Base64URL.encode(response.rawId),
            encodedAttestationObject: Base64URL.encode(response.response.attestationObject),
            encodedClientDataJSON: Base64URL.encode(response.response.clientDataJSON))
    }
}
