import ArgumentParser
import Fido2Authenticator

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The options of the commands that use a credential store besides `--store`: how long to wait
/// for the store's lock.
struct StoreOptions: ParsableArguments {
    @Option(
        name: .customLong("lock-timeout"),
        help: ArgumentHelp(
            "Seconds to wait for the store's lock while another process holds it, then fail (default 30, or FIDO2KIT_LOCK_TIMEOUT; 0: do not wait).",
            valueName: "seconds"))
    var lockTimeout: String?

    /// The environment variable that sets the wait when `--lock-timeout` is not given.
    static let environmentVariable = "FIDO2KIT_LOCK_TIMEOUT"

    /// The store at `path`, created when missing only if `creating`, waiting for its lock as
    /// `--lock-timeout` (or the environment) says and saying so on standard error after a
    /// second.
    ///
    /// - Throws: ``CommandFailure`` (a usage error) for a timeout that is not a number of
    ///   seconds; the store's `AuthenticatorError`.
    func store(_ path: String, creating: Bool) throws -> DirectoryCredentialStore {
        try DirectoryCredentialStore(
            path: path, createsDirectory: creating, lockTimeout: try timeout(),
            onLockWait: { message in StandardStreams.printError("fido2kit: \(message)") })
    }

    /// `--lock-timeout`, else `FIDO2KIT_LOCK_TIMEOUT`, else 30 seconds.
    func timeout() throws(CommandFailure) -> Duration {
        let (text, source): (String?, String) =
            if let lockTimeout {
                (lockTimeout, "--lock-timeout")
            } else {
                (
                    getenv(Self.environmentVariable).map { String(cString: $0) },
                    Self.environmentVariable
                )
            }
        guard let text, !text.isEmpty else { return .seconds(30) }
        guard let seconds = Double(text), seconds.isFinite, seconds >= 0, seconds <= 86_400
        else {
            throw CommandFailure.usage(
                "\(source) \(text) is not a number of seconds between 0 and 86400")
        }
        return .milliseconds(Int64((seconds * 1000).rounded()))
    }
}
