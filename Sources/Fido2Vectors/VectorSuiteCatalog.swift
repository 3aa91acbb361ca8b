import Fido2Encoding

/// Recognizes the suite formats fido2kit knows, by shape: the one entry point through which
/// `fido2kit vectors verify` and the tests run a vector file.
package enum VectorSuiteCatalog {
    /// What a file turned out to be.
    package enum Recognition {
        /// A suite to run.
        case suite(any VectorSuite)
        /// A JSON file whose format this version has no runner for.
        case unknown(reason: String)
    }

    /// Vector files are larger than WebAuthn messages; everything else keeps the defaults.
    package static let readerOptions = JSONReader.Options(
        maximumInputLength: 64 << 20, maximumStringLength: 16 << 20)

    /// The suite in the JSON text `bytes` of the file called `name`.
    package static func recognize(name: String, bytes: [UInt8]) -> Recognition {
        let json: JSONValue
        do {
            json = try JSONReader(options: readerOptions).read(bytes)
        } catch {
            return .unknown(reason: "unreadable JSON: \(error)")
        }
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
