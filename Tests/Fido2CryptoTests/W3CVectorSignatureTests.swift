import Fido2CBOR
import Fido2Crypto
import Fido2Encoding
import Fido2TestSupport
import Foundation
import Testing

/// Re-signs every signature of the W3C WebAuthn Level 3 test vectors from the spec's keys and
/// compares byte for byte: assertion signatures over authenticatorData ‖ SHA-256(clientDataJSON),
/// and attestation statement signatures (packed, packed self, android-key over authData ‖
/// clientDataHash; tpm over certInfo; fido-u2f over its U2F registration message). ECDSA uses
/// RFC 6979; RS256 (PKCS#1 v1.5) and EdDSA (Ed25519, Ed448) are deterministic by construction.
@Suite struct W3CVectorSignatureTests {
    struct Material {
        let id: String
        let algorithm: COSEAlgorithm
        let credentialKey: PrivateKey
        let attestationKey: PrivateKey?
        let registration: [String: String]
        let authentication: [String: String]
        let credentialCOSE: [UInt8]
    }

    static func cases() throws -> [[String: Any]] {
        let root = try #require(
            SharedVectors.json("webauthn-l3-test-vectors.json") as? [String: Any])
        return try #require(root["cases"] as? [[String: Any]])
    }

    static func material(_ testCase: [String: Any]) throws -> Material {
        let id = try #require(testCase["id"] as? String)
        let registration = try #require(
            (testCase["registration"] as? [String: Any])?["values"] as? [String: String])
        let authentication = try #require(
            (testCase["authentication"] as? [String: Any])?["values"] as? [String: String])
        let derived = try #require(testCase["derived"] as? [String: Any])
        let algorithm = COSEAlgorithm(
            rawValue: try #require(derived["credential_cose_alg"] as? Int))
        let credentialKey: PrivateKey
        if let scalar = registration["credential_private_key"] {
            let kind: KeyKind =
                switch algorithm {
                case .es256: .p256
                case .es384: .p384
                default: .p521
                }
            credentialKey = try PrivateKey(rawScalar: Hex.bytes(scalar), kind: kind)
        } else if let raw = registration["private_key"] {
            let bytes = Hex.bytes(raw)
            credentialKey = try PrivateKey(
                rawEdDSAPrivateKey: bytes, kind: bytes.count == 32 ? .ed25519 : .ed448)
        } else {
            credentialKey = try PrivateKey(
                rsaPrimeP: Hex.bytes(try #require(registration["private_key_p"])),
                primeQ: Hex.bytes(try #require(registration["private_key_q"])),
                publicExponent: [0x01, 0x00, 0x01])
        }
        let attestationKey = try registration["attestation_private_key"].map {
            try PrivateKey(rawScalar: Hex.bytes($0), kind: .p256)
        }
        return Material(
            id: id, algorithm: algorithm, credentialKey: credentialKey,
            attestationKey: attestationKey, registration: registration,
            authentication: authentication,
            credentialCOSE: Hex.bytes(
                try #require(derived["credential_public_key_cose"] as? String)))
    }

    static let caseIDs: [String] = (try? cases().compactMap { $0["id"] as? String }) ?? []

    static func material(id: String) throws -> Material {
        try material(try #require(cases().first { ($0["id"] as? String) == id }))
    }

    @Test func coversAllFifteenCases() throws {
        #expect(Self.caseIDs.count == 15)
        #expect(try Self.cases().count == 15)
    }

    @Test(arguments: caseIDs) func credentialKeyMatchesTheCOSEKey(_ id: String) throws {
        let vector = try Self.material(id: id)
        let cose = try COSEKey(
            publicKey: vector.credentialKey.publicKey, algorithm: vector.algorithm)
        #expect(try cose.cborEncoded == vector.credentialCOSE)
        #expect(try COSEKey(cborEncoded: vector.credentialCOSE) == cose)
    }

    @Test(arguments: caseIDs) func reproducesTheAssertionSignature(_ id: String) throws {
        let vector = try Self.material(id: id)
        let authenticatorData = Hex.bytes(try #require(vector.authentication["authenticatorData"]))
        let clientDataHash = DigestAlgorithm.sha256.hash(
            Hex.bytes(try #require(vector.authentication["clientDataJSON"])))
        let expected = Hex.bytes(try #require(vector.authentication["signature"]))
        let signature = try vector.credentialKey.signature(
            for: authenticatorData, clientDataHash, algorithm: vector.algorithm,
            nonce: .deterministic)
        #expect(Hex.encode(signature) == Hex.encode(expected))
        #expect(
            try vector.credentialKey.publicKey.isValidSignature(
                expected, for: authenticatorData, clientDataHash, algorithm: vector.algorithm))
        // The contiguous form gives the same signature.
        #expect(
            try vector.credentialKey.signature(
                for: authenticatorData + clientDataHash, algorithm: vector.algorithm,
                nonce: .deterministic) == expected)
    }

    @Test(arguments: caseIDs) func reproducesTheAttestationSignature(_ id: String) throws {
        let vector = try Self.material(id: id)
        let attestationObject = Hex.bytes(try #require(vector.registration["attestationObject"]))
        let object = try CBORValue.decode(attestationObject)
        let format = try #require(object["fmt"]?.stringValue)
        let statement = try #require(object["attStmt"])
        let authData = try #require(object["authData"]?.bytesValue)
        let clientDataHash = DigestAlgorithm.sha256.hash(
            Hex.bytes(try #require(vector.registration["clientDataJSON"])))
        guard let expected = statement["sig"]?.bytesValue else {
            // none and apple carry no signature.
            #expect(["none", "apple"].contains(format), "\(id): \(format) without sig")
            return
        }
        let algorithm = COSEAlgorithm(
            rawValue: Int(statement["alg"]?.int64Value ?? Int64(COSEAlgorithm.es256.rawValue)))
        let signer: PrivateKey
        let message: [UInt8]
        switch format {
        case "packed" where statement["x5c"] == nil, "android-key":
            signer = vector.credentialKey
            message = authData + clientDataHash
        case "packed":
            signer = try #require(vector.attestationKey)
            message = authData + clientDataHash
        case "tpm":
            signer = try #require(vector.attestationKey)
            message = try #require(statement["certInfo"]?.bytesValue)
        case "fido-u2f":
            signer = try #require(vector.attestationKey)
            message = try Self.u2fRegistrationMessage(
                authData: authData, clientDataHash: clientDataHash)
        default:
            Issue.record("\(id): unexpected format \(format)")
            return
        }
        let signature = try signer.signature(
            for: message, algorithm: algorithm, nonce: .deterministic)
        #expect(Hex.encode(signature) == Hex.encode(expected), "\(id) \(format)")
        #expect(try signer.publicKey.isValidSignature(expected, for: message, algorithm: algorithm))
    }

    /// 0x00 ‖ rpIdHash ‖ clientDataHash ‖ credentialId ‖ 04 ‖ x ‖ y (FIDO U2F raw message).
    static func u2fRegistrationMessage(authData: [UInt8], clientDataHash: [UInt8]) throws -> [UInt8]
    {
        let rpIdHash = authData[0..<32]
        let idLength = Int(authData[53]) << 8 | Int(authData[54])
        let credentialID = authData[55..<(55 + idLength)]
        let key = try COSEKey(cborEncoded: authData[(55 + idLength)...])
        return [0x00] + rpIdHash + clientDataHash + credentialID
            + (try key.publicKey.uncompressedPoint)
    }
}

/// The certificates of the W3C vectors (the attestation CA and every x5c leaf) are ECDSA
/// P-256/SHA-256 signatures by the attestation CA key; re-signing each tbsCertificate with RFC
/// 6979 reproduces them.
@Suite struct W3CVectorCertificateSignatureTests {
    static func caKey() throws -> (PrivateKey, [UInt8]) {
        let root = try #require(
            SharedVectors.json("webauthn-l3-test-vectors.json") as? [String: Any])
        let values = try #require(
            (root["attestation_root"] as? [String: Any])?["values"] as? [String: String])
        let key = try PrivateKey(
            rawScalar: Hex.bytes(try #require(values["attestation_ca_key"])), kind: .p256)
        return (key, Hex.bytes(try #require(values["attestation_ca_cert"])))
    }

    @Test func reproducesEveryCertificateSignature() throws {
        let (caKey, caCertificate) = try Self.caKey()
        var certificates = [("attestation CA", caCertificate)]
        for testCase in try W3CVectorSignatureTests.cases() {
            let id = try #require(testCase["id"] as? String)
            let values = try #require(
                (testCase["registration"] as? [String: Any])?["values"] as? [String: String])
            let object = try CBORValue.decode(Hex.bytes(try #require(values["attestationObject"])))
            for certificate in object["attStmt"]?["x5c"]?.arrayValue ?? [] {
                certificates.append((id, try #require(certificate.bytesValue)))
            }
        }
        // The CA plus one leaf for each full attestation: packed ES256/ES384/ES512/RS256/EdDSA/
        // Ed448, tpm, android-key, apple and fido-u2f.
        #expect(certificates.count == 11)
        for (owner, der) in certificates {
            let parts = try #require(CertificateParts(der), "\(owner): not a certificate")
            let signature = try caKey.signature(
                for: parts.tbsCertificate, algorithm: .es256, nonce: .deterministic)
            #expect(Hex.encode(signature) == Hex.encode(parts.signature), "\(owner)")
            #expect(
                try caKey.publicKey.isValidSignature(
                    parts.signature, for: parts.tbsCertificate, algorithm: .es256))
        }
    }
}
