import Fido2Authenticator
import Fido2WebAuthn
import Fido2WebAuthnWire
import Foundation

/// A `DirectoryCredentialStore` in a fresh temporary directory, removed when released, whose
/// whole content can be captured to prove that a failed call changed nothing.
final class TemporaryStore {
    /// The directory.
    let path: String
    /// The store over it.
    let store: DirectoryCredentialStore

    init() throws {
        let base = FileManager.default.temporaryDirectory.appendingPathComponent(
            "fido2kit-belvo-\(UUID().uuidString)")
        path = base.path
        store = try DirectoryCredentialStore(path: path)
    }

    deinit {
        try? FileManager.default.removeItem(atPath: path)
    }

    /// Every file of the directory (hidden ones too, so a leftover temporary file counts) with
    /// its bytes and permissions.
    func snapshot() throws -> [String: Entry] {
        var entries = [String: Entry]()
        for name in try FileManager.default.contentsOfDirectory(atPath: path) {
            let file = (path as NSString).appendingPathComponent(name)
            let attributes = try FileManager.default.attributesOfItem(atPath: file)
            // An empty file (the store's `.lock`) is not read: Foundation's `Data(contentsOf:)`
            // leaks on one under LeakSanitizer.
            let size = (attributes[.size] as? NSNumber)?.intValue ?? -1
            entries[name] = Entry(
                bytes: size == 0 ? [] : Array(try Data(contentsOf: URL(fileURLWithPath: file))),
                permissions: (attributes[.posixPermissions] as? NSNumber)?.intValue ?? -1)
        }
        return entries
    }

    /// One file's content and mode.
    struct Entry: Equatable {
        let bytes: [UInt8]
        let permissions: Int
    }
}
