import Fido2Crypto
import Synchronization

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A credential store in a directory: one file per credential, named
/// `<hex SHA-256 of the credential ID>.credential`.
///
/// The file format, version 1, is UTF-8 text in three parts:
///
/// ```text
/// fido2kit-credential 1
/// {"id":"<b64url>","rpId":"example.org","userHandle":"<b64url>","userName":"alice","userDisplayName":"Alice","alg":-7,"signCount":0,"discoverable":true,"backupEligible":false,"backupState":false,"signCounter":true}
/// -----BEGIN PRIVATE KEY-----
/// <unencrypted PKCS#8, base64, 64 columns>
/// -----END PRIVATE KEY-----
/// ```
///
/// Line 1 is the magic and version. Line 2 is one JSON object on one line: binary members are
/// unpadded base64url, every member is required and unknown members are refused. The rest is
/// the private key as a PEM `PRIVATE KEY` block, so `openssl pkey -in FILE` reads a credential
/// file as it is (OpenSSL skips the text before the block). The private key is not encrypted:
/// the file mode is what protects it, as for an SSH key.
///
/// - Files are created with mode 0600 and the directory (when this store creates it) 0700.
/// - Every write goes to a temporary file in the same directory (`.<name>.tmp-<pid>-<n>`),
///   is flushed with `fsync`, then moved into place: `link` for a new credential (so two
///   writers cannot both add the same ID), `rename` to replace one. A crash leaves either the
///   old file or the new one, never half a credential; a leftover temporary file is not a
///   credential and is ignored.
/// - A file named like a credential that cannot be read back (bad format, bad key, a name
///   that does not match its ID) is reported as `corruptCredential`, never skipped. Files with
///   other names are ignored.
public struct DirectoryCredentialStore: CredentialStore {
    /// The directory.
    public let path: String

    /// Opens the store at `path`, creating the directory (and its parents) with mode 0700 when
    /// it does not exist.
    ///
    /// - Throws: ``WebAuthnError`` `storageFailure` when the path exists but is not a
    ///   directory, or cannot be created.
    public init(path: String) throws(WebAuthnError) {
        self.path = path.count > 1 && path.hasSuffix("/") ? String(path.dropLast()) : path
        try Self.makeDirectory(self.path)
    }

    /// The credential with ID `id`, or nil when its file does not exist.
    ///
    /// - Throws: ``WebAuthnError`` `corruptCredential` when the file cannot be read back;
    ///   `storageFailure` when it cannot be opened or read.
    public func credential(id: [UInt8]) throws(WebAuthnError) -> StoredCredential? {
        let name = try Self.fileName(for: id)
        guard let bytes = try readFile(name) else { return nil }
        return try decode(bytes, name: name)
    }

    /// Every credential for `relyingPartyID`, in file-name order (the order of their IDs'
    /// hashes). Every credential file is read, so one corrupt file fails the call.
    ///
    /// - Throws: ``WebAuthnError`` `corruptCredential`; `storageFailure`.
    public func credentials(relyingPartyID: String) throws(WebAuthnError) -> [StoredCredential] {
        var result: [StoredCredential] = []
        for name in try credentialFileNames() {
            guard let bytes = try readFile(name) else { continue }
            let credential = try decode(bytes, name: name)
            if credential.relyingPartyID == relyingPartyID { result.append(credential) }
        }
        return result
    }

    /// Writes a new credential file (temporary file, `fsync`, then `link` into place).
    ///
    /// - Throws: ``WebAuthnError`` `credentialExists` when the ID's file exists;
    ///   `storageFailure` when writing fails (the store is then unchanged).
    public func add(_ credential: StoredCredential) throws(WebAuthnError) {
        let name = try Self.fileName(for: credential.id)
        let temporary = try writeTemporary(CredentialFile.encode(credential), for: name)
        defer { _ = unlink(temporary) }
        guard link(temporary, full(name)) == 0 else {
            let error = errno
            if error == EEXIST {
                throw WebAuthnError(
                    .credentialExists, "a credential with this ID is stored (\(name))", field: "id")
            }
            throw Self.failure("link \(full(name))", error)
        }
        syncDirectory()
    }

    /// Replaces a credential file atomically (temporary file, `fsync`, then `rename`).
    ///
    /// - Throws: ``WebAuthnError`` `credentialNotFound` when the ID has no file;
    ///   `storageFailure` when writing fails (the old file then stays).
    public func replace(_ credential: StoredCredential) throws(WebAuthnError) {
        let name = try Self.fileName(for: credential.id)
        guard access(full(name), F_OK) == 0 else {
            throw WebAuthnError(
                .credentialNotFound, "no credential with this ID (\(name))", field: "id")
        }
        let temporary = try writeTemporary(CredentialFile.encode(credential), for: name)
        guard rename(temporary, full(name)) == 0 else {
            let error = errno
            _ = unlink(temporary)
            throw Self.failure("rename to \(full(name))", error)
        }
        syncDirectory()
    }

    // MARK: Files

