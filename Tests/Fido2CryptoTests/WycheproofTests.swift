import Fido2Crypto
import Fido2Encoding
import Fido2TestSupport
import Foundation
import Testing

/// Every test of the Wycheproof files in `../shared/vectors/wycheproof/`: each `valid` signature
/// is accepted and each `invalid` one rejected. The number of cases of each verdict is asserted,
/// so a suite that silently shrank (or ran nothing) fails.
///
/// `acceptable` cases: the only ones in these files are the RSASSA-PKCS1-v1_5 `MissingNull`
/// cases (one per RSA file): a DigestInfo whose AlgorithmIdentifier omits the NULL parameters.
/// RFC 8017 §9.2 note 1 lets verifiers accept it, but OpenSSL 3.0 compares the whole re-encoded
/// DigestInfo (with NULL) and so rejects it. This library keeps that strict verdict — there is
/// no legitimate WebAuthn signer that omits the NULL — and the test pins it: every `acceptable`
/// case must be rejected, and there must be exactly one per RSA file.
@Suite struct WycheproofTests {
    struct Suite: Decodable {
        let numberOfTests: Int
        let testGroups: [Group]
    }

    struct Group: Decodable {
        let publicKeyDer: String?
        let publicKey: PublicKeyFields?
        let tests: [Case]
    }

    struct PublicKeyFields: Decodable {
        let pk: String?
        let uncompressed: String?
    }

    struct Case: Decodable {
        let tcId: Int
        let comment: String
        let flags: [String]
        let msg: String
        let sig: String
        let result: String
    }

    struct Tally: Equatable, CustomStringConvertible {
        var valid = 0
        var invalid = 0
        var acceptable = 0
        var description: String { "valid \(valid), invalid \(invalid), acceptable \(acceptable)" }
    }

    enum SignatureForm { case der, raw }

    /// Runs one file. Each group's key is imported from its SubjectPublicKeyInfo, or from its raw
    /// EdDSA key (`rawEdDSA`) or uncompressed EC point (`ecPoint`, the fresh-key path a relying
    /// party takes with a COSE key) when one of those is given.
    private func run(
        _ file: String, algorithm: COSEAlgorithm, form: SignatureForm = .der,
        rawEdDSA kind: KeyKind? = nil, ecPoint pointKind: KeyKind? = nil, expected: Tally,
        acceptableAccepted: Bool = false
    ) throws {
        let suite = try SharedVectors.decode(Suite.self, from: "wycheproof/\(file)")
        var tally = Tally()
        var total = 0
        for group in suite.testGroups {
            let key: PublicKey
            if let kind {
                let raw = try #require(group.publicKey?.pk, "\(file): group without raw key")
                key = try PublicKey(rawEdDSAPublicKey: Hex.bytes(raw), kind: kind)
                // The SPKI form of the same key must agree.
                let der = try #require(group.publicKeyDer)
                #expect(try PublicKey(spkiDER: Hex.bytes(der)) == key)
            } else if let pointKind {
                let point = try #require(group.publicKey?.uncompressed, "\(file): no point")
                key = try PublicKey(uncompressedPoint: Hex.bytes(point), kind: pointKind)
                // Compared with the group's SubjectPublicKeyInfo after its cases.
            } else {
                key = try PublicKey(spkiDER: Hex.bytes(try #require(group.publicKeyDer)))
            }
            for test in group.tests {
                total += 1
                let message = Hex.bytes(test.msg)
                let signature = Hex.bytes(test.sig)
                let accepted: Bool
                switch form {
                case .der:
                    accepted = try key.isValidSignature(
                        signature, for: message, algorithm: algorithm)
                case .raw:
                    if let parsed = try? ECDSASignature(
                        rawRepresentation: signature, kind: key.kind)
                    {
                        accepted = try key.isValidSignature(
                            parsed.derRepresentation, for: message, algorithm: algorithm)
                    } else {
                        accepted = false
                    }
                }
                let context = "\(file) tcId \(test.tcId) (\(test.comment)) \(test.flags)"
                switch test.result {
                case "valid":
                    tally.valid += 1
                    #expect(accepted, "valid signature rejected: \(context)")
                case "invalid":
                    tally.invalid += 1
                    #expect(!accepted, "invalid signature accepted: \(context)")
                case "acceptable":
                    tally.acceptable += 1
                    #expect(accepted == acceptableAccepted, "acceptable case: \(context)")
                default:
                    Issue.record("unknown result \(test.result): \(context)")
                }
            }
            if pointKind != nil {
                let der = try #require(group.publicKeyDer)
                #expect(try PublicKey(spkiDER: Hex.bytes(der)) == key)
            }
        }
        #expect(total == suite.numberOfTests)
        #expect(tally == expected, "\(file): \(tally)")
    }

    @Test func ecdsaP256DER() throws {
        try run(
            "ecdsa_secp256r1_sha256_test.json", algorithm: .es256,
            expected: Tally(valid: 174, invalid: 310))
    }

    @Test func ecdsaP256RawP1363() throws {
        try run(
            "ecdsa_secp256r1_sha256_p1363_test.json", algorithm: .es256, form: .raw,
            expected: Tally(valid: 173, invalid: 89))
    }

    @Test func ecdsaP256DERWithKeysImportedFromPoints() throws {
        try run(
            "ecdsa_secp256r1_sha256_test.json", algorithm: .es256, ecPoint: .p256,
            expected: Tally(valid: 174, invalid: 310))
    }

    @Test func ecdsaP256RawP1363WithKeysImportedFromPoints() throws {
        try run(
            "ecdsa_secp256r1_sha256_p1363_test.json", algorithm: .es256, form: .raw,
            ecPoint: .p256, expected: Tally(valid: 173, invalid: 89))
    }

    @Test func ecdsaP384DERWithKeysImportedFromPoints() throws {
        try run(
            "ecdsa_secp384r1_sha384_test.json", algorithm: .es384, ecPoint: .p384,
            expected: Tally(valid: 194, invalid: 310))
    }

    @Test func ecdsaP384DER() throws {
        try run(
            "ecdsa_secp384r1_sha384_test.json", algorithm: .es384,
            expected: Tally(valid: 194, invalid: 310))
    }

    @Test func ed25519() throws {
        try run(
            "ed25519_test.json", algorithm: .edDSA, rawEdDSA: .ed25519,
            expected: Tally(valid: 88, invalid: 63))
    }

    @Test func rsa2048PKCS1SHA256() throws {
        try run(
            "rsa_signature_2048_sha256_test.json", algorithm: .rs256,
            expected: Tally(valid: 9, invalid: 249, acceptable: 1))
    }

    @Test func rsa3072PKCS1SHA256() throws {
        try run(
            "rsa_signature_3072_sha256_test.json", algorithm: .rs256,
            expected: Tally(valid: 8, invalid: 250, acceptable: 1))
    }

    @Test func rsaPSS2048SHA256() throws {
        try run(
            "rsa_pss_2048_sha256_mgf1_32_test.json", algorithm: .ps256,
            expected: Tally(valid: 63, invalid: 45))
    }
}
