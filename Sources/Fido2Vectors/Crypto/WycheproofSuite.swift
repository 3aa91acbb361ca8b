import Fido2Crypto
import Fido2Encoding

/// Wycheproof signature-verification files (C2SP/wycheproof `testvectors_v1`): ECDSA (P-256,
/// P-384, P-521, and secp256k1 as COSE ES256K) with DER or IEEE P1363 signatures, EdDSA,
/// RSASSA-PKCS1-v1_5 and RSASSA-PSS.
///
/// Each group's key is imported from its `publicKeyDer` and, where the group gives one, from
/// its raw form too: the uncompressed EC point (the path a relying party takes with a COSE
/// key) or the raw EdDSA key, which must be the same key. Each test's signature is
/// checked under every import through `PublicKey.isValidSignature`: `valid` must verify and
/// `invalid` must not. `acceptable` cases (the RSA PKCS#1 `MissingNull` cases, a DigestInfo
/// without the NULL parameters, which RFC 8017 §9.2 note 1 lets verifiers accept) must be
/// rejected: OpenSSL compares the whole re-encoded DigestInfo, no legitimate WebAuthn signer
/// omits the NULL, and fido2kit documents that it rejects them. A file whose `numberOfTests`
/// is not the number of tests it holds fails one more case, `numberOfTests`.
package struct WycheproofSuite: VectorSuite {
    package let name: String
    private let groups: [JSONObject]
    private let schema: String
    private let numberOfTests: Int64?

    package init?(name: String, json: JSONValue) {
        guard let schema = json["schema"]?.stringValue,
            schema.hasSuffix("verify_schema_v1.json") || schema.hasSuffix("verify_schema.json"),
            let groups = json["testGroups"]?.arrayValue?.compactMap(\.objectValue),
            !groups.isEmpty
        else { return nil }
        self.name = name
        self.groups = groups
        self.schema = schema
        self.numberOfTests = json["numberOfTests"]?.int64Value
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
                case .success(let setup):
                    results.append(.check(id, Self.failure(of: test, setup)))
                }
            }
            // Compared after the tests, so that a key imported from its raw form meets its
            // first signature fresh, as a relying party's COSE key does.
            if case .success(let setup) = setup,
                let (form, key) = setup.keys.dropFirst().first, key != setup.keys[0].1
            {
                results.append(
                    .fail("group \(groupIndex) \(form)", "the group's \(form) is not its key"))
            }
        }
        if let numberOfTests, numberOfTests != Int64(results.count) {
            results.append(
                .fail(
                    "numberOfTests",
                    "the file says \(numberOfTests) tests and holds \(results.count)"))
        }
        return results
    }

    /// What a group's tests are checked with.
    private struct GroupSetup {
        /// The group's key, imported each way the group gives it (name, key).
        let keys: [(String, PublicKey)]
        let algorithm: COSEAlgorithm
        /// Whether signatures are IEEE P1363 `r ‖ s` rather than DER.
        let p1363: Bool
    }

    private static func groupSetup(
        _ group: JSONObject, schema: String
    ) -> Result<GroupSetup, SetupFailure> {
        guard let der = hex(group["publicKeyDer"]), let key = try? PublicKey(unsafeSPKIDER: der)
        else { return .failure(SetupFailure("group key does not import")) }
        var keys = [("publicKeyDer", key)]
        let raw = group["publicKey"]
        if let point = hex(raw?["uncompressed"]) {
            guard let fromPoint = try? PublicKey(uncompressedPoint: point, kind: key.kind) else {
                return .failure(SetupFailure("the group's point does not import"))
            }
            keys.append(("uncompressed point", fromPoint))
        } else if key.kind.isEdDSA, let pk = hex(raw?["pk"]) {
            guard let fromRaw = try? PublicKey(rawEdDSAPublicKey: pk, kind: key.kind) else {
                return .failure(SetupFailure("the group's raw key does not import"))
            }
            keys.append(("raw key", fromRaw))
        }
        let sha = group["sha"]?.stringValue
        let algorithm: COSEAlgorithm?
        let family = schema.split(separator: "_").first.map(String.init)
        switch (family, sha, key.kind) {
        case ("ecdsa", "SHA-256", .p256): algorithm = .es256
        case ("ecdsa", "SHA-384", .p384): algorithm = .es384
        case ("ecdsa", "SHA-512", .p521): algorithm = .es512
        case ("ecdsa", "SHA-256", .secp256k1): algorithm = .es256K
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
        return .success(
            GroupSetup(keys: keys, algorithm: algorithm, p1363: schema.contains("p1363")))
    }

    private static func failure(of test: JSONObject, _ setup: GroupSetup) -> String? {
        guard let message = hex(test["msg"]), let signature = hex(test["sig"]),
            let result = test["result"]?.stringValue
        else { return "malformed test case" }
        for (form, key) in setup.keys {
            var der = signature
            if setup.p1363 {
                // A raw r ‖ s of the wrong size cannot be a valid signature.
                der =
                    (try? ECDSASignature(rawRepresentation: signature, kind: key.kind))?
                    .derRepresentation ?? []
            }
            var valid = false
            if !der.isEmpty {
                do {
                    valid = try key.isValidSignature(der, for: message, algorithm: setup.algorithm)
                } catch {
                    return "error instead of a verdict (key from \(form)): \(error)"
                }
            }
            let suffix = form == "publicKeyDer" ? "" : " (key from \(form))"
            switch (result, valid) {
            case ("valid", true), ("invalid", false), ("acceptable", false): continue
            case ("valid", false): return "valid signature rejected" + suffix
            case ("acceptable", true): return "acceptable case accepted (policy: reject)" + suffix
            default: return "invalid signature accepted" + suffix
            }
        }
        return nil
    }

    private static func hex(_ value: JSONValue?) -> [UInt8]? {
        value?.stringValue.flatMap { try? Hex.decode($0) }
    }

    private struct SetupFailure: Error {
        let reason: String
        init(_ reason: String) { self.reason = reason }
    }
}
