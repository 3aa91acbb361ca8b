import Fido2WebAuthnWire

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The directory of a ``DirectoryCredentialStore``: made when missing, checked before use, and
/// rid of temporary files that writers killed mid-write left behind.
enum StoreDirectory {
    /// Makes `path` (and its missing parents) with mode 0700 when it does not exist and
    /// `creating` is true, then checks it as ssh checks the directory of its keys: a directory,
    /// owned by the effective user (or root), writable by nobody else, since whoever can write
    /// there can plant or swap credentials.
    ///
    /// - Throws: ``AuthenticatorError`` `storageFailure` naming what is wrong.
    static func prepare(_ path: String, creating: Bool) throws(AuthenticatorError) {
        if creating { try make(path) }
        var status = stat()
        guard stat(path, &status) == 0 else {
            let error = errno
            if error == ENOENT, !creating {
                throw AuthenticatorError(
                    .storageFailure, "\(path): no such credential store (nothing is stored yet)")
            }
            throw StoreFile.failure("stat \(path)", error)
        }
        guard status.st_mode & S_IFMT == S_IFDIR else {
            throw AuthenticatorError(.storageFailure, "\(path) is not a directory")
        }
        try StoreAccessRule.directory.check(status, path: path)
    }

    /// The names in `path` for which `include` is true, sorted.
    ///
    /// - Throws: ``AuthenticatorError`` `storageFailure` when the directory cannot be read.
    static func names(
        in path: String, where include: (String) -> Bool
    ) throws(AuthenticatorError) -> [String] {
        guard let directory = opendir(path) else {
            throw StoreFile.failure("opendir \(path)", errno)
        }
        defer { closedir(directory) }
        var names: [String] = []
        // A record readdir returns can be shorter than `struct dirent` (glibc packs them), so
        // the name is read through a pointer up to its NUL, never copied as the whole field.
        guard let nameOffset = MemoryLayout<dirent>.offset(of: \dirent.d_name) else {
            throw AuthenticatorError(.storageFailure, "struct dirent has no stored d_name field")
        }
        while let entry = readdir(directory) {
            let name = String(
                cString: UnsafeRawPointer(entry).advanced(by: nameOffset).assumingMemoryBound(
                    to: CChar.self))
            if include(name) { names.append(name) }
        }
        return names.sorted()
    }

    /// Wipes and removes every temporary file of the store's own pattern, when the store's lock
    /// is free. Writers hold the lock from creating their temporary file to moving it into place,
    /// so a temporary file seen under the lock belongs to a writer that died. When another
    /// process holds the lock, nothing is removed: the next opening does it.
    static func removeStaleTemporaries(_ path: String) {
        _ = StoreLock.ifAvailable(directory: path) {
            guard let stale = try? names(in: path, where: isTemporaryFileName) else { return }
            for name in stale { StoreFile.wipeAndRemove(path + "/" + name) }
        }
    }

    /// `.<credential file name>.tmp-<anything>`: the temporary files of this store, including
    /// those of earlier versions (`.tmp-<pid>-<n>`).
    static func isTemporaryFileName(_ name: String) -> Bool {
        let bytes = Array(name.utf8)
        let prefix = 1 + credentialFileNameLength
        let marker = Array(StoreFile.temporaryMarker.utf8)
        guard bytes.count > prefix + marker.count, bytes[0] == UInt8(ascii: ".") else {
            return false
        }
        return isCredentialFileName(bytes[1..<prefix])
            && bytes[prefix..<(prefix + marker.count)].elementsEqual(marker)
    }

    /// `<64 lower-case hex digits>.credential`.
    static func isCredentialFileName(_ name: some Collection<UInt8>) -> Bool {
        guard name.count == credentialFileNameLength else { return false }
        return name.prefix(64).allSatisfy {
            (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0)
                || (UInt8(ascii: "a")...UInt8(ascii: "f")).contains($0)
        } && name.dropFirst(64).elementsEqual(".credential".utf8)
    }

    static let credentialFileNameLength = 64 + 11

    private static func make(_ path: String) throws(AuthenticatorError) {
        var status = stat()
        if stat(path, &status) == 0 { return }
        let parent = path.split(separator: "/", omittingEmptySubsequences: false).dropLast()
            .joined(separator: "/")
        if !parent.isEmpty, parent != path { try make(parent) }
        guard mkdir(path, 0o700) == 0 || errno == EEXIST else {
            throw StoreFile.failure("mkdir \(path)", errno)
        }
    }
}
