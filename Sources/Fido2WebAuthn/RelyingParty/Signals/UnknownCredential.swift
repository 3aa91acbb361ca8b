import Fido2Encoding

extension PublicKeyCredentialSignal {
    /// The argument of `PublicKeyCredential.signalUnknownCredential()` (WebAuthn Level 3 §5.1.10):
    /// `{"rpId":…,"credentialId":…}`, telling the user's passkey provider that the relying party
    /// does not know a credential, so that the provider can hide or delete it.
    ///
    /// Made only by ``RelyingParty/unknownCredentialSignal(for:lookedUp:)`` from the credential
    /// ID a sign-in presented and the server's look-up of it, which found nothing: never from a
    /// verification that failed (an expired ceremony, a bad signature), since the credential may
    /// be perfectly good.
    public struct UnknownCredential: Sendable, Hashable {
        /// The RP ID the credential is scoped to.
        public let relyingPartyID: String
        /// The credential ID the server does not know.
        public let credentialId: [UInt8]

        init(relyingPartyID: String, credentialId: [UInt8]) {
            self.relyingPartyID = relyingPartyID
            self.credentialId = credentialId
        }

        /// The JSON the page passes to `signalUnknownCredential`, the ID as unpadded base64url.
        public func jsonBytes() -> [UInt8] {
            var writer = JSONWriter(
                reservingCapacity: 40 + relyingPartyID.utf8.count + credentialId.count * 4 / 3)
            writer.beginObject()
            writer.name("rpId")
            writer.string(relyingPartyID)
            writer.name("credentialId")
            writer.base64URL(credentialId)
            writer.endObject()
            return writer.bytes
        }
    }
}
