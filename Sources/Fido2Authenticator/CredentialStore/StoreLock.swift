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

    /// How a change waits for the lock while another thread or process holds it.
    struct Wait: Sendable {
        /// The longest wait before giving up with `storeLocked`.
        var timeout: Duration
        /// After how long `notice` is called (once per wait).
        var noticeAfter: Duration = .seconds(1)
        /// Told, once, that the change is waiting and for how long it will.
        var notice: (@Sendable (String) -> Void)?
    }

    /// Runs `body` holding the lock, waiting for it while another holder keeps it, at most
    /// `wait.timeout`.
    ///
    /// The lock is tried without blocking, then again after pauses that grow from 1 ms to
    /// 25 ms, so that the wait can be bounded and announced without signals or threads.
    ///
    /// - Throws: ``AuthenticatorError`` `storeLocked` when the lock stays taken for the whole
    ///   wait; `storageFailure` when the lock file cannot be opened or locked; what `body`
    ///   throws.
    static func withLock<Result, Failure: Error>(
        directory: String, wait: Wait, _ body: () throws(Failure) -> Result
    ) throws -> Result {
        let descriptor = try openLockFile(directory)
        defer { close(descriptor) }
        try acquire(descriptor, directory: directory, wait: wait)
        return try body()
    }

    private static func acquire(
        _ descriptor: Int32, directory: String, wait: Wait
    ) throws(AuthenticatorError) {
        let path = directory + "/" + fileName
        let start = ContinuousClock.now
        var pause: Duration = .milliseconds(1)
        var noticed = false
        while flock(descriptor, LOCK_EX | LOCK_NB) != 0 {
            let error = errno
            if error == EINTR { continue }
            guard error == EWOULDBLOCK || error == EAGAIN else {
                throw StoreFile.failure("flock \(path)", error)
            }
            let waited = ContinuousClock.now - start
            guard waited < wait.timeout else {
                throw AuthenticatorError(
                    .storeLocked,
                    "\(path) stayed locked by another process or thread for "
                        + "\(seconds(waited)): gave up waiting, nothing was changed")
            }
            if !noticed, waited >= wait.noticeAfter {
                noticed = true
                wait.notice?(
                    "waiting for \(path), which another process or thread holds "
                        + "(for at most \(seconds(wait.timeout)))")
            }
            sleep(for: min(pause, wait.timeout - waited))
            pause = min(pause * 2, .milliseconds(25))
        }
    }

    /// `1.5 s`, `30 s`.
    private static func seconds(_ duration: Duration) -> String {
        let (whole, fraction) = duration.components
        let tenths = fraction / 100_000_000_000_000_000
        return tenths == 0 ? "\(whole) s" : "\(whole).\(tenths) s"
    }

    /// `nanosleep` for `duration` (a signal may end it early: the caller retries).
    private static func sleep(for duration: Duration) {
        let (whole, fraction) = duration.components
        var request = timespec(
            tv_sec: Int(max(0, whole)), tv_nsec: Int(max(0, fraction / 1_000_000_000)))
        _ = nanosleep(&request, nil)
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
