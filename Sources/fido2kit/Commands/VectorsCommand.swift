import ArgumentParser
import Fido2Vectors
import Foundation

/// `fido2kit vectors`: run test-vector suites.
struct VectorsCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "vectors",
        abstract: "Verify test-vector suites and write fido2kit's own.",
        subcommands: [Verify.self, Generate.self]
    )

    /// `fido2kit vectors verify [PATH…]`.
    struct Verify: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "verify",
            abstract: "Run every vector suite found under the given paths.",
            discussion: """
                Prints one line per suite ("suite: N passed, M failed"), one line per failed case \
                with its reason, a note under the suite for every case that passed in a way a \
                reader must know (a named relaxation, an expected "unsupported algorithm", a \
                parse-only case), and a last line "N passed, M failed". A case whose verdict \
                rests on data its file does not carry (reg-029 expects a revocation the file has \
                no CRL for) is neither: it is printed as NOT JUDGED with the reason, and both the \
                suite line and the last line end ", K not judged". A JSON file in no format this \
                version knows counts as one failed case. Exits 1 when any case fails or when a \
                path holds no suite it knows. Without paths: vectors/, ../shared/vectors and \
                ../shared/interop (other relying parties' test data, each case judged as its \
                source's relying party was configured), where present. A case whose "ok" the \
                file only infers (expectation_basis) and that fido2kit refuses is not judged.
                """
        )

        @Argument(help: "Files or directories holding suites.")
        var paths: [String] = []

        func run() throws {
            let roots = paths.isEmpty ? Self.defaultPaths() : paths
            guard !roots.isEmpty else {
                throw CommandFailure(
                    "no paths given and none of vectors/, ../shared/vectors, ../shared/interop exists"
                ).exit()
            }
            var passed = 0
            var failed = 0
            var notJudged = 0
            var pathWithoutSuite: String? = nil
            for root in roots {
                let files = Self.jsonFiles(under: root)
                var knownHere = 0
                for file in files {
                    switch Self.recognize(file) {
                    case .suite(let suite):
                        knownHere += 1
                        let results = suite.run()
                        let failures = results.filter { $0.failure != nil }
                        let unjudged = results.filter { $0.notJudged != nil }
                        let passedHere = results.count - failures.count - unjudged.count
                        passed += passedHere
                        failed += failures.count
                        notJudged += unjudged.count
                        StandardStreams.print(
                            "\(suite.name): \(passedHere) passed, \(failures.count) failed"
                                + Self.notJudgedSuffix(unjudged.count))
                        for failure in failures {
                            StandardStreams.print(
                                "  FAILED \(failure.id): \(failure.failure ?? "")")
                        }
                        for result in unjudged {
                            StandardStreams.print(
                                "  NOT JUDGED \(result.id): \(result.notJudged ?? "")")
                        }
                        for result in results where result.failure == nil {
                            if let note = result.note {
                                StandardStreams.print("  note \(result.id): \(note)")
                            }
                        }
                    case .unknown(let reason):
                        // Every suite the project knows has a runner: an unknown file is a
                        // case nobody checked, so it fails rather than passing unseen.
                        failed += 1
                        StandardStreams.print("\(file.lastPathComponent): 0 passed, 1 failed")
                        StandardStreams.print("  FAILED \(file.lastPathComponent): \(reason)")
                    }
                }
                if knownHere == 0 { pathWithoutSuite = pathWithoutSuite ?? root }
            }
            StandardStreams.print(
                "\(passed) passed, \(failed) failed" + Self.notJudgedSuffix(notJudged))
            if let pathWithoutSuite {
                throw CommandFailure("\(pathWithoutSuite) holds no vector suite this version knows")
                    .exit()
            }
            if failed > 0 {
                throw CommandFailure("\(failed) of \(passed + failed) vector cases failed").exit()
            }
        }

        /// The suite in the file at `url`, read within the vector-suite input limit.
        static func recognize(_ url: URL) -> VectorSuiteCatalog.Recognition {
            do {
                let bytes = try InputFile.read(url.path, limit: .vectorSuite)
                return VectorSuiteCatalog.recognize(name: url.lastPathComponent, bytes: bytes)
            } catch {
                return .unknown(reason: error.message)
            }
        }

        /// ", K not judged" when K is not zero.
        static func notJudgedSuffix(_ count: Int) -> String {
            count == 0 ? "" : ", \(count) not judged"
        }

        /// `vectors/`, `../shared/vectors` and `../shared/interop`, relative to the working
        /// directory, when they hold any JSON file.
        static func defaultPaths() -> [String] {
            ["vectors", "../shared/vectors", "../shared/interop"].filter {
                !jsonFiles(under: $0).isEmpty
            }
        }

        /// The JSON files at `path` (itself, or under it recursively), sorted by path.
        static func jsonFiles(under path: String) -> [URL] {
            let url = URL(fileURLWithPath: path)
            var isDirectory: ObjCBool = false
            guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
                return []
            }
            guard isDirectory.boolValue else { return [url] }
            let enumerator = FileManager.default.enumerator(
                at: url, includingPropertiesForKeys: nil)
            var files: [URL] = []
            while let next = enumerator?.nextObject() as? URL {
                if next.pathExtension == "json" { files.append(next) }
            }
            return files.sorted { $0.path < $1.path }
        }
    }
}
