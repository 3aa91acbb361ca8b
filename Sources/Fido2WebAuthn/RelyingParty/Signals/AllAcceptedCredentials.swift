import Fido2Encoding

extension PublicKeyCredentialSignal {
    /// The argument of `PublicKeyCredential.signalAllAcceptedCredentials()` (WebAuthn Level 3
    /// §5.1.11): `{"rpId":…,"userId":…,"allAcceptedCredentialIds":[…]}`, the complete list of
    /// one account's credentials; the user's provider hides the account's passkeys that are not
    /// in it.
    ///
    /// Made by
    /// ``RelyingParty/allAcceptedCredentialsSignal(userHandle:records:allowingEmpty:)`` from the
    /// account's credential records, every one of them: a list missing a credential hides it.
    public struct AllAcceptedCredentials: Sendable, Hashable {
        /// The RP ID the credentials are scoped to.
        public let relyingPartyID: String
        /// The account's user handle (`user.id`).
        public let userHandle: [UInt8]
        /// The IDs of every credential the account accepts, in the records' order, each once.
        public let acceptedCredentialIds: [[UInt8]]

        init(relyingPartyID: String, userHandle: [UInt8], acceptedCredentialIds: [[UInt8]]) {
            self.relyingPartyID = relyingPartyID
            self.userHandle = userHandle
            self.acceptedCredentialIds = acceptedCredentialIds
        }

        /// The JSON the page passes to `signalAllAcceptedCredentials`, IDs as unpadded base64url.
        public func jsonBytes() -> [UInt8] {
            var writer = JSONWriter(
                reservingCapacity: 64 + relyingPartyID.utf8.count + userHandle.count * 2
                    + acceptedCredentialIds.reduce(0) { $0 + $1.count * 4 / 3 + 4 })
            writer.beginObject()
            writer.name("rpId")
            writer.string(relyingPartyID)
            writer.name("userId")
            writer.base64URL(userHandle)
            writer.name("allAcceptedCredentialIds")
            writer.beginArray()
            for id in acceptedCredentialIds { writer.base64URL(id) }
            writer.endArray()
            writer.endObject()
            return writer.bytes
        }
    }
}
