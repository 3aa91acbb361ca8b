import ArgumentParser

/// A command's failure: one line on standard error, then exit status 1.
struct CommandFailure: Error {
    let message: String

    init(_ message: String) { self.message = message }

    /// Prints the message as `fido2kit: <message>` and returns the exit code to throw.
    func exit() -> ExitCode {
        StandardStreams.printError("fido2kit: \(message)")
        return ExitCode.failure
    }
}

extension ParsableCommand {
    /// Runs `body`; a ``CommandFailure`` or any other error becomes one line on standard error
    /// and exit status 1, instead of ArgumentParser's usage text.
    func failingCleanly(_ body: () throws -> Void) throws {
        do {
            try body()
        } catch let failure as CommandFailure {
            throw failure.exit()
        } catch let exit as ExitCode {
            throw exit
        } catch {
            throw CommandFailure("\(error)").exit()
        }
    }
}
