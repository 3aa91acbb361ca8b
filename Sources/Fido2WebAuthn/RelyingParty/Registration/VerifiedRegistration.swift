import Fido2Crypto
import Fido2Encoding
@_spi(Fido2Internals) import Fido2WebAuthnWire

/// A registration that passed every step of WebAuthn Level 3 §7.1: the new credential and
/// what its attestation proved.
public struct VerifiedRegistration: Sendable {
    /// The credential ID.
    public let credentialId: [UInt8]
    /// The credential public key.
    public let credentialPublicKey: COSEKey
    /// The credential public key exactly as the authenticator encoded it (COSE_Key).
    public let credentialPublicKeyBytes: [UInt8]
    /// The initial signature counter.
    public let signCount: UInt32
    /// The authenticator data flags.
    public let flags: AuthenticatorDataFlags
    /// The authenticator model.
    public let aaguid: AAGUID
    /// The attestation: format, type, certificates and trust path.
    public let attestation: AttestationVerificationResult
    /// What the attestation proved: verified to which kind of anchor, self, none, or an
    /// unverified chain. Keep it with the record (``credentialRecord(userHandle:)`` does) and
    /// decide on it rather than on ``attestationType``, which is only what the statement
    /// claims.
    public let attestationTrust: AttestationTrust
    /// The transports the client reported (`response.transports`), empty when it reported none.
    public let transports: [AuthenticatorTransport]
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
    /// The RP ID the credential is scoped to (the one whose hash matched).
    public let relyingPartyID: String
    /// What the relying party tolerated in this response (its ``RelyingParty/profile`` or a
    /// relaxation), in the order met; empty for a response that follows CTAP2 and WebAuthn to
    /// the letter.
    public let deviations: [ToleratedDeviation]
    /// The attestation object as the client sent it.
    public let attestationObject: [UInt8]
    /// The clientDataJSON as the client sent it.
    public let clientDataJSON: [UInt8]

    /// The credential's algorithm.
    public var algorithm: COSEAlgorithm { credentialPublicKey.algorithm }
    /// Whether the user was verified (UV).
    public var userVerified: Bool { flags.contains(.userVerified) }
    /// Whether the credential may be backed up (BE), fixed for its lifetime.
    public var backupEligible: Bool { flags.contains(.backupEligible) }
    /// Whether the credential is backed up now (BS).
    public var backupState: Bool { flags.contains(.backupState) }
    /// The attestation statement format, such as `packed`.
    public var format: String { attestation.format }
    /// The attestation type the statement claims; ``attestationTrust`` says whether its chain
    /// was proven.
    public var attestationType: AttestationType { attestation.type }
    /// What became of the attestation certificate chain.
    public var trustPath: TrustPathEvaluation { attestation.trustPath }
    /// The metadata entry that vouched for the authenticator (its description, status and
    /// certification level), when the trust policy has metadata and the chain verified to the
    /// entry's roots.
    public var metadataEntry: MetadataEntry? { attestation.metadataEntry }

    /// The credential record to store for this credential (§7.1 step 27): every member of
    /// the specification's record, the public key as the authenticator encoded it, the
    /// attestation verdict, and the account's user handle when given.
    public func credentialRecord(userHandle: [UInt8]? = nil) -> CredentialRecord {
        CredentialRecord(
            id: credentialId, publicKey: credentialPublicKey,
            publicKeyBytes: credentialPublicKeyBytes, signCount: signCount,
            backupEligible: backupEligible, backupState: backupState, userHandle: userHandle,
            transports: transports, uvInitialized: userVerified,
            attestationObject: attestationObject, attestationClientDataJSON: clientDataJSON,
            attestationTrust: attestationTrust)
    }
}
