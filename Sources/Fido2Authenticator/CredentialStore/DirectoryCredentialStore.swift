import Fido2Crypto
import Fido2WebAuthnWire

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A credential store in a directory: one file per credential, named
/// `<hex SHA-256 of the credential ID>.credential`.
///
/// The file format, version 1, is UTF-8 text in three parts:
///
/// ```text
/// fido2kit-credential 1
/// {"id":"<b64url>","rpId":"example.org","userHandle":"<b64url>","userName":"alice","userDisplayName":"Alice","alg":-7,"signCount":0,"discoverable":true,"backupEligible":false,"backupState":false,"signCounter":true}
/// -----BEGIN PRIVATE KEY-----
/// <unencrypted PKCS#8, base64, 64 columns>
/// -----END PRIVATE KEY-----
/// ```
///
/// Line 1 is the magic and version. Line 2 is one JSON object on one line: binary members are
/// unpadded base64url, every member is required and unknown members are refused. The rest is
/// the private key as a PEM `PRIVATE KEY` block, so `openssl pkey -in FILE` reads a credential
/// file as it is (OpenSSL skips the text before the block). The private key is not encrypted:
/// the file mode is what protects it, as for an SSH key.
///
/// - The directory must belong to the user (or root) and be writable by nobody else, as ssh
///   requires of its keys; files are created with mode 0600 and the directory (when this store
///   creates it) 0700.
/// - Every change (``add(_:)``, ``replace(_:)``, ``update(id:_:)``, ``remove(id:)``) holds an
///   exclusive `flock` on the directory's `.lock` file from its read to its last write, so
///   changes from threads and processes sharing the directory never interleave; the kernel
///   drops the lock of a process that dies. A change waits for a lock another holder keeps at
///   most ``lockTimeout`` (30 seconds by default), calling ``onLockWait`` once after a second,
///   then fails with `storeLocked` and changes nothing.
/// - Every write goes to a temporary file in the same directory
///   (`.<name>.tmp-<32 random hex digits>`, created with `O_EXCL`), is flushed with `fsync`,
///   then renamed into place, and the directory is flushed: a crash or a kill leaves either the
///   old file or the new one, never half a credential. Opening the store wipes and removes the
///   temporary files that killed writers left (they may hold a private key).
/// - Reads never follow a symbolic link and never block: a file named like a credential that is
///   a symbolic link, a FIFO or anything but a regular file, or that cannot be read back (bad
///   format, bad key, a name that does not match its ID), is reported as `corruptCredential`,
///   never skipped. A credential file that belongs to another user or that group or others
///   may access (any of the mode bits 077) is refused as `storageFailure`, as the directory
///   is: it holds a private key. Files with other names are ignored.
public struct DirectoryCredentialStore: CredentialStore {
    /// The directory.
    public let path: String

    /// The longest a change waits for the store's lock while another thread or process holds
    /// it, before failing with `storeLocked` (default 30 seconds; zero: no wait).
    public var lockTimeout: Duration

    /// Called once per change that has waited a second for the lock, with a sentence saying
    /// so (a command-line tool prints it on standard error); nil: nothing is said.
    public var onLockWait: (@Sendable (String) -> Void)?

    /// Opens the store at `path`, creating the directory (and its parents) with mode 0700 when
    /// it does not exist and `createsDirectory` is true, and removes the temporary files
    /// writers that died left behind.
    ///
    /// - Parameters:
    ///   - path: The directory.
    ///   - createsDirectory: Whether a missing directory is created (a store that is only
    ///     signed with, never registered into, passes false).
    ///   - lockTimeout: ``lockTimeout``.
    ///   - onLockWait: ``onLockWait``.
    /// - Throws: ``AuthenticatorError`` `storageFailure` when the path exists but is not a
    ///   directory, is missing and `createsDirectory` is false, cannot be created, belongs to
    ///   another user, or is writable by group or others.
    public init(
        path: String, createsDirectory: Bool = true, lockTimeout: Duration = .seconds(30),
        onLockWait: (@Sendable (String) -> Void)? = nil
    ) throws {
        self.path = path.count > 1 && path.hasSuffix("/") ? String(path.dropLast()) : path
        self.lockTimeout = lockTimeout
        self.onLockWait = onLockWait
        try StoreDirectory.prepare(self.path, creating: createsDirectory)
        StoreDirectory.removeStaleTemporaries(self.path)
    }

    /// The credential with ID `id`, or nil when its file does not exist.
    ///
    /// - Throws: ``AuthenticatorError`` `corruptCredential` when the file cannot be read back or is
    ///   not a regular file; `storageFailure` when it cannot be opened or read.
    public func credential(id: [UInt8]) throws -> StoredCredential? {
        let name = try Self.fileName(for: id)
        guard let bytes = try StoreFile.readRegular(full(name)) else { return nil }
        return try decode(bytes, name: name)
    }

    /// Every credential for `relyingPartyID`, in file-name order (the order of their IDs'
    /// hashes). Every credential file is read, so one corrupt file fails the call.
    ///
    /// - Throws: ``AuthenticatorError`` `corruptCredential`; `storageFailure`.
    public func credentials(relyingPartyID: String) throws -> [StoredCredential] {
        var result: [StoredCredential] = []
        let names = try StoreDirectory.names(in: path) {
            StoreDirectory.isCredentialFileName($0.utf8)
        }
        for name in names {
            guard let bytes = try StoreFile.readRegular(full(name)) else { continue }
            let credential = try decode(bytes, name: name)
            if credential.relyingPartyID == relyingPartyID { result.append(credential) }
        }
        return result
    }

