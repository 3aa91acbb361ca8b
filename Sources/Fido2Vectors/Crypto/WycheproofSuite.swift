import Fido2Crypto
import Fido2Encoding

/// Wycheproof signature-verification files (C2SP/wycheproof `testvectors_v1`): ECDSA with DER
/// or IEEE P1363 signatures, EdDSA, RSASSA-PKCS1-v1_5 and RSASSA-PSS. Each test's signature is
/// checked with the group's `publicKeyDer` through `PublicKey.isValidSignature`; `valid` must
/// verify and `invalid` must not. `acceptable` cases (RSA PKCS#1 DigestInfo without the NULL
/// parameters) must be rejected: OpenSSL compares the whole DigestInfo, and fido2kit documents
/// that it rejects them.
package struct WycheproofSuite: VectorSuite {
    package let name: String
    private let groups: [JSONObject]
    private let schema: String

    package init?(name: String, json: JSONValue) {
        guard let schema = json["schema"]?.stringValue,
            schema.hasSuffix("verify_schema_v1.json") || schema.hasSuffix("verify_schema.json"),
            let groups = json["testGroups"]?.arrayValue?.compactMap(\.objectValue),
            !groups.isEmpty
        else { return nil }
        self.name = name
        self.groups = groups
        self.schema = schema
    }

    package func run() -> [VectorCaseResult] {
        var results: [VectorCaseResult] = []
        for (groupIndex, group) in groups.enumerated() {
            let tests = group["tests"]?.arrayValue?.compactMap(\.objectValue) ?? []
            let setup = Self.groupSetup(group, schema: schema)
            for test in tests {
                let id = "group \(groupIndex) tcId \(test["tcId"]?.int64Value ?? -1)"
                switch setup {
                case .failure(let failure):
                    results.append(.fail(id, failure.reason))
                case .success(let (key, algorithm, p1363)):
                    results.append(
                        .check(
                            id, Self.failure(of: test, key: key, algorithm: algorithm, p1363: p1363)
                        ))
                }
            }
        }
        return results
    }

    /// The key, COSE algorithm and signature format a group's tests use.
    private static func groupSetup(
        _ group: JSONObject, schema: String
    )
        -> Result<(PublicKey, COSEAlgorithm, Bool), SetupFailure>
    {
        guard
            let der = group["publicKeyDer"]?.stringValue.flatMap({
                try? Hex.decode($0)
            }),
            let key = try? PublicKey(unsafeSPKIDER: der)
        else { return .failure(SetupFailure("group key does not import")) }
        let sha = group["sha"]?.stringValue
        let algorithm: COSEAlgorithm?
        let family = schema.split(separator: "_").first.map(String.init)
        switch (family, sha, key.kind) {
        case ("ecdsa", "SHA-256", .p256): algorithm = .es256
        case ("ecdsa", "SHA-384", .p384): algorithm = .es384
        case ("ecdsa", "SHA-512", .p521): algorithm = .es512
        case ("eddsa", _, _): algorithm = .edDSA
        case ("rsassa", "SHA-256", _) where schema.contains("pss"): algorithm = .ps256
        case ("rsassa", "SHA-384", _) where schema.contains("pss"): algorithm = .ps384
        case ("rsassa", "SHA-512", _) where schema.contains("pss"): algorithm = .ps512
        case ("rsassa", "SHA-256", _): algorithm = .rs256
        case ("rsassa", "SHA-384", _): algorithm = .rs384
        case ("rsassa", "SHA-512", _): algorithm = .rs512
        default: algorithm = nil
        }
        guard let algorithm else {
            return .failure(
                SetupFailure("no COSE algorithm for \(schema) with \(sha ?? "no hash")"))
        }
        return .success((key, algorithm, schema.contains("p1363")))
    }

    private static func failure(
        of test: JSONObject, key: PublicKey, algorithm: COSEAlgorithm, p1363: Bool
    )
        -> String?
    {
        guard
            let message = test["msg"]?.stringValue.flatMap({ try? Hex.decode($0) }
            ),
            var signature = test["sig"]?.stringValue.flatMap({
                try? Hex.decode($0)
            }),
            let result = test["result"]?.stringValue
        else { return "malformed test case" }
        var valid = false
        if p1363 {
            // A raw r ‖ s of the wrong size cannot be a valid signature.
            signature =
                (try? ECDSASignature(rawRepresentation: signature, kind: key.kind))?
                .derRepresentation ?? []
        }
        if !signature.isEmpty {
            do {
                valid = try key.isValidSignature(signature, for: message, algorithm: algorithm)
            } catch {
                return "error instead of a verdict: \(error)"
            }
        }
        switch (result, valid) {
        case ("valid", true), ("invalid", false), ("acceptable", false): return nil
        case ("valid", false): return "valid signature rejected"
        case ("acceptable", true): return "acceptable case accepted (policy: reject)"
        default: return "invalid signature accepted"
        }
    }

    struct SetupFailure: Error {
        let reason: String
        init(_ reason: String) { self.reason = reason }
    }
}
