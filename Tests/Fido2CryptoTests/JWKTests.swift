import Fido2Crypto
import Fido2Encoding
import Fido2TestSupport
import Foundation
import Testing

@Suite struct JWKTests {
    // RFC 8037 appendix A.1 (the RFC 8032 test 1 key) and A.3 (its thumbprint).
    static let rfc8037Private =
        #"{"kty":"OKP","crv":"Ed25519","d":"nWGxne_9WmC6hEr0kuwsxERJxWl7MmkZcDusAxyuf2A","x":"11qYAYKxCrfVS_7TyWQHOg7hcvPapiMlrwIaaPcHURo"}"#

    @Test func readsTheRFC8037KeyAndReproducesItsThumbprint() throws {
        let key = try PrivateKey(jwkRepresentation: Self.rfc8037Private)
        #expect(key.kind == .ed25519)
        let publicKey = try key.publicKey
        #expect(
            try publicKey.jwkRepresentation()
                == #"{"crv":"Ed25519","kty":"OKP","x":"11qYAYKxCrfVS_7TyWQHOg7hcvPapiMlrwIaaPcHURo"}"#
        )
        #expect(
            Base64URL.encode(try publicKey.jwkThumbprint)
                == "kPrK_qmxVWaYVA9wwBF6Iuo3vVzz7TxHCTwXBygrS4k")
        #expect(
            try key.jwkRepresentation()
                == #"{"crv":"Ed25519","d":"nWGxne_9WmC6hEr0kuwsxERJxWl7MmkZcDusAxyuf2A","kty":"OKP","x":"11qYAYKxCrfVS_7TyWQHOg7hcvPapiMlrwIaaPcHURo"}"#
        )
        // RFC 8032 §7.1 test 1: the signature of the empty message.
        let signature = try key.signature(for: [UInt8](), algorithm: .edDSA)
        #expect(
            Hex.encode(signature)
                == "e5564300c360ac729086e2cc806e828a84877f1eb8e5d974d873e065224901555fb8821590a33bacc61e39701cf9b46bd25bf5f0595bbe24655141438e7a100b"
        )
    }

    /// Every Wycheproof group that carries a JWK (all but nine P1363 groups): the JWK import is the SPKI key, and writing it
    /// back gives the same key members.
    @Test func readsEveryWycheproofJWK() throws {
        var checked = 0
        for file in [
            "ecdsa_secp256r1_sha256_p1363_test.json", "ed25519_test.json",
            "rsa_signature_2048_sha256_test.json", "rsa_signature_3072_sha256_test.json",
            "rsa_pss_2048_sha256_mgf1_32_test.json",
        ] {
            let root = try #require(SharedVectors.json("wycheproof/\(file)") as? [String: Any])
            for case let group as [String: Any] in try #require(root["testGroups"] as? [Any]) {
                guard
                    let jwkObject = (group["publicKeyJwk"] ?? group["keyJwk"]) as? [String: String]
                else { continue }
                let text = String(
                    decoding: try JSONSerialization.data(withJSONObject: jwkObject), as: UTF8.self)
                let fromJWK = try PublicKey(jwkRepresentation: text)
                let fromSPKI = try PublicKey(
                    spkiDER: Hex.bytes(try #require(group["publicKeyDer"] as? String)))
                #expect(fromJWK == fromSPKI, "\(file)")
                let written = try #require(fromJWK.jwk().objectValue)
                for member in ["kty", "crv", "x", "y", "n", "e"] {
                    #expect(written[member]?.stringValue == jwkObject[member], "\(file) \(member)")
                }
                checked += 1
            }
        }
        // 103 of the 112 P1363 groups carry a JWK, all 78 Ed25519, 3 + 2 RSA PKCS#1, 1 PSS.
        #expect(checked == 187)
    }

    struct COSEKeyVector: Decodable {
        let x: String?
        let y: String?
        let d: String?
        let n: String?
        let e: String?
        let crvName: String?
        let privateComponents: [String: String]?
        let spki: String

        enum CodingKeys: String, CodingKey {
            case x, y, d, n, e
            case crvName = "crv_name"
            case privateComponents = "private_components_hex"
            case spki = "spki_der_hex"
        }
    }

    struct COSEKeyFile: Decodable { let keys: [COSEKeyVector] }

    /// The private keys of cose-keys.json, written as JWKs from their components, read back as
    /// the same key, and written again identically.
    @Test func readsAndWritesEveryCOSEExamplePrivateKey() throws {
        let vectors = try SharedVectors.decode(COSEKeyFile.self, from: "cose-keys.json").keys
        var checked = 0
        for vector in vectors {
            func b64(_ hex: String?) throws -> JSONValue {
                .string(Base64URL.encode(Hex.bytes(try #require(hex))))
            }
            var members: [(String, JSONValue)]
            if let n = vector.n {
                let parts = try #require(vector.privateComponents)
                members = [
                    ("d", try b64(parts["d"])), ("dp", try b64(parts["dP"])),
                    ("dq", try b64(parts["dQ"])),
                    ("e", try b64(vector.e)), ("kty", "RSA"), ("n", try b64(n)),
                    ("p", try b64(parts["p"])),
                    ("q", try b64(parts["q"])), ("qi", try b64(parts["qi"])),
                ]
            } else if let y = vector.y {
                members = [
                    ("crv", .string(try #require(vector.crvName))), ("d", try b64(vector.d)),
                    ("kty", "EC"),
                    ("x", try b64(vector.x)), ("y", try b64(y)),
                ]
            } else {
                members = [
                    ("crv", .string(try #require(vector.crvName))), ("d", try b64(vector.d)),
                    ("kty", "OKP"),
                    ("x", try b64(vector.x)),
                ]
            }
            let jwk = JSONValue.object(JSONObject(members.map { JSONMember($0.0, $0.1) }))
            let key = try PrivateKey(jwk: jwk)
            #expect(try key.publicKey == PublicKey(spkiDER: Hex.bytes(vector.spki)))
            #expect(try key.jwk() == jwk)
            let signature = try key.signature(
                for: [1, 2, 3], algorithm: Self.algorithm(for: key.kind))
            #expect(
                try key.publicKey.isValidSignature(
                    signature, for: [1, 2, 3], algorithm: Self.algorithm(for: key.kind)))
            checked += 1
        }
        #expect(checked == 8)
    }

    static func algorithm(for kind: KeyKind) -> COSEAlgorithm {
        switch kind {
        case .p256: .es256
        case .p384: .es384
        case .p521: .es512
        case .secp256k1: .es256K
        case .ed25519, .ed448: .edDSA
        default: .rs256
        }
    }

    @Test(arguments: [
        KeyKind.p256, .p384, .p521, .secp256k1, .ed25519, .ed448, .rsa(modulusBits: 2048),
    ])
    func roundTripsGeneratedKeys(_ kind: KeyKind) throws {
        let key = try PrivateKey(generating: kind)
        let text = try key.jwkRepresentation(algorithm: Self.algorithm(for: kind))
        let again = try PrivateKey(jwkRepresentation: text)
        #expect(try again.pkcs8DER == key.pkcs8DER)
        let publicText = try key.publicKey.jwkRepresentation()
        #expect(try PublicKey(jwkRepresentation: publicText) == key.publicKey)
        #expect(
            try JSONValue(parsing: publicText).objectValue?.names
                == JSONValue(parsing: publicText).objectValue?.names.sorted())
    }

    @Test func mapsJOSENames() {
        #expect(COSEAlgorithm(joseName: "ES256") == .es256)
        #expect(COSEAlgorithm(joseName: "PS512") == .ps512)
        #expect(COSEAlgorithm(joseName: "EdDSA") == .edDSA)
        #expect(COSEAlgorithm(joseName: "HS256") == nil)
        #expect(COSEAlgorithm.rs1.joseName == nil)
        #expect(COSEAlgorithm.ed448.joseName == "Ed448")
    }

    static let x = "KSexBRK64-3c_kZ4KBKLrSkDJpkZ9whgacjE32xzKDg"
    static let y = "x3h5ZOqsAOWSH7FJimD0YGdms9loUAFVjRqXTnNBUT4"

    @Test func acceptsTheWellFormedECKey() throws {
        let key = try PublicKey(
            jwkRepresentation:
                #"{"kty":"EC","crv":"P-256","x":"\#(Self.x)","y":"\#(Self.y)","alg":"ES256","kid":"k1","use":"sig"}"#
        )
        #expect(key.kind == .p256)
    }

    @Test func rejectsMalformedOrInconsistentJWKs() {
        let x = Self.x, y = Self.y
        expectCryptoError(.invalidJWK) { try PublicKey(jwkRepresentation: "{") }
        expectCryptoError(.invalidJWK) { try PublicKey(jwkRepresentation: "[]") }
        expectCryptoError(.missingMember, field: "kty") {
            try PublicKey(jwkRepresentation: #"{"crv":"P-256","x":"\#(x)","y":"\#(y)"}"#)
        }
        expectCryptoError(.missingMember, field: "y") {
            try PublicKey(jwkRepresentation: #"{"kty":"EC","crv":"P-256","x":"\#(x)"}"#)
        }
        expectCryptoError(.invalidJWK, field: "x") {
            try PublicKey(jwkRepresentation: #"{"kty":"EC","crv":"P-256","x":1,"y":"\#(y)"}"#)
        }
        expectCryptoError(.invalidJWK, field: "x") {
            try PublicKey(
                jwkRepresentation: #"{"kty":"EC","crv":"P-256","x":"\#(x)=","y":"\#(y)"}"#)
        }
        expectCryptoError(.invalidJWK, field: "x") {
            try PublicKey(jwkRepresentation: #"{"kty":"EC","crv":"P-256","x":"a+b/","y":"\#(y)"}"#)
        }
        expectCryptoError(.invalidLength, field: "x") {
            try PublicKey(
                jwkRepresentation:
                    #"{"kty":"EC","crv":"P-256","x":"\#(x.dropLast(3))","y":"\#(y)"}"#)
        }
        expectCryptoError(.invalidLength, field: "x") {
            try PublicKey(jwkRepresentation: #"{"kty":"EC","crv":"P-384","x":"\#(x)","y":"\#(y)"}"#)
        }
        expectCryptoError(.invalidPublicKey) {
            try PublicKey(jwkRepresentation: #"{"kty":"EC","crv":"P-256","x":"\#(x)","y":"\#(x)"}"#)
        }
        expectCryptoError(.unsupportedKeyType, field: "kty") {
            try PublicKey(jwkRepresentation: #"{"kty":"oct","k":"AAAA"}"#)
        }
        expectCryptoError(.unsupportedKeyType, field: "crv") {
            try PublicKey(jwkRepresentation: #"{"kty":"OKP","crv":"X25519","x":"\#(x)"}"#)
        }
        expectCryptoError(.unsupportedKeyType, field: "crv") {
            try PublicKey(
                jwkRepresentation: #"{"kty":"EC","crv":"brainpoolP256r1","x":"\#(x)","y":"\#(y)"}"#)
        }
        expectCryptoError(.algorithmKeyMismatch, field: "alg") {
            try PublicKey(
                jwkRepresentation:
                    #"{"kty":"EC","crv":"P-256","x":"\#(x)","y":"\#(y)","alg":"ES384"}"#)
        }
        expectCryptoError(.unsupportedAlgorithm, field: "alg") {
            try PublicKey(
                jwkRepresentation:
                    #"{"kty":"EC","crv":"P-256","x":"\#(x)","y":"\#(y)","alg":"ECDH-ES"}"#)
        }
        expectCryptoError(.invalidJWK, field: "d") {
            try PublicKey(jwkRepresentation: Self.rfc8037Private)
        }
        expectCryptoError(.invalidJWK) {
            try PublicKey(
                jwkRepresentation: #"{"kty":"EC","kty":"EC","crv":"P-256","x":"\#(x)","y":"\#(y)"}"#
            )
        }
    }

    @Test func rejectsInconsistentPrivateJWKs() throws {
        // d that does not match x.
        let other = try PrivateKey(generating: .ed25519).rawEdDSAPrivateKey
        let mismatched =
            #"{"kty":"OKP","crv":"Ed25519","d":"\#(Base64URL.encode(other))","x":"11qYAYKxCrfVS_7TyWQHOg7hcvPapiMlrwIaaPcHURo"}"#
        expectCryptoError(.invalidPrivateKey) { try PrivateKey(jwkRepresentation: mismatched) }
        expectCryptoError(.missingMember, field: "d") {
            try PrivateKey(
                jwkRepresentation:
                    #"{"kty":"OKP","crv":"Ed25519","x":"11qYAYKxCrfVS_7TyWQHOg7hcvPapiMlrwIaaPcHURo"}"#
            )
        }
        // RSA: partial CRT members, a leading zero in n, p·q ≠ n.
        let rsa = try #require(PrivateKey(generating: .rsa(modulusBits: 2048)).jwk().objectValue)
        var partial = rsa
        partial.members.removeAll { $0.name == "qi" }
        expectCryptoError(.missingMember, field: "qi") { try PrivateKey(jwk: .object(partial)) }
        var padded = rsa
        let n = try Base64URL.decode(try #require(rsa["n"]?.stringValue))
        padded.members = padded.members.map {
            $0.name == "n" ? JSONMember("n", .string(Base64URL.encode([0] + n))) : $0
        }
        expectCryptoError(.invalidJWK, field: "n") { try PrivateKey(jwk: .object(padded)) }
        var swapped = rsa
        let q = try #require(rsa["q"])
        swapped.members = swapped.members.map { $0.name == "p" ? JSONMember("p", q) : $0 }
        expectCryptoError(.invalidPrivateKey, field: "p") { try PrivateKey(jwk: .object(swapped)) }
        // EC d of the wrong length.
        let ec = try #require(PrivateKey(generating: .p256).jwk().objectValue)
        var short = ec
        let d = try Base64URL.decode(try #require(ec["d"]?.stringValue))
        short.members = short.members.map {
            $0.name == "d" ? JSONMember("d", .string(Base64URL.encode(d.dropFirst()))) : $0
        }
        expectCryptoError(.invalidLength, field: "d") { try PrivateKey(jwk: .object(short)) }
    }

    @Test func refusesAlgorithmsThatCannotBeWritten() throws {
        let key = try PrivateKey(generating: .p256).publicKey
        expectCryptoError(.unsupportedAlgorithm, field: "alg") { try key.jwk(algorithm: .rs1) }
        expectCryptoError(.algorithmKeyMismatch, field: "alg") { try key.jwk(algorithm: .es384) }
        #expect(try key.jwk(algorithm: .es256)["alg"]?.stringValue == "ES256")
    }
}
