import Fido2CBOR
import Fido2Crypto
import Fido2Encoding
import Fido2TestSupport
import Foundation
import Testing

/// TPM attestations captured from real Windows Hello devices (`real-registrations.json`): the
/// attestation statement's signature over certInfo verifies under the AIK certificate's key with
/// the statement's algorithm — RS1 (RSASSA-PKCS1-v1_5 with SHA-1, verification only) for most,
/// RS256 for the rest. This is the positive test of RS1.
@Suite struct RealTPMAttestationSignatureTests {
    struct Case: Decodable {
        let caseID: String
        let format: String
        let credential: Credential
        let decoded: Decoded

        enum CodingKeys: String, CodingKey {
            case caseID = "case_id"
            case format, credential, decoded
        }
    }

    struct Decoded: Decodable {
        let credentialPublicKey: String?
        let credentialAlgorithm: Int?

        enum CodingKeys: String, CodingKey {
            case credentialPublicKey = "credentialPublicKey_cose_b64url"
            case credentialAlgorithm = "cose_alg"
        }
    }

    struct Credential: Decodable { let response: Response }
    struct Response: Decodable { let attestationObject: String }

    @Test func verifiesEveryTPMStatementSignature() throws {
        let cases = try SharedVectors.decode([Case].self, from: "real-registrations.json")
            .filter { $0.format == "tpm" }
        var verified: [COSEAlgorithm: Int] = [:]
        for test in cases {
            let object = try CBORValue.decode(
                Base64URL.decode(test.credential.response.attestationObject), options: .lenient)
            let statement = try #require(object["attStmt"], "\(test.caseID)")
            let algorithm = COSEAlgorithm(
                rawValue: Int(try #require(statement["alg"]?.int64Value, "\(test.caseID)")))
            let signature = try #require(statement["sig"]?.bytesValue)
            let certInfo = try #require(statement["certInfo"]?.bytesValue)
            let leaf = try #require(statement["x5c"]?.arrayValue?.first?.bytesValue)
            let parts = try #require(CertificateParts(leaf), "\(test.caseID): certificate")
            let key = try PublicKey(spkiDER: parts.subjectPublicKeyInfo)
            #expect(
                try key.isValidSignature(signature, for: certInfo, algorithm: algorithm),
                "\(test.caseID) \(algorithm)")
            var tampered = certInfo
            tampered[tampered.count - 1] ^= 1
            #expect(try !key.isValidSignature(signature, for: tampered, algorithm: algorithm))
            verified[algorithm, default: 0] += 1
            // The credential keys (RS256, ES256, and RS1 on two devices) parse as COSE keys.
            let credentialKey = try COSEKey(
                cborEncoded: Base64URL.decode(try #require(test.decoded.credentialPublicKey)),
                options: .lenient)
            #expect(credentialKey.algorithm.rawValue == test.decoded.credentialAlgorithm)
        }
        #expect(verified == [.rs1: 9, .rs256: 5])
    }
}
