import ArgumentParser

/// The `fido2kit` command-line tool: CBOR inspection, the software authenticator, relying-party
/// verification, vector suites and the Belvo Biometric Pix adapter.
@main
struct Fido2Kit: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "fido2kit",
        abstract: "FIDO2/WebAuthn toolkit: CBOR, COSE, authenticator, relying party, vectors.",
        discussion: """
            Exit status: 0 on success, 1 when an input is refused or a check or the system \
            fails, 64 (EX_USAGE) when the command line is wrong. A failure prints one line on \
            standard error.
            """,
        version: Fido2KitVersion.current,
        subcommands: [
            CBORCommand.self, OptionsCommand.self, RegisterCommand.self, AssertCommand.self,
            VerifyCommand.self, MDSCommand.self,
            VectorsCommand.self, BelvoCommand.self, DemoCommand.self,
        ]
    )

    /// ArgumentParser's entry point, after ``StandardStreams/prepare()`` has made the standard
    /// descriptors safe (`SIGPIPE` ignored, closed ones refilled or refused). A usage error
    /// ArgumentParser finds (an unknown option, a missing value, a value its type refuses) is
    /// one line on standard error and exit status 64, like the usage errors the commands find.
    static func main() async {
        StandardStreams.prepare()
        do {
            var command = try parseAsRoot()
            if var asyncCommand = command as? AsyncParsableCommand {
                try await asyncCommand.run()
            } else {
                try command.run()
            }
        } catch let reported as ExitCode {
            exit(withError: reported)
        } catch {
            guard exitCode(for: error) == .validationFailure else { exit(withError: error) }
            StandardStreams.printError("fido2kit: \(usageLine(for: error))")
            exit(withError: ExitCode.validationFailure)
        }
    }

    /// ArgumentParser's message for a usage error, on one line, with where to read more.
    static func usageLine(for error: any Error) -> String {
        let lines = fullMessage(for: error).split(whereSeparator: \.isNewline).map {
            String($0.drop { $0 == " " })
        }
        var line = lines.first ?? "usage error"
        if line.hasPrefix("Error: ") { line.removeFirst("Error: ".count) }
        guard let see = lines.first(where: { $0.hasPrefix("See '") }) else { return line }
        // "See 'fido2kit cbor --help' for more information." → "(see 'fido2kit cbor --help')".
        let quoted = see.split(separator: "'", omittingEmptySubsequences: false)
        guard quoted.count >= 3 else { return line }
        return "\(line) (see '\(quoted[1])')"
    }
}
