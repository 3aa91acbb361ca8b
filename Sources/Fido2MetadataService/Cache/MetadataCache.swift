import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// The last good BLOB on disk: one file, `blob.jwt`, in the cache directory, replaced
/// atomically (written to a temporary file in the same directory, flushed, renamed over the
/// old one, then the directory flushed), so a reader or a crash never sees a partial file.
struct MetadataCache: Sendable {
    /// The file's name in the directory.
    static let fileName = "blob.jwt"

    let directory: URL

    /// The text of the current `errno`.
    static func errorText() -> String {
        let code = errno
        guard let text = strerror(code) else { return "errno \(code)" }
        return String(validatingCString: text) ?? "errno \(code)"
    }

    var fileURL: URL { directory.appendingPathComponent(Self.fileName) }

    /// The cached bytes, nil when there is no file.
    ///
    /// - Throws: ``MetadataServiceError/Code/cache`` when the file does not read or is larger
    ///   than `maximumBytes`.
    func read(maximumBytes: Int) throws(MetadataServiceError) -> [UInt8]? {
        let path = fileURL.path
        let descriptor = open(path, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC)
        guard descriptor >= 0 else {
            if errno == ENOENT { return nil }
            throw MetadataServiceError(.cache, "\(path): \(Self.errorText())")
        }
        defer { close(descriptor) }
        var info = stat()
        guard fstat(descriptor, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG else {
            throw MetadataServiceError(.cache, "\(path): not a regular file")
        }
        var bytes: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            let count = buffer.withUnsafeMutableBytes {
                systemRead(descriptor, $0.baseAddress, $0.count)
            }
            if count < 0 {
                if errno == EINTR { continue }
                throw MetadataServiceError(.cache, "\(path): \(Self.errorText())")
            }
            if count == 0 { return bytes }
            guard bytes.count + count <= maximumBytes else {
                throw MetadataServiceError(.cache, "\(path): larger than \(maximumBytes) bytes")
            }
            bytes += buffer[..<count]
        }
    }

    /// Replaces the cached BLOB with `bytes`, atomically.
    ///
    /// - Throws: ``MetadataServiceError/Code/cache`` when the directory cannot be made or the
    ///   file written; the previous file is then left as it was.
    func write(_ bytes: [UInt8]) throws(MetadataServiceError) {
        let directoryPath = directory.path
        do {
            try FileManager.default.createDirectory(
                atPath: directoryPath, withIntermediateDirectories: true,
                attributes: [.posixPermissions: 0o755])
        } catch {
            throw MetadataServiceError(.cache, "\(directoryPath): \(error.localizedDescription)")
        }
        var template = Array((directoryPath + "/.\(Self.fileName).XXXXXX").utf8CString)
        let descriptor = template.withUnsafeMutableBufferPointer { buffer in
            buffer.baseAddress.map { mkstemp($0) } ?? -1
        }
        guard descriptor >= 0 else {
            throw MetadataServiceError(
                .cache, "\(directoryPath): \(Self.errorText())")
        }
        // Not inherited by a process this one starts (mkostemp, which sets it at once, is a GNU
        // extension the Glibc module does not export).
        _ = fcntl(descriptor, F_SETFD, FD_CLOEXEC)
        let temporary = String(
            decoding: template.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        var failure: String?
        var offset = 0
        while offset < bytes.count, failure == nil {
            let written = bytes[offset...].withUnsafeBytes {
                systemWrite(descriptor, $0.baseAddress, $0.count)
            }
            if written < 0 {
                if errno != EINTR { failure = Self.errorText() }
            } else {
                offset += written
            }
        }
        if failure == nil, fchmod(descriptor, 0o644) != 0 || fsync(descriptor) != 0 {
            failure = Self.errorText()
        }
        close(descriptor)
        if failure == nil, rename(temporary, fileURL.path) != 0 {
            failure = Self.errorText()
        }
        if let failure {
            unlink(temporary)
            throw MetadataServiceError(.cache, "\(fileURL.path): \(failure)")
        }
        // The rename is durable once the directory is: without this, a crash soon after could
        // bring back the previous file (an older BLOB, below the rollback floor the service
        // keeps in memory).
        let directoryDescriptor = open(directoryPath, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard directoryDescriptor >= 0 else {
            throw MetadataServiceError(.cache, "\(directoryPath): \(Self.errorText())")
        }
        defer { close(directoryDescriptor) }
        guard fsync(directoryDescriptor) == 0 else {
            throw MetadataServiceError(.cache, "\(directoryPath): \(Self.errorText())")
        }
    }
}

// The C calls by other names: inside `MetadataCache`, `read` and `write` name its methods.
private func systemRead(
    _ descriptor: Int32, _ buffer: UnsafeMutableRawPointer?, _ count: Int
)
    -> Int
{
    read(descriptor, buffer, count)
}

private func systemWrite(_ descriptor: Int32, _ buffer: UnsafeRawPointer?, _ count: Int) -> Int {
    write(descriptor, buffer, count)
}
