import Fido2Encoding
import Foundation

/// Recognizes the suite formats `fido2kit vectors verify` knows, by shape.
enum VectorSuiteCatalog {
    /// What a file turned out to be.
    enum Recognition {
        /// A suite to run.
        case suite(any VectorSuite)
        /// A JSON file whose format this version has no runner for.
        case unknown(reason: String)
    }

    /// Vector files are larger than WebAuthn messages; everything else keeps the defaults.
    static let readerOptions = JSONReader.Options(
        maximumInputLength: 64 << 20, maximumStringLength: 16 << 20)

    /// The suite in the JSON file at `url`.
    static func recognize(_ url: URL) -> Recognition {
        let json: JSONValue
        do {
            let bytes = try InputFile.read(url.path, limit: .vectorSuite)
            json = try JSONReader(options: readerOptions).read(bytes)
        } catch let failure as CommandFailure {
            return .unknown(reason: failure.message)
        } catch {
            return .unknown(reason: "unreadable JSON: \(error)")
        }
        let name = url.lastPathComponent
        if let suite = RFC8949AppendixASuite(name: name, json: json) { return .suite(suite) }
        if let suite = WycheproofSuite(name: name, json: json) { return .suite(suite) }
        if let suite = COSEKeysSuite(name: name, json: json) { return .suite(suite) }
        if let suite = PRFSuite(name: name, json: json) { return .suite(suite) }
        if let suite = W3CWebAuthnSuite(name: name, json: json) { return .suite(suite) }
        if let suite = RealRegistrationsSuite(name: name, json: json) { return .suite(suite) }
        if let suite = RealAuthenticationsSuite(name: name, json: json) { return .suite(suite) }
        if let suite = ProjectVectorSuite(name: name, json: json) { return .suite(suite) }
        return .unknown(reason: "no runner knows this file's format")
    }
}
