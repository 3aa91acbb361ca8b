import Fido2Authenticator
import Fido2Crypto
import Fido2Encoding
import Fido2TestSupport
import Fido2WebAuthn
import Foundation
import Testing

/// The W3C prf extension vectors (`webauthn-l3-prf-test-vectors.json`): the CTAP2 hmac-secret
/// cases over PIN/UV auth protocols one and two, re-derived from the seed, and the
/// WebAuthn-level example's derivations.
struct PRFVectorTests {
    struct Case {
        let title: String
        let version: PINUVAuthProtocol
        let values: [String: String]
        let hmacIVs: (salt: UInt8, output: UInt8)?
    }

    static let seed = Array("WebAuthn PRF test vectors".utf8)

    static func file() throws -> [String: Any] {
        try #require(try SharedVectors.json("webauthn-l3-prf-test-vectors.json") as? [String: Any])
    }

    static func seeded(_ byte: UInt8) throws -> [UInt8] {
        DigestAlgorithm.sha256.hash(seed + [byte])
    }

    static func cases() throws -> [Case] {
        let list = try #require(file()["ctap_hmac_secret_cases"] as? [[String: Any]])
        return try list.map { entry in
            let values = try #require(entry["values"] as? [String: String])
            let number = try #require(entry["pin_protocol"] as? Int)
            let version = try #require(PINUVAuthProtocol(rawValue: number))
            // Protocol two's IVs are the first 16 bytes of SHA-256(seed ‖ n), per the file's notes.
            let single = (entry["inputs"] as? String) == "single"
            let ivs: (UInt8, UInt8)? =
                version == .two ? (single ? (0x07, 0x09) : (0x08, 0x0a)) : nil
            return Case(
                title: try #require(entry["title"] as? String), version: version, values: values,
                hmacIVs: ivs)
        }
    }

    @Test func sharedInputsDeriveFromTheSeed() throws {
        let shared = try #require(try Self.file()["shared"] as? [String: Any])
        #expect(
            Hex.encode(try Self.seeded(0x04)) == shared["platform_key_agreement_private_key"]
                as? String)
        #expect(Hex.encode(try Self.seeded(0x06)) == shared["authenticator_cred_random"] as? String)
        let authenticatorKey = try PrivateKey(rawScalar: Self.seeded(0x05), kind: .p256).publicKey
        let cose = try #require(shared["authenticator_key_agreement_public_key"] as? [String: Any])
        let x = try #require(cose["-2"] as? String)
        let y = try #require(cose["-3"] as? String)
        #expect(try Hex.encode(authenticatorKey.uncompressedPoint) == "04" + x + y)
    }

    @Test func everyCTAPCaseIsReproduced() throws {
        let cases = try Self.cases()
        #expect(cases.count == 3)
        let platform = try PrivateKey(rawScalar: Self.seeded(0x04), kind: .p256)
        let authenticator = try PrivateKey(rawScalar: Self.seeded(0x05), kind: .p256)
        let credentialRandom = try Self.seeded(0x06)
        for vector in cases {
            let values = vector.values
            let secret = try vector.version.sharedSecret(
                privateKey: platform, peer: authenticator.publicKey)
            #expect(Hex.encode(secret) == values["shared_secret"], "\(vector.title)")
            // The authenticator derives the same secret from its side.
            #expect(
                try vector.version.sharedSecret(privateKey: authenticator, peer: platform.publicKey)
                    == secret)

            var salts: [UInt8] = []
            var outputs: [UInt8] = []
            for (index, suffix) in ["first", "second"].enumerated() {
                guard let input = values["prf_eval_\(suffix)"] else { continue }
                let salt = try PRFEvaluation.salt(forInput: Hex.bytes(input))
                #expect(Hex.encode(salt) == values["salt\(index + 1)"], "\(vector.title)")
                let output = try PRFEvaluation.output(
                    credentialRandom: credentialRandom, salt: salt)
                #expect(Hex.encode(output) == values["output\(index + 1)"], "\(vector.title)")
                #expect(Hex.encode(output) == values["prf_results_\(suffix)"], "\(vector.title)")
                salts += salt
                outputs += output
            }
            let saltIV = try vector.hmacIVs.map { Array(try Self.seeded($0.salt).prefix(16)) } ?? []
            let outputIV =
                try vector.hmacIVs.map { Array(try Self.seeded($0.output).prefix(16)) } ?? []
            let saltEnc = try vector.version.encrypt(salts, sharedSecret: secret, iv: saltIV)
            let outputEnc = try vector.version.encrypt(outputs, sharedSecret: secret, iv: outputIV)
            #expect(Hex.encode(saltEnc) == values["salt_enc"], "\(vector.title)")
            #expect(Hex.encode(outputEnc) == values["output_enc"], "\(vector.title)")
            #expect(try vector.version.decrypt(outputEnc, sharedSecret: secret) == outputs)
            #expect(try vector.version.decrypt(saltEnc, sharedSecret: secret) == salts)
        }
    }

    @Test func webAuthnExampleDerivations() throws {
        let example = try #require((try Self.file())["webauthn_api_example"] as? [String: Any])
        let values = try #require(example["values"] as? [String: Any])
        let seed = Self.seed
        #expect(
            Base64URL.encode(try DigestAlgorithm.sha256.hash(seed + [0x00]))
                == values["credential_id_b64url"] as? String)
        let first = DigestAlgorithm.sha256.hash(seed + [0x01])
        #expect(Hex.encode(first) == values["results_first"] as? String)
        let words = try #require(
            values["results_second_as_Uint32Array_little_endian_words"] as? [String])
        let bytes = words.flatMap { word -> [UInt8] in
            let value = UInt32(word.dropFirst(2), radix: 16) ?? 0
            return [
                UInt8(value & 0xff), UInt8(value >> 8 & 0xff), UInt8(value >> 16 & 0xff),
                UInt8(value >> 24),
            ]
        }
        #expect(bytes == first)
    }

    @Test func protocolsAuthenticateWithTheirOwnKeyAndLength() throws {
        let one = [UInt8](repeating: 1, count: 32)
        let two = [UInt8](repeating: 2, count: 64)
        #expect(try PINUVAuthProtocol.one.authenticate([1, 2, 3], sharedSecret: one).count == 16)
        let code = try PINUVAuthProtocol.two.authenticate([1, 2, 3], sharedSecret: two)
        #expect(
            code == (try HMAC.authenticationCode(for: [1, 2, 3] as [UInt8], key: two.prefix(32))))
        #expect(throws: WebAuthnError.self) {
            try PINUVAuthProtocol.one.authenticate([], sharedSecret: two)
        }
        #expect(throws: WebAuthnError.self) {
            try PINUVAuthProtocol.two.encrypt([0], sharedSecret: two, iv: one.prefix(16).map { $0 })
        }
        #expect(throws: WebAuthnError.self) {
            try PINUVAuthProtocol.two.decrypt([1, 2], sharedSecret: two)
        }
        #expect(throws: WebAuthnError.self) {
            try PRFEvaluation.output(credentialRandom: one, salt: [1])
        }
        #expect(throws: WebAuthnError.self) {
            try PRFEvaluation.output(credentialRandom: [], salt: one)
        }
    }
}
