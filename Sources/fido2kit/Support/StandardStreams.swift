import Synchronization

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Standard input, output and error for the commands, on `read(2)` and `write(2)`: every
/// failure is an error value, never a trap (Foundation's `FileHandle.write(_:)` traps on
/// `EPIPE` and `ENOSPC`, and `readDataToEndOfFile()` reads without a limit).
enum StandardStreams {
    /// Whether descriptor 0 was closed when the process started (it now holds `/dev/null`).
    private static let inputWasClosed = Atomic<Bool>(false)

    /// Makes the three standard descriptors safe to use, before anything else runs: `SIGPIPE`
    /// is ignored, so a closed pipe on standard output is an `EPIPE` error rather than death, and
    /// a closed standard descriptor gets `/dev/null` in its slot, so that no file the command
    /// opens later (a credential, the store's lock) lands on descriptor 0, 1 or 2 and receives
    /// output meant for the terminal. A closed standard output ends the process at once with
    /// one line on standard error and exit status 1, before any side effect.
    static func prepare() {
        _ = signal(SIGPIPE, SIG_IGN)
        var outputWasClosed = false
        for target: Int32 in 0...2 where fcntl(target, F_GETFD) == -1 && errno == EBADF {
            let descriptor = open("/dev/null", target == 0 ? O_RDONLY : O_WRONLY)
            if descriptor >= 0, descriptor != target {
                _ = dup2(descriptor, target)
                close(descriptor)
            }
            if target == 0 { inputWasClosed.store(true, ordering: .relaxed) }
            if target == 1 { outputWasClosed = true }
        }
        if outputWasClosed {
            printError("fido2kit: standard output is closed")
            exit(1)
        }
    }

    /// Standard input, at most `limit.bytes` bytes.
    ///
    /// - Throws: ``CommandFailure`` naming the limit when there is more, or saying why
    ///   standard input cannot be read (closed, a directory, a read error).
    static func readInput(limit: InputLimit) throws(CommandFailure) -> [UInt8] {
        guard !inputWasClosed.load(ordering: .relaxed) else {
            throw CommandFailure("standard input is closed")
        }
        return try InputFile.read(descriptor: 0, name: "standard input", limit: limit)
    }

    /// Writes bytes to standard output as they are.
    ///
    /// - Throws: ``CommandFailure`` (`cannot write standard output: …`) when any byte cannot
    ///   be written: a closed pipe, a full disk, an I/O error.
    static func write(_ bytes: [UInt8]) throws(CommandFailure) {
        if let error = writeAll(bytes, to: 1) {
            throw CommandFailure("cannot write standard output: \(describe(error))")
        }
    }

    /// Writes a line to standard output, for commands that have no side effect to undo: when
    /// the line cannot be written, prints the reason as one line on standard error and exits
    /// with status 1.
    static func print(_ line: String) {
        do {
            try write(Array((line + "\n").utf8))
        } catch {
            printError("fido2kit: \(error.message)")
            exit(1)
        }
    }

    /// Writes a line to standard error; a failure there has nowhere to be reported.
    static func printError(_ line: String) {
        _ = writeAll(Array((line + "\n").utf8), to: 2)
    }

    /// The system's word for `code`.
    static func describe(_ code: Int32) -> String {
        strerror(code).map { String(cString: $0) } ?? "error \(code)"
    }

    /// Writes all of `bytes` to `descriptor`, retrying short writes, `EINTR`, and `EAGAIN` on a
    /// non-blocking descriptor (waiting with `poll`); the `errno` of a failure, or nil.
    private static func writeAll(_ bytes: [UInt8], to descriptor: Int32) -> Int32? {
        var offset = 0
        while offset < bytes.count {
            let written = bytes.withUnsafeBytes { buffer in
                systemWrite(
                    descriptor, buffer.baseAddress.map { $0 + offset }, buffer.count - offset)
            }
            if written < 0 {
                let error = errno
                if error == EINTR { continue }
                if error == EAGAIN || error == EWOULDBLOCK {
                    var request = pollfd(fd: descriptor, events: Int16(POLLOUT), revents: 0)
                    _ = poll(&request, 1, -1)
                    continue
                }
                return error
            }
            offset += written
        }
        return nil
    }
}

/// `write(2)`, under a name the enum's own `write(_:)` does not hide.
private func systemWrite(_ descriptor: Int32, _ bytes: UnsafeRawPointer?, _ count: Int) -> Int {
    write(descriptor, bytes, count)
}
