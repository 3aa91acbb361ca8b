import Fido2WebAuthnWire

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The file operations of ``DirectoryCredentialStore``, on POSIX calls so that every step can
/// refuse what it must: no symbolic link is followed, no open blocks, every error is checked.
enum StoreFile {
    /// The largest credential file read (a credential is about 2 KiB; RSA-4096 PEM about 4 KiB).
    static let maximumSize = 1 << 20

    /// The whole file at `path`, or nil when no file has that name.
    ///
    /// Opened with `O_NOFOLLOW | O_NONBLOCK`, then checked with `fstat`, so a FIFO or device
    /// planted under a credential's name is refused at once instead of blocking, and a symbolic
    /// link (dangling or not) is never followed out of the store.
    ///
    /// - Throws: ``AuthenticatorError`` `corruptCredential` for a symbolic link, a file that is not
    ///   a regular file, or one larger than ``maximumSize``; `storageFailure` when it cannot be
    ///   opened or read.
    static func readRegular(_ path: String) throws(AuthenticatorError) -> [UInt8]? {
        let descriptor = open(path, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC)
        guard descriptor >= 0 else {
            let error = errno
            switch error {
            case ENOENT: return nil
            case ELOOP:
                throw AuthenticatorError(
                    .corruptCredential, "\(path): a symbolic link, not a credential file")
            default: throw failure("open \(path)", error)
            }
        }
        defer { close(descriptor) }
        var status = stat()
        guard fstat(descriptor, &status) == 0 else { throw failure("fstat \(path)", errno) }
        guard status.st_mode & S_IFMT == S_IFREG else {
            throw AuthenticatorError(
                .corruptCredential, "\(path): not a regular file (\(kind(status.st_mode)))")
        }
        try StoreAccessRule.privateFile.check(status, path: path)
        guard status.st_size <= maximumSize else {
            throw AuthenticatorError(
                .corruptCredential, "\(path): \(status.st_size) bytes, more than the 1 MiB limit")
        }
        var bytes = [UInt8](repeating: 0, count: Int(status.st_size) + 1)
        var count = 0
        while count < bytes.count {
            let received = bytes.withUnsafeMutableBytes { buffer in
                read(descriptor, buffer.baseAddress.map { $0 + count }, buffer.count - count)
            }
            if received < 0 {
                if errno == EINTR { continue }
                throw failure("read \(path)", errno)
            }
            if received == 0 { break }
            count += received
        }
        guard count <= status.st_size else {
            throw AuthenticatorError(.corruptCredential, "\(path): grew while being read")
        }
        bytes.removeLast(bytes.count - count)
        return bytes
    }

    /// Writes `bytes` to a new file beside `path` (`.<name>.tmp-<32 random hex digits>`, mode
    /// 0600, `O_CREAT | O_EXCL | O_NOFOLLOW`), flushed with `fsync`; returns its path. The name is
    /// not predictable and not tied to the process ID, so a file left by a killed process never
    /// stands in the way of a later one.
    ///
    /// - Throws: ``AuthenticatorError`` `storageFailure`; nothing is left behind then.
    static func writeTemporary(
        _ bytes: [UInt8], directory: String, name: String
    ) throws(AuthenticatorError) -> String {
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<8 {
            let suffix = hex(generator.next()) + hex(generator.next())
            let temporary = directory + "/." + name + temporaryMarker + suffix
            let descriptor = open(
                temporary, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o600)
            guard descriptor >= 0 else {
                if errno == EEXIST { continue }
                throw failure("create \(temporary)", errno)
            }
            var failed: AuthenticatorError?
            if fchmod(descriptor, 0o600) != 0 { failed = failure("chmod \(temporary)", errno) }
            if failed == nil { failed = writeAll(bytes, to: descriptor, path: temporary) }
            if failed == nil, fsync(descriptor) != 0 {
                failed = failure("fsync \(temporary)", errno)
            }
            if close(descriptor) != 0, failed == nil {
                failed = failure("close \(temporary)", errno)
            }
            if let failed {
                _ = unlink(temporary)
                throw failed
            }
            return temporary
        }
        throw AuthenticatorError(.storageFailure, "no unused temporary file name in \(directory)")
    }

    /// `.tmp-`, between the credential file's name and the random part.
    static let temporaryMarker = ".tmp-"

    /// Overwrites a leftover temporary file with zeros, flushes it, then unlinks it: it may hold
    /// a private key. A file with other links (a credential file sharing its inode, as a writer
    /// killed between `link` and `unlink` leaves it) is unlinked without being wiped; a file that
    /// is not regular is unlinked without being opened for writing.
    static func wipeAndRemove(_ path: String) {
        let descriptor = open(path, O_WRONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC)
        if descriptor >= 0 {
            var status = stat()
            if fstat(descriptor, &status) == 0, status.st_mode & S_IFMT == S_IFREG,
                status.st_nlink == 1, status.st_size > 0
            {
                let zeros = [UInt8](repeating: 0, count: min(Int(status.st_size), 1 << 16))
                var left = Int(status.st_size)
                while left > 0 {
                    let chunk = Array(zeros.prefix(left))
                    guard writeAll(chunk, to: descriptor, path: path) == nil else { break }
                    left -= chunk.count
                }
                _ = fsync(descriptor)
            }
            close(descriptor)
        }
        _ = unlink(path)
    }

    /// Flushes a directory's entries (best effort: some file systems refuse).
    static func syncDirectory(_ path: String) {
        let descriptor = open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard descriptor >= 0 else { return }
        _ = fsync(descriptor)
        close(descriptor)
    }

    /// A `storageFailure` naming the operation and the system's word for `code`.
    static func failure(_ operation: String, _ code: Int32) -> AuthenticatorError {
        let message = strerror(code).map { String(cString: $0) } ?? "error \(code)"
        return AuthenticatorError(.storageFailure, "\(operation): \(message)")
    }

    /// Writes all of `bytes`, retrying short writes and `EINTR`; the failure, or nil.
    private static func writeAll(
        _ bytes: [UInt8], to descriptor: Int32, path: String
    ) -> AuthenticatorError? {
        var offset = 0
        while offset < bytes.count {
            let written = bytes.withUnsafeBytes { buffer in
                write(descriptor, buffer.baseAddress.map { $0 + offset }, buffer.count - offset)
            }
            if written < 0 {
                if errno == EINTR { continue }
                return failure("write \(path)", errno)
            }
            offset += written
        }
        return nil
    }

    private static func hex(_ value: UInt64) -> String {
        let text = String(value, radix: 16)
        return String(repeating: "0", count: 16 - text.count) + text
    }

    private static func kind(_ mode: mode_t) -> String {
        switch mode & S_IFMT {
        case S_IFIFO: "a FIFO"
        case S_IFDIR: "a directory"
        case S_IFCHR: "a character device"
        case S_IFBLK: "a block device"
        case S_IFSOCK: "a socket"
        case S_IFLNK: "a symbolic link"
        default: "mode \(String(mode, radix: 8))"
        }
    }
}