    /// `<hex SHA-256(id)>.credential`: fixed length whatever the ID (up to 1023 bytes).
    static func fileName(for id: [UInt8]) throws(WebAuthnError) -> String {
        let digest: [UInt8]
        do {
            digest = try DigestAlgorithm.sha256.hash(id)
        } catch {
            throw WebAuthnError(.storageFailure, "cannot hash the credential ID: \(error)")
        }
        let hex = Array("0123456789abcdef".utf8)
        var name: [UInt8] = []
        for byte in digest {
            name.append(hex[Int(byte >> 4)])
            name.append(hex[Int(byte & 0x0f)])
        }
        return String(decoding: name, as: UTF8.self) + ".credential"
    }

    private static func isCredentialFileName(_ name: String) -> Bool {
        let bytes = Array(name.utf8)
        return bytes.count == 64 + 11 && name.hasSuffix(".credential")
            && bytes.prefix(64).allSatisfy {
                (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0)
                    || (UInt8(ascii: "a")...UInt8(ascii: "f")).contains($0)
            }
    }

    private func full(_ name: String) -> String { path + "/" + name }

    private func decode(_ bytes: [UInt8], name: String) throws(WebAuthnError) -> StoredCredential {
        let credential = try CredentialFile.decode(bytes, name: full(name))
        guard try Self.fileName(for: credential.id) == name else {
            throw WebAuthnError(
                .corruptCredential, "\(full(name)): the file name does not match the credential ID")
        }
        return credential
    }

    /// The names of the credential files, sorted.
    private func credentialFileNames() throws(WebAuthnError) -> [String] {
        guard let directory = opendir(path) else { throw Self.failure("opendir \(path)", errno) }
        defer { closedir(directory) }
        var names: [String] = []
        while let entry = readdir(directory) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
                String(decoding: raw.prefix(while: { $0 != 0 }), as: UTF8.self)
            }
            if Self.isCredentialFileName(name) { names.append(name) }
        }
        return names.sorted()
    }

    /// The whole file, or nil when it does not exist.
    private func readFile(_ name: String) throws(WebAuthnError) -> [UInt8]? {
        let descriptor = open(full(name), O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else {
            let error = errno
            if error == ENOENT { return nil }
            throw Self.failure("open \(full(name))", error)
        }
        defer { close(descriptor) }
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 4096)
        while true {
            let count = chunk.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
            if count < 0 {
                if errno == EINTR { continue }
                throw Self.failure("read \(full(name))", errno)
            }
            if count == 0 { break }
            bytes.append(contentsOf: chunk[0..<count])
            guard bytes.count <= 1 << 20 else {
                throw WebAuthnError(.corruptCredential, "\(full(name)): larger than 1 MiB")
            }
        }
        return bytes
    }

    private static let counter = Counter()

    /// Writes `bytes` to a new temporary file (mode 0600) beside `name`, flushed to disk;
    /// returns its path.
    private func writeTemporary(
        _ bytes: [UInt8], for name: String
    ) throws(WebAuthnError)
        -> String
    {
        let temporary = full(".\(name).tmp-\(getpid())-\(Self.counter.next())")
        let descriptor = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else { throw Self.failure("create \(temporary)", errno) }
        var failure: WebAuthnError?
        if fchmod(descriptor, 0o600) != 0 { failure = Self.failure("chmod \(temporary)", errno) }
        var offset = 0
        while failure == nil, offset < bytes.count {
            let written = bytes.withUnsafeBytes {
                write(descriptor, $0.baseAddress! + offset, $0.count - offset)
            }
            if written < 0 {
                if errno == EINTR { continue }
                failure = Self.failure("write \(temporary)", errno)
            } else {
                offset += written
            }
        }
        if failure == nil, fsync(descriptor) != 0 {
            failure = Self.failure("fsync \(temporary)", errno)
        }
        if close(descriptor) != 0, failure == nil {
            failure = Self.failure("close \(temporary)", errno)
        }
        if let failure {
            _ = unlink(temporary)
            throw failure
        }
        return temporary
    }

    /// Flushes the directory entry changes (best effort: some file systems refuse).
    private func syncDirectory() {
        let descriptor = open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard descriptor >= 0 else { return }
        _ = fsync(descriptor)
        close(descriptor)
    }

    private static func makeDirectory(_ path: String) throws(WebAuthnError) {
        var status = stat()
        if stat(path, &status) == 0 {
            guard status.st_mode & S_IFMT == S_IFDIR else {
                throw WebAuthnError(.storageFailure, "\(path) is not a directory")
            }
            return
        }
        let parent = path.split(separator: "/", omittingEmptySubsequences: false).dropLast()
            .joined(separator: "/")
        if !parent.isEmpty, parent != path { try makeDirectory(parent) }
        guard mkdir(path, 0o700) == 0 || errno == EEXIST else {
            throw failure("mkdir \(path)", errno)
        }
    }

    private static func failure(_ operation: String, _ code: Int32) -> WebAuthnError {
        let message = strerror(code).map { String(cString: $0) } ?? "error \(code)"
        return WebAuthnError(.storageFailure, "\(operation): \(message)")
    }

    /// Numbers temporary files within the process.
    private final class Counter: Sendable {
        private let value = Mutex(0)
        func next() -> Int {
            value.withLock {
                $0 += 1; return $0
            }
        }
    }
}
