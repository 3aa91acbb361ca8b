import Fido2CBOR
import Fido2Crypto

/// What a relying party stores about a registered credential and needs to verify its
/// assertions (WebAuthn Level 3 §7.1 step 27, "credential record").
public struct CredentialRecord: Sendable, Equatable {
    /// The credential ID.
    public var id: [UInt8]
    /// The credential public key, with the algorithm it signs with.
    public var publicKey: COSEKey
    /// The signature counter last seen.
    public var signCount: UInt32
    /// BE at registration: whether the credential may be backed up. It never changes.
    public var backupEligible: Bool
    /// BS last seen: whether the credential is backed up.
    public var backupState: Bool
    /// The user handle (`user.id`) of the account the credential belongs to; nil when the
    /// record does not keep it. With nil, §7.2 step 6 cannot compare a `userHandle` that an
    /// assertion carries and accepts it (the caller, who looked the record up, vouches for the
    /// account); ``VerifiedAuthentication/userHandle`` returns it for the caller to check.
    public var userHandle: [UInt8]?
    /// The transports the client reported at registration.
    public var transports: [AuthenticatorTransport]

    /// A record from its parts.
    public init(
        id: [UInt8], publicKey: COSEKey, signCount: UInt32, backupEligible: Bool,
        backupState: Bool = false, userHandle: [UInt8]? = nil,
        transports: [AuthenticatorTransport] = []
    ) {
        self.id = id
        self.publicKey = publicKey
        self.signCount = signCount
        self.backupEligible = backupEligible
        self.backupState = backupState
        self.userHandle = userHandle
        self.transports = transports
    }

    /// A record whose public key is given as an encoded COSE_Key, as stored.
    ///
    /// - Parameters:
    ///   - id: the credential ID.
    ///   - publicKeyBytes: the credential public key as one encoded COSE_Key.
    ///   - signCount: the signature counter last seen.
    ///   - backupEligible: BE at registration: whether the credential may be backed up.
    ///   - backupState: BS last seen: whether the credential is backed up; false by default.
    ///   - userHandle: the user handle (`user.id`) of the account, or nil when not kept.
    ///   - transports: the transports the client reported at registration; none by default.
    ///   - options: the CBOR profile of `publicKeyBytes`; CTAP2 canonical by default.
    ///   - tolerating: encoding checks of `options` that the stored key may break (it was
    ///     accepted at registration as the authenticator wrote it); a key that breaks them is
    ///     read from its canonical re-encoding. All of `CBORReader.encodingChecks`
    ///     by default; `[]` to require `options` to the letter.
    /// - Throws: ``WebAuthnError`` with step `§7.2 step 21` and field `credentialRecord.publicKey`:
    ///   `unsupportedAlgorithm` for a key of an algorithm this library cannot verify (ML-DSA,
    ///   …), `invalidCredentialPublicKey` for bytes that are not one valid COSE_Key.
    public init(
        id: [UInt8], publicKeyBytes: some Collection<UInt8>, signCount: UInt32,
        backupEligible: Bool, backupState: Bool = false, userHandle: [UInt8]? = nil,
        transports: [AuthenticatorTransport] = [], options: CBORDecodingOptions = .strict,
        tolerating: CBORDecodingOptions.Checks = CBORReader.encodingChecks
    ) throws {
        let bytes = Array(publicKeyBytes)
        let key: COSEKey
        do {
            do {
                key = try COSEKey(cborEncoded: bytes, options: options)
            } catch {
                guard !tolerating.isEmpty else { throw error }
                let item = try CBORReader.canonicalizingFirstItem(
                    in: bytes[...], options: options, tolerating: tolerating)
                guard item.length == bytes.count, !item.deviations.isEmpty else { throw error }
                key = try COSEKey(cborEncoded: item.encoded, options: options)
            }
        } catch let error as CryptoError {
            throw WebAuthnError(
                crypto: error, .invalidCredentialPublicKey, field: "credentialRecord.publicKey"
            ).attributed(to: CeremonyStep.Authentication.signature)
        } catch {
            throw WebAuthnError(
                .invalidCredentialPublicKey, "CBOR: \(error)", field: "credentialRecord.publicKey",
                step: CeremonyStep.Authentication.signature)
        }
        self.init(
            id: id, publicKey: key, signCount: signCount, backupEligible: backupEligible,
            backupState: backupState, userHandle: userHandle, transports: transports)
    }
}
