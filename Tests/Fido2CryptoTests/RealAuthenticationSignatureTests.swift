import Fido2Crypto
import Fido2TestSupport
import Foundation
import Testing

/// Assertion signatures captured from real authenticators (`real-authentications.json`): the
/// stored COSE key parses and verifies authenticatorData ‖ SHA-256(clientDataJSON). ML-DSA keys
/// (OpenSSL 3.0 has none) give "unsupported algorithm", which counts as the expected outcome.
@Suite struct RealAuthenticationSignatureTests {
    struct Case: Decodable {
        let caseID: String
        let credential: Credential
        let publicKeyCOSE: String
        let publicKeyAlgorithm: Int

        enum CodingKeys: String, CodingKey {
            case caseID = "case_id"
            case credential
            case publicKeyCOSE = "credential_public_key_cose"
            case publicKeyAlgorithm = "credential_public_key_alg"
        }
    }

    struct Credential: Decodable {
        let response: Response
    }

    struct Response: Decodable {
        let authenticatorData: String
        let clientDataJSON: String
        let signature: String
    }

    static func base64URL(_ text: String) throws -> [UInt8] {
        var base64 = text.replacingOccurrences(of: "-", with: "+").replacingOccurrences(
            of: "_", with: "/")
        base64 += String(repeating: "=", count: (4 - base64.count % 4) % 4)
        return Array(try #require(Data(base64Encoded: base64)))
    }

    @Test func verifiesEverySupportedSignature() throws {
        let cases = try SharedVectors.decode([Case].self, from: "real-authentications.json")
        #expect(cases.count == 19)
        var verified = 0
        var unsupported = 0
        var rejected: [String] = []
        for test in cases {
            let cose = try Self.base64URL(test.publicKeyCOSE)
            let parsed = Result { () throws in try COSEKey(cborEncoded: cose) }
            guard case .success(let key) = parsed else {
                if case .failure(let error) = parsed {
                    #expect(
                        (error as? CryptoError)?.code == .unsupportedAlgorithm,
                        "\(test.caseID): \(error)")
                }
                #expect(
                    [-48, -49, -50].contains(test.publicKeyAlgorithm), "\(test.caseID)")
                unsupported += 1
                continue
            }
            #expect(key.algorithm.rawValue == test.publicKeyAlgorithm)
            let authenticatorData = try Self.base64URL(test.credential.response.authenticatorData)
            let clientDataHash = try DigestAlgorithm.sha256.hash(
                Self.base64URL(test.credential.response.clientDataJSON))
            let signature = try Self.base64URL(test.credential.response.signature)
            let valid = try key.publicKey.isValidSignature(
                signature, for: authenticatorData, clientDataHash, algorithm: key.algorithm)
            if valid { verified += 1 } else { rejected.append(test.caseID) }
        }
        // auth-003's signature is corrupted on purpose; auth-018's does not verify (parse-only).
        #expect(rejected.sorted() == ["auth-003", "auth-018"])
        #expect(unsupported == 3)
        #expect(verified == 14)
    }
}
