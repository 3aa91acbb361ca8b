import Fido2Encoding
import Fido2WebAuthn

/// The Signal API payloads the page passes to `PublicKeyCredential.signal…` where the browser
/// has them, made by fido2kit's relying party and written here as members of the server's
/// JSON answers (the page reads one JSON document per answer).
enum SignalPayloads {
    /// `signalUnknownCredential`'s argument: `{"rpId", "credentialId"}`.
    struct UnknownCredential: Encodable, Sendable {
        let rpId: String
        let credentialId: String

        init(_ signal: PublicKeyCredentialSignal.UnknownCredential) {
            rpId = signal.relyingPartyID
            credentialId = Base64URL.encode(signal.credentialId)
        }
    }

    /// `signalAllAcceptedCredentials`'s argument: `{"rpId", "userId",
    /// "allAcceptedCredentialIds"}`.
    struct AllAcceptedCredentials: Encodable, Sendable {
        let rpId: String
        let userId: String
        let allAcceptedCredentialIds: [String]

        init(_ signal: PublicKeyCredentialSignal.AllAcceptedCredentials) {
            rpId = signal.relyingPartyID
            userId = Base64URL.encode(signal.userHandle)
            allAcceptedCredentialIds = signal.acceptedCredentialIds.map { Base64URL.encode($0) }
        }
    }

    /// `signalCurrentUserDetails`'s argument: `{"rpId", "userId", "name", "displayName"}`.
    struct CurrentUserDetails: Encodable, Sendable {
        let rpId: String
        let userId: String
        let name: String
        let displayName: String

        init(_ signal: PublicKeyCredentialSignal.CurrentUserDetails) {
            rpId = signal.relyingPartyID
            userId = Base64URL.encode(signal.userHandle)
            name = signal.name
            displayName = signal.displayName
        }
    }
}
