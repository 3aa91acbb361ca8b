/// The payloads of the Signal API (WebAuthn Level 3 §5.1.10–§5.1.12), which a page passes to
/// `PublicKeyCredential.signalUnknownCredential`, `signalAllAcceptedCredentials` and
/// `signalCurrentUserDetails` so that the user's passkey provider keeps its list in step with
/// the relying party's.
///
/// Made by ``RelyingParty/unknownCredentialSignal(for:lookedUp:)``,
/// ``RelyingParty/allAcceptedCredentialsSignal(userHandle:records:allowingEmpty:)`` and
/// ``RelyingParty/currentUserDetailsSignal(userHandle:name:displayName:)``.
public enum PublicKeyCredentialSignal {}
