/// How Belvo's `user.id` string becomes the WebAuthn user handle bytes.
///
/// Belvo sends `user.id` as a UUID string (`"a5bd0ef9-f8ab-41a2-b968-489761a91de6"`), where
/// WebAuthn's JSON form (`PublicKeyCredentialUserEntityJSON`) expects base64url bytes. The two
/// readings give different handles, and the handle comes back in every assertion's
/// `userHandle`, so the choice must match the device being reproduced:
///
/// - ``utf8``, the default, is what the iOS SDK passes through to the platform authenticator:
///   the UUID text's UTF-8 bytes (36 bytes). An assertion's `userHandle` is then the base64url of
///   that text, and the bank can map it straight back to the UUID.
/// - ``base64url`` is what a generic WebAuthn JSON parser (a browser's
///   `parseCreationOptionsFromJSON`, Android's Credential Manager) does. A UUID's characters all
///   lie in the base64url alphabet and its 36 characters are a multiple of four, so it silently
///   decodes into 27 unrelated bytes rather than failing; use it only to reproduce such a client.
public enum BelvoUserHandleMapping: Sendable, Hashable {
    /// The string's UTF-8 bytes (the iOS SDK's behaviour).
    case utf8
    /// The string decoded as base64url (a WebAuthn JSON client's behaviour).
    case base64url
}