    /// Writes a new credential file, under the store's lock.
    ///
    /// - Throws: ``AuthenticatorError`` `credentialExists` when the ID's file exists;
    ///   `storageFailure` when writing fails (the store is then unchanged).
    public func add(_ credential: StoredCredential) throws {
        let name = try Self.fileName(for: credential.id)
        let bytes = try CredentialFile.encode(credential)
        try StoreLock.withLock(directory: path, wait: lockWait) { () throws(AuthenticatorError) in
            guard !exists(name) else {
                throw AuthenticatorError(
                    .credentialExists, "a credential with this ID is stored (\(name))", field: "id")
            }
            try install(bytes, as: name)
        }
    }

    /// Replaces a credential file atomically, under the store's lock.
    ///
    /// - Throws: ``AuthenticatorError`` `credentialNotFound` when the ID has no file;
    ///   `storageFailure` when writing fails (the old file then stays).
    public func replace(_ credential: StoredCredential) throws {
        let name = try Self.fileName(for: credential.id)
        let bytes = try CredentialFile.encode(credential)
        try StoreLock.withLock(directory: path, wait: lockWait) { () throws(AuthenticatorError) in
            guard exists(name) else { throw notFound(name) }
            try install(bytes, as: name)
        }
    }

    /// Reads, changes and rewrites a credential file holding the store's lock throughout, so a
    /// change made by another thread or process is never lost: the counters of assertions made
    /// at once, from however many processes, are all different.
    ///
    /// - Throws: ``AuthenticatorError`` `credentialNotFound` when the ID has no file; what `change`
    ///   throws; `corruptCredential`; `storageFailure` (the old file then stays).
    public func update(
        id: [UInt8], _ change: (inout StoredCredential) throws -> Void
    ) throws -> StoredCredential {
        let name = try Self.fileName(for: id)
        return try StoreLock.withLock(directory: path, wait: lockWait) { () throws in
            guard let bytes = try StoreFile.readRegular(full(name)) else { throw notFound(name) }
            var credential = try decode(bytes, name: name)
            try change(&credential)
            guard credential.id == id else {
                throw AuthenticatorError(
                    .invalidValue, "an update cannot change the credential ID", field: "id")
            }
            try install(CredentialFile.encode(credential), as: name)
            return credential
        }
    }

    /// Removes a credential file, under the store's lock.
    ///
    /// - Throws: ``AuthenticatorError`` `credentialNotFound` when the ID has no file;
    ///   `storageFailure` when it cannot be removed.
    public func remove(id: [UInt8]) throws {
        let name = try Self.fileName(for: id)
        try StoreLock.withLock(directory: path, wait: lockWait) { () throws(AuthenticatorError) in
            guard unlink(full(name)) == 0 else {
                let error = errno
                if error == ENOENT { throw notFound(name) }
                throw StoreFile.failure("unlink \(full(name))", error)
            }
            StoreFile.syncDirectory(path)
        }
    }

    // MARK: Files

    /// `<hex SHA-256(id)>.credential`: fixed length whatever the ID (up to 1023 bytes).
    static func fileName(for id: [UInt8]) throws(AuthenticatorError) -> String {
        let digest = DigestAlgorithm.sha256.hash(id)
        let hex = Array("0123456789abcdef".utf8)
        var name: [UInt8] = []
        for byte in digest {
            name.append(hex[Int(byte >> 4)])
            name.append(hex[Int(byte & 0x0f)])
        }
        return String(decoding: name, as: UTF8.self) + ".credential"
    }

    private func full(_ name: String) -> String { path + "/" + name }

    private var lockWait: StoreLock.Wait {
        StoreLock.Wait(timeout: max(lockTimeout, .zero), notice: onLockWait)
    }

    /// Whether the directory has an entry `name` (of any kind, a dangling link included).
    private func exists(_ name: String) -> Bool {
        var status = stat()
        return lstat(full(name), &status) == 0
    }

    private func notFound(_ name: String) -> AuthenticatorError {
        AuthenticatorError(.credentialNotFound, "no credential with this ID (\(name))", field: "id")
    }

    /// Writes `bytes` to a temporary file, renames it to `name` and flushes the directory. The
    /// caller holds the lock, so no other writer's temporary file is in flight.
    private func install(_ bytes: [UInt8], as name: String) throws(AuthenticatorError) {
        let temporary = try StoreFile.writeTemporary(bytes, directory: path, name: name)
        guard rename(temporary, full(name)) == 0 else {
            let error = errno
            _ = unlink(temporary)
            throw StoreFile.failure("rename to \(full(name))", error)
        }
        StoreFile.syncDirectory(path)
    }

    private func decode(
        _ bytes: [UInt8], name: String
    ) throws(AuthenticatorError) -> StoredCredential {
        let credential = try CredentialFile.decode(bytes, name: full(name))
        guard try Self.fileName(for: credential.id) == name else {
            throw AuthenticatorError(
                .corruptCredential, "\(full(name)): the file name does not match the credential ID")
        }
        return credential
    }
}
