import Foundation

/// Recognizes the suite formats `fido2kit vectors verify` knows, by file name and shape.
enum VectorSuiteCatalog {
    /// What a file turned out to be.
    enum Recognition {
        /// A suite to run.
        case suite(any VectorSuite)
        /// A JSON file whose format this version has no runner for.
        case unknown(reason: String)
    }

    /// The suite in the JSON file at `url`.
    static func recognize(_ url: URL) -> Recognition {
        let json: Any
        do {
            json = try JSONSerialization.jsonObject(
                with: Data(contentsOf: url), options: [.fragmentsAllowed])
        } catch {
            return .unknown(reason: "unreadable JSON: \(error.localizedDescription)")
        }
        let name = url.lastPathComponent
        if let suite = RFC8949AppendixASuite(name: name, json: json) { return .suite(suite) }
        return .unknown(reason: "no runner for this format in this version")
    }
}
