import Fido2WebAuthnWire

/// Where the software authenticator keeps its credentials.
///
/// Implementations must be safe to share across tasks, and every mutation must be atomic: a
/// call that throws leaves the store as it was. ``InMemoryCredentialStore`` keeps credentials in
/// memory; ``DirectoryCredentialStore`` keeps one file per credential and stays consistent when
/// several processes share the directory.
///
/// Stores throw ``AuthenticatorError``: `credentialExists`, `credentialNotFound`,
/// `corruptCredential` and `storageFailure` (its public initializer serves stores written
/// outside the library), so that a caller of the software authenticator meets one error type.
public protocol CredentialStore: Sendable {
    /// The credential with ID `id`, or nil when there is none.
    ///
    /// - Throws: ``AuthenticatorError`` `corruptCredential` or `storageFailure` when the store
    ///   cannot be read.
    func credential(id: [UInt8]) throws -> StoredCredential?

    /// Every credential made for `relyingPartyID`, in the store's order.
    ///
    /// - Throws: ``AuthenticatorError`` `corruptCredential` or `storageFailure`; a credential that
    ///   cannot be read is reported, never skipped.
    func credentials(relyingPartyID: String) throws -> [StoredCredential]

    /// Adds a new credential.
    ///
    /// - Throws: ``AuthenticatorError`` `credentialExists` when one with the same ID is stored;
    ///   `storageFailure` when it cannot be written.
    func add(_ credential: StoredCredential) throws

    /// Replaces the stored credential that has `credential`'s ID.
    ///
    /// A replacement computed from an earlier read can undo a change made in between (two
    /// assertions reading the same counter); use ``update(id:_:)`` to change a credential.
    ///
    /// - Throws: ``AuthenticatorError`` `credentialNotFound` when no credential has that ID;
    ///   `storageFailure` when it cannot be written.
    func replace(_ credential: StoredCredential) throws

    /// Changes the credential with ID `id` in one atomic read-modify-write: `change` sees the
    /// credential as stored at that moment, and no other change to it (from any task, or any
    /// process sharing the store) comes between that read and the write. Returns the credential
    /// as stored afterwards. The software authenticator advances signature counters with it.
    /// `change` runs while the store is locked: it must be quick and must not call the store.
    ///
    /// - Throws: ``AuthenticatorError`` `credentialNotFound` when no credential has that ID; what
    ///   `change` throws (nothing is then written); `corruptCredential` or `storageFailure`.
    func update(
        id: [UInt8], _ change: (inout StoredCredential) throws -> Void
    ) throws -> StoredCredential

    /// Removes the credential with ID `id` (a registration whose response never reached the
    /// relying party).
    ///
    /// - Throws: ``AuthenticatorError`` `credentialNotFound` when no credential has that ID;
    ///   `storageFailure` when it cannot be removed.
    func remove(id: [UInt8]) throws
}
