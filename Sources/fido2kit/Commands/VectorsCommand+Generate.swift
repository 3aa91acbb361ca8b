import ArgumentParser
import Fido2Vectors
import Foundation

extension VectorsCommand {
    /// `fido2kit vectors generate [--output DIR]`.
    struct Generate: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "generate",
            abstract: "Write fido2kit's own vector suite (docs/vectors.md).",
            discussion: """
                Writes registrations.json, authentications.json and belvo.json into the output \
                directory (created when missing), replacing files of those names. Keys, \
                credential IDs and challenges come from seeded draws, ECDSA nonces from RFC 6979 \
                and certificates from a test CA with fixed validity: every run writes the same \
                bytes.
                """
        )

        @Option(help: "The directory to write (default vectors/).")
        var output: String = "vectors"

        func run() throws {
            try failingCleanly {
                let files = try ProjectVectorGenerator().files()
                let directory = URL(fileURLWithPath: output, isDirectory: true)
                try FileManager.default.createDirectory(
                    at: directory, withIntermediateDirectories: true)
                for file in files {
                    try Data(file.bytes).write(
                        to: directory.appendingPathComponent(file.name), options: .atomic)
                }
                StandardStreams.print(
                    "wrote \(files.map(\.name).joined(separator: ", ")) to \(directory.path)")
            }
        }
    }
}
