import Fido2CBOR
@_spi(Fido2Internals) import Fido2Crypto
import Fido2Encoding
import Fido2TestSupport
import Foundation
import Testing

/// Certificates taken from the shared vectors: the W3C WebAuthn L3 attestation root and the
/// `x5c` of every case, and the `x5c` arrays (attestation statements and SafetyNet JWS
/// headers) of `real-registrations.json`.
enum X509TestVectors {
    /// One certificate chain found in a vector case.
    struct Chain {
        let caseID: String
        let format: String
        /// Where the chain came from: `attStmt.x5c` or the SafetyNet JWS header's `x5c`.
        let source: String
        let certificates: [[UInt8]]
        let pinnedTime: Int64?
        /// The AAGUID of the case's authenticator data (hex), where the vectors decode it.
        var authenticatorDataAAGUID: String? = nil
    }

    // MARK: W3C

    static func w3cRoot() throws -> [UInt8] {
        let root = try #require(
            SharedVectors.json("webauthn-l3-test-vectors.json") as? [String: Any])
        let values = try #require(
            (root["attestation_root"] as? [String: Any])?["values"] as? [String: String])
        return Hex.bytes(try #require(values["attestation_ca_cert"]))
    }

    static func w3cRootPrivateKey() throws -> PrivateKey {
        let root = try #require(
            SharedVectors.json("webauthn-l3-test-vectors.json") as? [String: Any])
        let values = try #require(
            (root["attestation_root"] as? [String: Any])?["values"] as? [String: String])
        return try PrivateKey(
            rawScalar: Hex.bytes(try #require(values["attestation_ca_key"])), kind: .p256)
    }

    /// The W3C cases with an `x5c`, keyed by case id.
    static func w3cChains() throws -> [Chain] {
        let root = try #require(
            SharedVectors.json("webauthn-l3-test-vectors.json") as? [String: Any])
        let cases = try #require(root["cases"] as? [[String: Any]])
        var chains: [Chain] = []
        for testCase in cases {
            let id = try #require(testCase["id"] as? String)
            let values = try #require(
                (testCase["registration"] as? [String: Any])?["values"] as? [String: String])
            let object = try CBORValue.decode(
                Hex.bytes(try #require(values["attestationObject"])))
            let format = try #require(object["fmt"]?.stringValue)
            guard let x5c = object["attStmt"]?["x5c"]?.arrayValue else { continue }
            chains.append(
                Chain(
                    caseID: id, format: format, source: "attStmt.x5c",
                    certificates: try x5c.map { try #require($0.bytesValue) }, pinnedTime: nil))
        }
        return chains
    }

    /// The W3C case's registration values (for keys and serial numbers).
    static func w3cRegistrationValues(_ id: String) throws -> [String: String] {
        let root = try #require(
            SharedVectors.json("webauthn-l3-test-vectors.json") as? [String: Any])
        let cases = try #require(root["cases"] as? [[String: Any]])
        let testCase = try #require(cases.first { ($0["id"] as? String) == id })
        return try #require(
            (testCase["registration"] as? [String: Any])?["values"] as? [String: String])
    }

    // MARK: Real registrations

    /// Every chain of `real-registrations.json`, one per case that has one (cases sharing an
    /// attestation object each count).
    static func realChains() throws -> [Chain] {
        let cases = try #require(
            SharedVectors.json("real-registrations.json") as? [[String: Any]])
        var chains: [Chain] = []
        for testCase in cases {
            let id = try #require(testCase["case_id"] as? String)
            let response = try #require(
                (testCase["credential"] as? [String: Any])?["response"] as? [String: Any])
            let encoded = try #require(response["attestationObject"] as? String)
            guard !encoded.isEmpty else { continue }  // reg-007: empty on purpose
            let object = try CBORValue.decode(Base64URL.decode(encoded), options: .lenient)
            let format = try #require(object["fmt"]?.stringValue)
            let pinned = try (testCase["source_pinned_validation_time"] as? String).map {
                try #require(ISO8601Time.seconds($0), "\($0)")
            }
            let aaguid = (testCase["decoded"] as? [String: Any])?["aaguid"] as? String
            if let x5c = object["attStmt"]?["x5c"]?.arrayValue {
                chains.append(
                    Chain(
                        caseID: id, format: format, source: "attStmt.x5c",
                        certificates: try x5c.map { try #require($0.bytesValue) },
                        pinnedTime: pinned, authenticatorDataAAGUID: aaguid))
            }
            if format == "android-safetynet" {
                let jws = try #require(object["attStmt"]?["response"]?.bytesValue)
                let header = try #require(
                    jws.split(separator: UInt8(ascii: "."), omittingEmptySubsequences: false).first)
                let json = try #require(
                    JSONSerialization.jsonObject(with: Data(Base64URL.decode(utf8: header)))
                        as? [String: Any])
                let x5c = try #require(json["x5c"] as? [String])
                chains.append(
                    Chain(
                        caseID: id, format: format, source: "JWS x5c",
                        certificates: try x5c.map { try Base64.decode($0) }, pinnedTime: pinned))
            }
        }
        return chains
    }
}
