import Fido2Crypto
import Fido2Support
import Fido2WebAuthnWire

/// A credential store in memory, for tests and benchmarks: credentials live as long as the
/// store, in insertion order. Safe to share across tasks: one mutex guards the table, and every
/// call, ``update(id:_:)``'s read-modify-write included, holds it from start to end.
public final class InMemoryCredentialStore: CredentialStore {
    private struct Table {
        var credentials: [StoredCredential] = []
        var indexByID: [CredentialKey: Int] = [:]
    }

    /// A credential ID as a dictionary key, hashed as one block of bytes: `[UInt8]`'s own
    /// hashing feeds the hasher a byte at a time, which cost more than the rest of a look-up.
    private struct CredentialKey: Hashable {
        let id: [UInt8]

        func hash(into hasher: inout Hasher) {
            id.withUnsafeBytes { hasher.combine(bytes: $0) }
        }
    }

    private let table = LockedState(Table())

    /// An empty store.
    public init() {}

    /// The number of credentials held.
    public var count: Int { table.withLock { $0.credentials.count } }

    /// The credential with ID `id`, or nil. Never throws.
    public func credential(id: [UInt8]) throws -> StoredCredential? {
        table.withLock { table in
            table.indexByID[CredentialKey(id: id)].map { table.credentials[$0] }
        }
    }

    /// Every credential for `relyingPartyID`, oldest first. Never throws.
    public func credentials(relyingPartyID: String) throws -> [StoredCredential] {
        table.withLock { $0.credentials.filter { $0.relyingPartyID == relyingPartyID } }
    }

    /// Adds a credential.
    ///
    /// - Throws: ``AuthenticatorError`` `credentialExists` for a repeated ID.
    public func add(_ credential: StoredCredential) throws {
        let added = table.withLock { table -> Bool in
            let key = CredentialKey(id: credential.id)
            guard table.indexByID[key] == nil else { return false }
            table.indexByID[key] = table.credentials.count
            table.credentials.append(credential)
            return true
        }
        guard added else {
            throw AuthenticatorError(
                .credentialExists, "a credential with this ID is stored", field: "id")
        }
    }

    /// Replaces a credential.
    ///
    /// - Throws: ``AuthenticatorError`` `credentialNotFound` for an unknown ID.
    public func replace(_ credential: StoredCredential) throws {
        _ = try update(id: credential.id) { $0 = credential }
    }

    /// Changes a credential under the table's mutex, so no other call comes between the read
    /// and the write.
    ///
    /// - Throws: ``AuthenticatorError`` `credentialNotFound` for an unknown ID; what `change`
    ///   throws (the credential then stays as it was).
    public func update(
        id: [UInt8], _ change: (inout StoredCredential) throws -> Void
    ) throws -> StoredCredential {
        try table.withLock { (table) throws -> StoredCredential in
            guard let index = table.indexByID[CredentialKey(id: id)] else {
                throw AuthenticatorError(
                    .credentialNotFound, "no credential with this ID", field: "id")
            }
            var credential = table.credentials[index]
            try change(&credential)
            guard credential.id == id else {
                throw AuthenticatorError(
                    .invalidValue, "an update cannot change the credential ID", field: "id")
            }
            table.credentials[index] = credential
            return credential
        }
    }

    /// Removes a credential; the others keep their order.
    ///
    /// - Throws: ``AuthenticatorError`` `credentialNotFound` for an unknown ID.
    public func remove(id: [UInt8]) throws {
        let removed = table.withLock { table -> Bool in
            guard let index = table.indexByID.removeValue(forKey: CredentialKey(id: id)) else {
                return false
            }
            table.credentials.remove(at: index)
            for later in index..<table.credentials.count {
                table.indexByID[CredentialKey(id: table.credentials[later].id)] = later
            }
            return true
        }
        guard removed else {
            throw AuthenticatorError(.credentialNotFound, "no credential with this ID", field: "id")
        }
    }
}
