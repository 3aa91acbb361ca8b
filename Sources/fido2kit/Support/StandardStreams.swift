import Foundation

/// Reading standard input and writing standard output and error for the commands.
enum StandardStreams {
    /// All of standard input.
    static func readAll() -> [UInt8] {
        [UInt8](FileHandle.standardInput.readDataToEndOfFile())
    }

    /// Writes bytes to standard output as they are.
    static func write(_ bytes: [UInt8]) {
        FileHandle.standardOutput.write(Data(bytes))
    }

    /// Writes a line to standard output.
    static func print(_ line: String) {
        write(Array((line + "\n").utf8))
    }

    /// Writes a line to standard error.
    static func printError(_ line: String) {
        FileHandle.standardError.write(Data((line + "\n").utf8))
    }
}
