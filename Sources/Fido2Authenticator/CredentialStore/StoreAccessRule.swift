#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Who may own a path of a ``DirectoryCredentialStore`` and which of its mode bits must be
/// clear: ssh's rules for a private key and for the directory of keys, written once.
struct StoreAccessRule {
    /// Whether root may own the path besides the effective user (a directory such as `/var/lib`
    /// may be root's; a private key may not).
    var rootMayOwn: Bool
    /// The mode bits that must be clear.
    var forbiddenBits: mode_t
    /// What a forbidden bit means, after "is", in the refusal.
    var exposure: String
    /// What the refusal adds after the mode: what is refused and how to fix it.
    var remedy: String

    /// A credential file, which holds a private key: whoever else can read it has the key,
    /// and whoever else owns it could have planted it.
    static let privateFile = StoreAccessRule(
        rootMayOwn: false, forbiddenBits: 0o077, exposure: "open to group or others",
        remedy: "refusing to use its private key; chmod 600 it")

    /// The store's directory: whoever else can write there can plant or swap credentials.
    static let directory = StoreAccessRule(
        rootMayOwn: true, forbiddenBits: 0o022, exposure: "writable by group or others",
        remedy: "refusing to use it; chmod go-w it")

    /// Refuses `path`, whose `stat` is `status`, when another user owns it or a forbidden
    /// mode bit is set.
    ///
    /// - Throws: ``AuthenticatorError`` `storageFailure` naming the owner or the mode.
    func check(_ status: stat, path: String) throws(AuthenticatorError) {
        let owner = geteuid()
        guard status.st_uid == owner || (rootMayOwn && status.st_uid == 0) else {
            throw AuthenticatorError(
                .storageFailure,
                "\(path) belongs to user \(status.st_uid), not to you (\(owner)): refusing to use it"
            )
        }
        guard status.st_mode & forbiddenBits == 0 else {
            let mode = String(status.st_mode & 0o7777, radix: 8)
            throw AuthenticatorError(
                .storageFailure, "\(path) is \(exposure) (mode \(mode)): \(remedy)")
        }
    }
}
