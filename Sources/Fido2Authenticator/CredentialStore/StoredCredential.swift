import Fido2Crypto
import Fido2WebAuthnWire

/// A credential the software authenticator holds: its ID, relying party, user, private key and
/// counter state.
public struct StoredCredential: Sendable {
    /// The credential ID.
    public let id: [UInt8]
    /// The RP ID it was made for.
    public let relyingPartyID: String
    /// The user handle (`user.id` of the creation options).
    public let userHandle: [UInt8]
    /// `user.name`, kept for people reading the store.
    public let userName: String
    /// `user.displayName`.
    public let userDisplayName: String
    /// The private key.
    public let privateKey: PrivateKey
    /// The algorithm the credential signs with.
    public let algorithm: COSEAlgorithm
    /// The signature counter: the value of the last assertion (0 before any).
    public var signCount: UInt32
    /// Whether the credential is discoverable (a resident key / passkey).
    public let isDiscoverable: Bool
    /// Whether the credential may be backed up (the BE flag it reports).
    public let backupEligible: Bool
    /// Whether the credential is backed up (the BS flag it reports).
    public var backupState: Bool
    /// Whether assertions advance ``signCount``; synced passkeys keep it at 0.
    public let usesSignCounter: Bool

    /// A credential.
    public init(
        id: [UInt8], relyingPartyID: String, userHandle: [UInt8], userName: String,
        userDisplayName: String, privateKey: PrivateKey, algorithm: COSEAlgorithm,
        signCount: UInt32 = 0, isDiscoverable: Bool, backupEligible: Bool = false,
        backupState: Bool = false, usesSignCounter: Bool = true
    ) {
        self.id = id
        self.relyingPartyID = relyingPartyID
        self.userHandle = userHandle
        self.userName = userName
        self.userDisplayName = userDisplayName
        self.privateKey = privateKey
        self.algorithm = algorithm
        self.signCount = signCount
        self.isDiscoverable = isDiscoverable
        self.backupEligible = backupEligible
        self.backupState = backupState
        self.usesSignCounter = usesSignCounter
    }

    /// The credential in the file format of ``DirectoryCredentialStore`` (version 1: a magic
    /// line, the JSON of the public fields, the private key as PKCS#8 PEM), for a store that
    /// keeps credentials elsewhere (a database, a key-value store). The bytes hold the private
    /// key: keep them as secret as the key.
    ///
    /// - Throws: ``AuthenticatorError`` `storageFailure` when the key cannot be encoded.
    public func encoded() throws -> [UInt8] {
        try CredentialFile.encode(self)
    }

    /// A credential from the bytes ``encoded()`` made.
    ///
    /// - Throws: ``AuthenticatorError`` `corruptCredential` saying what is wrong with the bytes.
    public init(encoded bytes: [UInt8]) throws {
        self = try CredentialFile.decode(bytes, name: "the encoded credential")
    }
}
