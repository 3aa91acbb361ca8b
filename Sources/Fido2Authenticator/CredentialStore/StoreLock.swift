import Fido2WebAuthnWire

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The exclusive lock a ``DirectoryCredentialStore`` holds while it changes files: `flock` on
/// the directory's lock file (`.lock`, mode 0600).
///
/// `flock` belongs to the open file description, so a descriptor opened per call excludes other
/// threads of the same process as well as other processes, and the kernel drops the lock when
/// the descriptor closes, also when its process is killed: a dead holder never blocks the store.
enum StoreLock {
    static let fileName = ".lock"

    /// Runs `body` holding the lock, waiting for it as long as another holder keeps it.
    ///
    /// - Throws: ``AuthenticatorError`` `storageFailure` when the lock file cannot be opened or
    ///   locked; what `body` throws.
    static func withLock<Result, Failure: Error>(
        directory: String, _ body: () throws(Failure) -> Result
    ) throws -> Result {
        let descriptor = try openLockFile(directory)
        defer { close(descriptor) }
        while flock(descriptor, LOCK_EX) != 0 {
            guard errno == EINTR else {
                throw StoreFile.failure("flock \(directory)/\(fileName)", errno)
            }
        }
        return try body()
    }

    /// Runs `body` holding the lock when nobody else holds it; returns false without running it
    /// when the lock is taken or cannot be had (a store the caller may only read).
    static func ifAvailable(directory: String, _ body: () -> Void) -> Bool {
        guard let descriptor = try? openLockFile(directory) else { return false }
        defer { close(descriptor) }
        guard flock(descriptor, LOCK_EX | LOCK_NB) == 0 else { return false }
        body()
        return true
    }

    /// The lock file, created when missing; refused unless it is a regular file.
    private static func openLockFile(_ directory: String) throws(AuthenticatorError) -> Int32 {
        let path = directory + "/" + fileName
        let descriptor = open(
            path, O_RDWR | O_CREAT | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else { throw StoreFile.failure("open \(path)", errno) }
        var status = stat()
        guard fstat(descriptor, &status) == 0, status.st_mode & S_IFMT == S_IFREG else {
            close(descriptor)
            throw AuthenticatorError(.storageFailure, "\(path) is not a regular file")
        }
        return descriptor
    }
}
