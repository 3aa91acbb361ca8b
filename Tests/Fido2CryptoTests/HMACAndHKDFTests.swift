import Fido2Crypto
import Fido2Encoding
import Fido2TestSupport
import Foundation
import Testing

@Suite struct HMACAndHKDFTests {
    @Test func computesRFC4231TestCase2() throws {
        let key = Array("Jefe".utf8)
        let data = Array("what do ya want for nothing?".utf8)
        #expect(
            try Hex.encode(HMAC.authenticationCode(for: data, key: key, digest: .sha256))
                == "5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843")
        #expect(
            try Hex.encode(HMAC.authenticationCode(for: data, key: key, digest: .sha384))
                == "af45d2e376484031617f78d2b58a6b1b9c7ef464f5a01b47e42ec3736322445e8e2240ca5e69e2c78b3239ecfab21649"
        )
        #expect(
            try Hex.encode(HMAC.authenticationCode(for: data, key: key, digest: .sha512))
                == "164b7a7bfcf819e2e395fbe73b56e0a387bd64222e831fd610270cd7ea2505549758bf75c05a994a6d034f65f8f0e6fdcaeab1a34d4a6b4b636e070a38bce737"
        )
    }

    @Test func acceptsOnlyTheRightAuthenticationCode() throws {
        let key = Array("Jefe".utf8)
        let data = Array("what do ya want for nothing?".utf8)
        var code = try HMAC.authenticationCode(for: data, key: key)
        #expect(try HMAC.isValidAuthenticationCode(code, for: data, key: key))
        code[31] ^= 1
        #expect(try !HMAC.isValidAuthenticationCode(code, for: data, key: key))
        #expect(try !HMAC.isValidAuthenticationCode(code.dropLast(), for: data, key: key))
    }

    @Test func computesHMACWithEmptyKeyAndMessage() throws {
        // HMAC-SHA256("", "") — a well-known value.
        #expect(
            try Hex.encode(HMAC.authenticationCode(for: [UInt8](), key: [UInt8]()))
                == "b613679a0814d9ec772f95d778c35fc5ff1697c493715653c6c712144292c5ad")
    }

    @Test func derivesRFC5869TestCases1And3() throws {
        let ikm = [UInt8](repeating: 0x0b, count: 22)
        let okm = try HKDF.deriveKey(
            inputKeyMaterial: ikm, salt: Hex.bytes("000102030405060708090a0b0c"),
            info: Hex.bytes("f0f1f2f3f4f5f6f7f8f9"), outputByteCount: 42)
        #expect(
            Hex.encode(okm)
                == "3cb25f25faacd57a90434f64d0362f2a2d2d0a90cf1a5a4c5db02d56ecc4c5bf34007208d5b887185865"
        )
        let noSalt = try HKDF.deriveKey(
            inputKeyMaterial: ikm, salt: [UInt8](), info: [UInt8](), outputByteCount: 42)
        #expect(
            Hex.encode(noSalt)
                == "8da4e775a563c18f715f802a063c5a31b8a11f5c5ee1879ec3454e5f3c738d2d9d201395faa4b61a96c8"
        )
    }

    @Test func rejectsHKDFOutputLengthsOutOfRange() {
        for count in [0, -1, 255 * 32 + 1] {
            #expect(throws: CryptoError.self) {
                try HKDF.deriveKey(
                    inputKeyMaterial: [1, 2, 3], salt: [UInt8](), info: [UInt8](),
                    outputByteCount: count)
            }
            do {
                _ = try HKDF.deriveKey(
                    inputKeyMaterial: [1, 2, 3], salt: [UInt8](), info: [UInt8](),
                    outputByteCount: count)
            } catch let error as CryptoError {
                #expect(error.code == .invalidArgument)
            } catch {
                Issue.record("expected a CryptoError, got \(error)")
            }
        }
    }

    /// Every value of the W3C vectors whose derivation is an HKDF-SHA-256 draw is re-derived.
    @Test func rederivesEveryW3CVectorValueWithHKDF() throws {
        let root = try #require(
            SharedVectors.json("webauthn-l3-test-vectors.json") as? [String: Any])
        let ikm = Array("WebAuthn test vectors".utf8)
        var checked = 0
        var sections: [[String: Any]] = []
        if let attestationRoot = root["attestation_root"] as? [String: Any] {
            sections.append(attestationRoot)
        }
        for case let testCase as [String: Any] in try #require(root["cases"] as? [Any]) {
            for name in ["registration", "authentication"] {
                if let section = testCase[name] as? [String: Any] { sections.append(section) }
            }
        }
        let pattern =
            #/HKDF-SHA-256\(IKM='WebAuthn test vectors', salt=h'([0-9a-f]*)', info='([^']*)', L=(\d+)\)/#
        for section in sections {
            let values = try #require(section["values"] as? [String: String])
            let derivations = try #require(section["derivations"] as? [String: String])
            for (name, derivation) in derivations {
                guard let match = derivation.firstMatch(of: pattern) else { continue }
                let expected = try #require(values[name], "no value for \(name)")
                let derived = try HKDF.deriveKey(
                    inputKeyMaterial: ikm, salt: Hex.bytes(String(match.1)),
                    info: Array(String(match.2).utf8), outputByteCount: try #require(Int(match.3)))
                #expect(Hex.encode(derived) == expected, "\(name): \(derivation)")
                checked += 1
            }
        }
        // 15 cases plus the attestation CA; fewer would mean the suite silently shrank.
        #expect(checked >= 150, "only \(checked) HKDF derivations checked")
        print("re-derived \(checked) W3C vector values")
    }
}
