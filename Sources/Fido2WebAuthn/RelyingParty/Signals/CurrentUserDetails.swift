import Fido2Encoding

extension PublicKeyCredentialSignal {
    /// The argument of `PublicKeyCredential.signalCurrentUserDetails()` (WebAuthn Level 3
    /// §5.1.12): `{"rpId":…,"userId":…,"name":…,"displayName":…}`, the account's current names,
    /// so that the user's provider shows them with the account's passkeys.
    ///
    /// Made by ``RelyingParty/currentUserDetailsSignal(userHandle:name:displayName:)``; send it
    /// after a sign-in and after the user renames the account.
    public struct CurrentUserDetails: Sendable, Hashable {
        /// The RP ID the account's credentials are scoped to.
        public let relyingPartyID: String
        /// The account's user handle (`user.id`).
        public let userHandle: [UInt8]
        /// The account's name (`user.name`), such as an email address.
        public let name: String
        /// The account's display name (`user.displayName`).
        public let displayName: String

        init(relyingPartyID: String, userHandle: [UInt8], name: String, displayName: String) {
            self.relyingPartyID = relyingPartyID
            self.userHandle = userHandle
            self.name = name
            self.displayName = displayName
        }

        /// The JSON the page passes to `signalCurrentUserDetails`, the handle as unpadded
        /// base64url.
        public func jsonBytes() -> [UInt8] {
            var writer = JSONWriter(
                reservingCapacity: 64 + relyingPartyID.utf8.count + userHandle.count * 2
                    + name.utf8.count + displayName.utf8.count)
            writer.beginObject()
            writer.name("rpId")
            writer.string(relyingPartyID)
            writer.name("userId")
            writer.base64URL(userHandle)
            writer.name("name")
            writer.string(name)
            writer.name("displayName")
            writer.string(displayName)
            writer.endObject()
            return writer.bytes
        }
    }
}
