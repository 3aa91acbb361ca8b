import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// A peer in another process: a worker (`benchmarks/peers/worker.py`) that answers one line per
/// request line over its stdin and stdout. `load SCENARIO LIBRARY PATH` makes it parse an input
/// once; `run N` makes it verify that input N times and answer when done, so a batch costs N
/// verifications plus one pipe round-trip (measured on its own by the worker's `noop` scenario,
/// never subtracted). Answers are `ok …` or `error MESSAGE`.
///
/// One instance serves one competitor; it is not for concurrent use (the harness runs one
/// competitor at a time).
public final class PeerProcess: @unchecked Sendable {
    /// A worker that could not start, or that answered a request with an error.
    public struct Failure: Error, CustomStringConvertible {
        /// What went wrong, with the worker's message.
        public let description: String
    }

    /// A short name for messages, such as `py_webauthn (assertion)`.
    public let label: String
    private let process: Process
    private let requests: Int32
    private let answers: Int32
    private var pending: [UInt8] = []

    /// Starts `executable` with `arguments`; the worker's stderr is the benchmark's.
    ///
    /// - Throws: ``Failure`` when the process cannot be started.
    public init(label: String, executable: String, arguments: [String]) throws {
        self.label = label
        // A worker that dies makes a write fail with EPIPE (reported) instead of killing us.
        signal(SIGPIPE, SIG_IGN)
        let input = Pipe()
        let output = Pipe()
        process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        process.standardInput = input
        process.standardOutput = output
        do {
            try process.run()
        } catch {
            throw Failure(description: "\(label): cannot start \(executable): \(error)")
        }
        requests = input.fileHandleForWriting.fileDescriptor
        answers = output.fileHandleForReading.fileDescriptor
        // Keep the descriptors open for the life of this object (the handles own them).
        handles = (input.fileHandleForWriting, output.fileHandleForReading)
    }

    private let handles: (FileHandle, FileHandle)

    deinit {
        _ = try? request("quit", expectingAnswer: false)
        process.waitUntilExit()
    }

    /// `load SCENARIO LIBRARY PATH`; returns what the worker says it loaded (the library and its
    /// version).
    ///
    /// - Throws: ``Failure`` with the worker's message.
    public func load(scenario: String, library: String, input: String) throws -> String {
        try request("load \(scenario) \(library) \(input)")
    }

    /// `run N`, checked: throws the worker's message when a verification fails.
    ///
    /// - Throws: ``Failure`` with the worker's message.
    public func run(checked count: Int) throws {
        let answer = try request("run \(count)")
        guard answer == String(count) else {
            throw Failure(description: "\(label): run \(count) answered \"\(answer)\"")
        }
    }

    /// `run N` inside a measurement: a failure there (the input verified at set-up) stops the
    /// benchmark, never a silent result. Returns `count`.
    public func run(_ count: Int) -> UInt64 {
        do {
            try run(checked: count)
        } catch {
            fatalError("\(error)")
        }
        return UInt64(count)
    }

    /// Sends one request line and returns the text after `ok `.
    @discardableResult
    private func request(_ line: String, expectingAnswer: Bool = true) throws -> String {
        var bytes = Array(line.utf8)
        bytes.append(UInt8(ascii: "\n"))
        var sent = 0
        while sent < bytes.count {
            let written = bytes[sent...].withUnsafeBytes {
                write(requests, $0.baseAddress, $0.count)
            }
            guard written > 0 else {
                throw Failure(description: "\(label): the worker's pipe is closed")
            }
            sent += written
        }
        guard expectingAnswer else { return "" }
        let answer = try readLine()
        if answer.hasPrefix("ok") { return String(answer.dropFirst(3)) }
        throw Failure(
            description:
                "\(label): \(answer.hasPrefix("error ") ? String(answer.dropFirst(6)) : answer)"
        )
    }

    private func readLine() throws -> String {
        var chunk = [UInt8](repeating: 0, count: 4096)
        while true {
            if let end = pending.firstIndex(of: UInt8(ascii: "\n")) {
                let line = String(decoding: pending[..<end], as: UTF8.self)
                pending.removeSubrange(...end)
                return line
            }
            let count = chunk.withUnsafeMutableBytes { read(answers, $0.baseAddress, $0.count) }
            guard count > 0 else {
                throw Failure(description: "\(label): the worker exited without answering")
            }
            pending += chunk[..<count]
        }
    }
}
