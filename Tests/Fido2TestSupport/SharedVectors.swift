import Foundation

/// Locates and loads the external test suites in `../shared/vectors` (relative to the package
/// root), or in the directory named by the `FIDO2KIT_SHARED_VECTORS` environment variable.
///
/// A missing suite is an error, never a skip: a test that cannot find its data fails and says
/// where it looked.
public enum SharedVectors {
    /// An external suite could not be found or read.
    public struct MissingSuite: Error, CustomStringConvertible {
        /// The path that was tried.
        public let path: String
        /// Why it could not be used.
        public let reason: String
        /// One line naming the path and the reason.
        public var description: String { "shared vectors unavailable at \(path): \(reason)" }
    }

    /// The package root, derived from this file's location (`Tests/Fido2TestSupport/…`).
    public static let packageRoot: URL = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent()
        .deletingLastPathComponent()
        .deletingLastPathComponent()

    /// The directory holding the external suites.
    public static var directory: URL {
        if let override = ProcessInfo.processInfo.environment["FIDO2KIT_SHARED_VECTORS"] {
            return URL(fileURLWithPath: override)
        }
        return packageRoot.deletingLastPathComponent().appendingPathComponent("shared/vectors")
    }

    /// `../shared/interop`: other relying parties' test data.
    public static var interopDirectory: URL {
        directory.deletingLastPathComponent().appendingPathComponent("interop")
    }

    /// The project's own suite, `vectors/`.
    public static var projectDirectory: URL { packageRoot.appendingPathComponent("vectors") }

    /// The bytes of `name` (a path relative to the shared vectors directory).
    public static func data(_ name: String) throws -> Data {
        try data(at: directory.appendingPathComponent(name))
    }

    /// The bytes of the file at `url`.
    public static func data(at url: URL) throws -> Data {
        do {
            return try Data(contentsOf: url)
        } catch {
            throw MissingSuite(path: url.path, reason: "\(error)")
        }
    }

    /// `name` parsed as JSON with `JSONSerialization`.
    public static func json(_ name: String) throws -> Any {
        try JSONSerialization.jsonObject(with: data(name))
    }

    /// `name` decoded into `T`.
    public static func decode<T: Decodable>(_ type: T.Type, from name: String) throws -> T {
        try JSONDecoder().decode(T.self, from: data(name))
    }
}
