/// Where the software authenticator keeps its credentials.
///
/// Implementations must be safe to share across tasks, and every mutation must be atomic: a
/// call that throws leaves the store as it was. ``InMemoryCredentialStore`` keeps credentials in
/// memory; ``DirectoryCredentialStore`` keeps one file per credential.
public protocol CredentialStore: Sendable {
    /// The credential with ID `id`, or nil when there is none.
    ///
    /// - Throws: ``WebAuthnError`` `corruptCredential` or `storageFailure` when the store
    ///   cannot be read.
    func credential(id: [UInt8]) throws(WebAuthnError) -> StoredCredential?

    /// Every credential made for `relyingPartyID`, in the store's order.
    ///
    /// - Throws: ``WebAuthnError`` `corruptCredential` or `storageFailure`; a credential that
    ///   cannot be read is reported, never skipped.
    func credentials(relyingPartyID: String) throws(WebAuthnError) -> [StoredCredential]

    /// Adds a new credential.
    ///
    /// - Throws: ``WebAuthnError`` `credentialExists` when one with the same ID is stored;
    ///   `storageFailure` when it cannot be written.
    func add(_ credential: StoredCredential) throws(WebAuthnError)

    /// Replaces the stored credential that has `credential`'s ID (after an assertion moved its
    /// counter).
    ///
    /// - Throws: ``WebAuthnError`` `credentialNotFound` when no credential has that ID;
    ///   `storageFailure` when it cannot be written.
    func replace(_ credential: StoredCredential) throws(WebAuthnError)
}
