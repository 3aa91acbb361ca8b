import ArgumentParser

/// A command's failure: one line on standard error, then exit status 1, or 64 (`EX_USAGE`) when
/// the command line itself is wrong.
struct CommandFailure: Error {
    let message: String
    /// Whether the arguments are at fault (a malformed option value, options that do not go
    /// together) rather than an input, a check or the system: exit status 64 instead of 1.
    let isUsageError: Bool

    init(_ message: String) {
        self.message = message
        self.isUsageError = false
    }

    private init(usage message: String) {
        self.message = message
        self.isUsageError = true
    }

    /// A usage error: the arguments are at fault, whatever the inputs hold (exit status 64).
    static func usage(_ message: String) -> CommandFailure { CommandFailure(usage: message) }

    /// Prints the message as `fido2kit: <message>` and returns the exit code to throw.
    func exit() -> ExitCode {
        StandardStreams.printError("fido2kit: \(message)")
        return isUsageError ? ExitCode.validationFailure : ExitCode.failure
    }
}

extension ParsableCommand {
    /// Runs `body`; a ``CommandFailure`` or any other error becomes one line on standard error
    /// and exit status 1 (64 for a usage error), instead of ArgumentParser's usage text.
    func failingCleanly(_ body: () throws -> Void) throws {
        do {
            try body()
        } catch let failure as CommandFailure {
            throw failure.exit()
        } catch let exit as ExitCode {
            throw exit
        } catch let usage as ValidationError {
            throw CommandFailure.usage(usage.message).exit()
        } catch {
            throw CommandFailure("\(error)").exit()
        }
    }
}
