import Fido2Encoding
@_spi(Fido2Internals) import Fido2WebAuthnWire

/// An assertion that passed every step of WebAuthn Level 3 §7.2.
public struct VerifiedAuthentication: Sendable {
    /// The credential ID.
    public let credentialId: [UInt8]
    /// The signature counter the authenticator reported; store it (§7.2 step 24).
    public let signCount: UInt32
    /// What the counter says about the authenticator.
    public let signCountVerdict: SignCountVerdict
    /// The authenticator data flags.
    public let flags: AuthenticatorDataFlags
    /// The user handle the response carried, if any.
    public let userHandle: [UInt8]?
    /// The authenticator extension outputs, when the authenticator sent any.
    public let extensions: AuthenticatorExtensionOutputs?
    /// The client extension outputs (`clientExtensionResults`), as sent.
    public let clientExtensionResults: JSONObject

    /// ``clientExtensionResults`` read into typed values (credProps, prf, largeBlob, appid,
    /// appidExclude; other outputs in ``ClientExtensionOutputs/unknown``). The client writes
    /// these outputs unsigned: they report, they prove nothing.
    ///
    /// - Throws: `WebAuthnError` (`wrongType`, `invalidValue`) naming the field of a known
    ///   output that has another shape; the ceremony itself does not depend on them.
    public func clientExtensionOutputs() throws(WebAuthnError) -> ClientExtensionOutputs {
        try ClientExtensionOutputs(clientExtensionResults)
    }
    /// The origin the ceremony ran in (one of the allowed ones).
    public let origin: String
    /// The RP ID whose hash matched.
    public let relyingPartyID: String
    /// What the relying party tolerated in this response (its ``RelyingParty/profile`` or a
    /// relaxation), in the order met; empty for a response that follows CTAP2 and WebAuthn to
    /// the letter.
    public let deviations: [ToleratedDeviation]
    /// The credential record with the state this assertion brought (§7.2 step 24): the new
    /// signature counter, BS, and `uvInitialized` set once the user has been verified. Store it
    /// in place of the record the ceremony was verified with.
    public let updatedRecord: CredentialRecord

    /// Whether the user was verified (UV).
    public var userVerified: Bool { flags.contains(.userVerified) }
    /// Whether the credential may be backed up (BE); equal to the record's.
    public var backupEligible: Bool { flags.contains(.backupEligible) }
    /// Whether the credential is backed up now (BS).
    public var backupState: Bool { flags.contains(.backupState) }
}
