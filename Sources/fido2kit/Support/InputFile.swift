#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Reads the files and standard input the commands take, never more than an ``InputLimit``: a
/// regular file's size is checked with `fstat` before reading, and standard input that is not
/// a regular file (a pipe, a device such as `/dev/zero`) is read up to the limit plus one
/// byte, then refused. Memory stays within the limit whatever the input.
///
/// A file named by its path must be a regular file: it is opened without blocking
/// (`O_NONBLOCK`, so a FIFO without a writer does not hang the command) and checked with
/// `fstat` before any read; a FIFO, a device, a socket or a directory is refused at once
/// (standard input, `-`, is where a pipe goes).
enum InputFile {
    /// The bytes of the file at `path`, or of standard input for `-`.
    ///
    /// - Throws: ``CommandFailure`` naming the file and the limit, or why it cannot be read
    ///   (not a regular file included).
    static func read(_ path: String, limit: InputLimit) throws(CommandFailure) -> [UInt8] {
        if path == "-" { return try StandardStreams.readInput(limit: limit) }
        let descriptor = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC)
        guard descriptor >= 0 else {
            throw CommandFailure("cannot read \(path): \(StandardStreams.describe(errno))")
        }
        defer { close(descriptor) }
        var status = stat()
        guard fstat(descriptor, &status) == 0 else {
            throw CommandFailure("cannot read \(path): \(StandardStreams.describe(errno))")
        }
        let kind = status.st_mode & S_IFMT
        guard kind == S_IFREG || kind == S_IFDIR else {
            throw CommandFailure(
                "cannot read \(path): it is \(describe(kind)), not a regular file "
                    + "(give - to read standard input)")
        }
        // A regular file's reads never block; back to blocking mode all the same.
        _ = fcntl(descriptor, F_SETFL, fcntl(descriptor, F_GETFL) & ~O_NONBLOCK)
        return try read(descriptor: descriptor, name: path, limit: limit)
    }

    /// "a FIFO", "a character device", … for a file type of `st_mode`.
    private static func describe(_ kind: mode_t) -> String {
        switch kind {
        case S_IFIFO: "a FIFO"
        case S_IFCHR: "a character device"
        case S_IFBLK: "a block device"
        case S_IFSOCK: "a socket"
        default: "of type \(String(kind, radix: 8))"
        }
    }

    /// The text of the file at `path` (or standard input for `-`), decoded as UTF-8.
    ///
    /// - Throws: ``CommandFailure`` as ``read(_:limit:)``.
    static func readText(_ path: String, limit: InputLimit) throws(CommandFailure) -> String {
        String(decoding: try read(path, limit: limit), as: UTF8.self)
    }

    /// Everything `descriptor` holds, up to `limit`.
    ///
    /// - Throws: ``CommandFailure`` naming `name` and the limit, or why it cannot be read.
    static func read(
        descriptor: Int32, name: String, limit: InputLimit
    ) throws(CommandFailure) -> [UInt8] {
        var status = stat()
        guard fstat(descriptor, &status) == 0 else {
            throw CommandFailure("cannot read \(name): \(StandardStreams.describe(errno))")
        }
        switch status.st_mode & S_IFMT {
        case S_IFDIR:
            throw CommandFailure("cannot read \(name): it is a directory")
        case S_IFREG where status.st_size > limit.bytes:
            throw tooLarge(name, limit, size: Int(status.st_size))
        default:
            break
        }
        let chunkSize = 1 << 16
        var bytes: [UInt8] = []
        if status.st_mode & S_IFMT == S_IFREG {
            bytes.reserveCapacity(Int(status.st_size) + 1)
        }
        var chunk = [UInt8](repeating: 0, count: chunkSize)
        while bytes.count <= limit.bytes {
            let wanted = min(chunkSize, limit.bytes + 1 - bytes.count)
            let received = chunk.withUnsafeMutableBytes { buffer in
                systemRead(descriptor, buffer.baseAddress, wanted)
            }
            if received < 0 {
                if errno == EINTR { continue }
                throw CommandFailure("cannot read \(name): \(StandardStreams.describe(errno))")
            }
            if received == 0 { return bytes }
            bytes.append(contentsOf: chunk[0..<received])
        }
        throw tooLarge(name, limit, size: nil)
    }

    private static func tooLarge(_ name: String, _ limit: InputLimit, size: Int?) -> CommandFailure
    {
        let amount = size.map { "\($0) bytes" } ?? "more than \(limit.text)"
        return CommandFailure(
            "\(name) holds \(amount): the limit for \(limit.what) is \(limit.text)")
    }
}

/// `read(2)`, under a name the enum's own `read` functions do not hide.
private func systemRead(
    _ descriptor: Int32, _ buffer: UnsafeMutableRawPointer?, _ count: Int
)
    -> Int
{
    read(descriptor, buffer, count)
}
