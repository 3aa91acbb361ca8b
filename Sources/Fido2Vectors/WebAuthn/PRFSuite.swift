import Fido2Authenticator
import Fido2Crypto
import Fido2Encoding
import Fido2WebAuthn
import Fido2WebAuthnWire

/// The W3C prf extension vectors (`#test-vectors-extensions-prf`): the shared keys re-derived
/// from the seed, each CTAP2 hmac-secret case (shared secret over PIN/UV auth protocol one or
/// two, derived alike on the platform's and the authenticator's side, salts, outputs, and their
/// encryptions, which decrypt back) and the WebAuthn-level example's derivations.
package struct PRFSuite: VectorSuite {
    package let name: String
    private let json: JSONValue

    package init?(name: String, json: JSONValue) {
        guard json["ctap_hmac_secret_cases"]?.arrayValue != nil,
            json["seed_utf8"]?.stringValue != nil
        else {
            return nil
        }
        self.name = name
        self.json = json
    }

    private var seed: [UInt8] { Array((json["seed_utf8"]?.stringValue ?? "").utf8) }

    private func seeded(_ byte: UInt8) throws(CryptoError) -> [UInt8] {
        DigestAlgorithm.sha256.hash(seed + [byte])
    }

    private static func hex(_ value: JSONValue?) -> [UInt8]? {
        value?.stringValue.flatMap { try? Hex.decode($0) }
    }

    package func run() -> [VectorCaseResult] {
        var results = [VectorCaseResult.check("shared keys", sharedFailure())]
        for (index, entry) in (json["ctap_hmac_secret_cases"]?.arrayValue ?? []).enumerated() {
            let title = entry["title"]?.stringValue ?? "case \(index)"
            results.append(.check(title, caseFailure(entry)))
        }
        results.append(.check("WebAuthn API example", exampleFailure()))
        return results
    }

    private func sharedFailure() -> String? {
        guard let shared = json["shared"] else { return "no shared values" }
        do {
            if try seeded(0x04) != Self.hex(shared["platform_key_agreement_private_key"]) {
                return "platform key is not SHA-256(seed ‖ 04)"
            }
            if try seeded(0x06) != Self.hex(shared["authenticator_cred_random"]) {
                return "credRandom is not SHA-256(seed ‖ 06)"
            }
            let key = try PrivateKey(rawScalar: seeded(0x05), kind: .p256).publicKey
            let cose = shared["authenticator_key_agreement_public_key"]
            guard let x = Self.hex(cose?["-2"]), let y = Self.hex(cose?["-3"]) else {
                return "authenticator key coordinates missing"
            }
            return try key.uncompressedPoint == [4] + x + y ? nil : "authenticator key differs"
        } catch {
            return "\(error)"
        }
    }

    private func caseFailure(_ entry: JSONValue) -> String? {
        guard let number = entry["pin_protocol"]?.int64Value,
            let version = PINUVAuthProtocol(rawValue: Int(number)), let values = entry["values"]
        else { return "unknown PIN/UV auth protocol" }
        do {
            let platform = try PrivateKey(rawScalar: seeded(0x04), kind: .p256)
            let authenticator = try PrivateKey(rawScalar: seeded(0x05), kind: .p256)
            let secret = try version.sharedSecret(
                privateKey: platform, peer: authenticator.publicKey)
            if secret != Self.hex(values["shared_secret"]) { return "shared secret differs" }
            if try version.sharedSecret(privateKey: authenticator, peer: platform.publicKey)
                != secret
            {
                return "the authenticator's side derives another shared secret"
            }
            var salts: [UInt8] = []
            var outputs: [UInt8] = []
            for (index, suffix) in ["first", "second"].enumerated() {
                guard let input = Self.hex(values["prf_eval_\(suffix)"]) else { continue }
                let salt = try PRFEvaluation.salt(forInput: input)
                if salt != Self.hex(values["salt\(index + 1)"]) {
                    return "salt\(index + 1) differs"
                }
                let output = try PRFEvaluation.output(credentialRandom: seeded(0x06), salt: salt)
                if output != Self.hex(values["output\(index + 1)"])
                    || output != Self.hex(values["prf_results_\(suffix)"])
                {
                    return "output\(index + 1) differs"
                }
                salts += salt
                outputs += output
            }
            // Protocol two's IVs are the first 16 bytes of SHA-256(seed ‖ n): 07/09 for one
            // input, 08/0a for two.
            let single = entry["inputs"]?.stringValue == "single"
            let saltIV = version == .two ? Array(try seeded(single ? 0x07 : 0x08).prefix(16)) : []
            let outputIV = version == .two ? Array(try seeded(single ? 0x09 : 0x0a).prefix(16)) : []
            let saltEnc = try version.encrypt(salts, sharedSecret: secret, iv: saltIV)
            if saltEnc != Self.hex(values["salt_enc"]) { return "salt_enc differs" }
            let outputEnc = try version.encrypt(outputs, sharedSecret: secret, iv: outputIV)
            if outputEnc != Self.hex(values["output_enc"]) { return "output_enc differs" }
            return try version.decrypt(saltEnc, sharedSecret: secret) == salts
                && version.decrypt(outputEnc, sharedSecret: secret) == outputs
                ? nil : "decryption differs"
        } catch {
            return "\(error)"
        }
    }

    private func exampleFailure() -> String? {
        guard let values = json["webauthn_api_example"]?["values"] else { return "no example" }
        do {
            if Base64URL.encode(try seeded(0x00)) != values["credential_id_b64url"]?.stringValue {
                return "credential ID is not base64url(SHA-256(seed ‖ 00))"
            }
            let first = try seeded(0x01)
            if first != Self.hex(values["results_first"]) {
                return "results.first is not SHA-256(seed ‖ 01)"
            }
            var words: [UInt8] = []
            for word in values["results_second_as_Uint32Array_little_endian_words"]?.arrayValue
                ?? []
            {
                guard let text = word.stringValue, let value = UInt32(text.dropFirst(2), radix: 16)
                else {
                    return "bad word"
                }
                words += [
                    UInt8(value & 0xff), UInt8(value >> 8 & 0xff), UInt8(value >> 16 & 0xff),
                    UInt8(value >> 24),
                ]
            }
            return words == first ? nil : "results.second differs from results.first"
        } catch {
            return "\(error)"
        }
    }
}
