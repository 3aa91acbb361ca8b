import Fido2Crypto
import Testing

/// RSA public keys imported from their modulus and exponent keep the numbers, verify
/// RSASSA-PKCS1-v1_5 through a low-level `RSA` (`RSA_verify`) and make their `EVP_PKEY` only
/// when something else needs it (PSS, SPKI export, comparison with an OpenSSL-decoded key).
/// These tests pin that the fast path gives the EVP path's verdicts, signature by signature,
/// and that the lazily made key is the same key.
@Suite struct FreshRSAKeyVerificationTests {
    static let algorithms: [COSEAlgorithm] = [.rs256, .rs384, .rs512]

    let message = [UInt8]("authenticatorData ‖ clientDataHash".utf8)

    /// A signing key, and its public key twice: from its numbers (the fast path) and from PEM
    /// (decoded by OpenSSL, so an `EVP_PKEY` from the start).
    func keys() throws -> (PrivateKey, fromNumbers: PublicKey, fromPEM: PublicKey) {
        let key = try PrivateKey(generating: .rsa(modulusBits: 2048))
        let fromNumbers = try PublicKey(
            rsaModulus: key.publicKey.rsaModulus, exponent: key.publicKey.rsaExponent)
        let fromPEM = try PublicKey(pemRepresentation: key.publicKey.pemRepresentation)
        return (key, fromNumbers, fromPEM)
    }

    @Test(arguments: algorithms) func verdictsMatchTheEVPPath(_ algorithm: COSEAlgorithm) throws {
        let (key, fromNumbers, fromPEM) = try keys()
        let signature = try key.signature(for: message, algorithm: algorithm)
        var flipped = signature
        flipped[flipped.count / 2] ^= 0x01
        let otherKeySignature = try PrivateKey(generating: .rsa(modulusBits: 2048))
            .signature(for: message, algorithm: algorithm)
        let otherDigest: COSEAlgorithm = algorithm == .rs256 ? .rs384 : .rs256
        let other = message + [0]
        // (what, signature, message checked, algorithm checked, expected verdict)
        let cases: [(String, [UInt8], [UInt8], COSEAlgorithm, Bool)] = [
            ("valid", signature, message, algorithm, true),
            ("one bit flipped", flipped, message, algorithm, false),
            (
                "first byte dropped (k − 1 bytes)", Array(signature.dropFirst()), message,
                algorithm, false
            ),
            ("a zero byte in front (k + 1 bytes)", [0] + signature, message, algorithm, false),
            ("empty", [], message, algorithm, false),
            ("another key's signature", otherKeySignature, message, algorithm, false),
            ("checked with another digest", signature, message, otherDigest, false),
            ("checked against another message", signature, other, algorithm, false),
        ]
        for (name, candidate, checked, checkedAs, expected) in cases {
            let fast = try fromNumbers.isValidSignature(
                candidate, for: checked, algorithm: checkedAs)
            let evp = try fromPEM.isValidSignature(candidate, for: checked, algorithm: checkedAs)
            #expect(fast == expected, "\(name): numbers key")
            #expect(evp == expected, "\(name): OpenSSL-decoded key")
        }
    }

    @Test func theLazilyMadeKeyIsTheSameKey() throws {
        let (key, fromNumbers, fromPEM) = try keys()
        let signature = try key.signature(for: message, algorithm: .rs256)
        // Verification first, before anything makes the EVP key.
        #expect(try fromNumbers.isValidSignature(signature, for: message, algorithm: .rs256))
        // Export, comparison with an OpenSSL-decoded key and PSS make it.
        #expect(try fromNumbers.spkiDER == fromPEM.spkiDER)
        #expect(fromNumbers == fromPEM)
        #expect(fromPEM == fromNumbers)
        let pss = try key.signature(for: message, algorithm: .ps256)
        #expect(try fromNumbers.isValidSignature(pss, for: message, algorithm: .ps256))
        #expect(try fromNumbers.isValidSignature(signature, for: message, algorithm: .rs256))
    }

    @Test func numbersKeysCompareByTheirNumbers() throws {
        let (key, fromNumbers, _) = try keys()
        let modulus = try key.publicKey.rsaModulus
        let exponent = try key.publicKey.rsaExponent
        // Leading zeros are not part of the number.
        let padded = try PublicKey(rsaModulus: [0, 0] + modulus, exponent: [0] + exponent)
        #expect(padded == fromNumbers)
        #expect(try padded.rsaModulus == modulus)
        let otherExponent = try PublicKey(rsaModulus: modulus, exponent: [0x01, 0x00, 0x03])
        #expect(otherExponent != fromNumbers)
        let otherKey = try PrivateKey(generating: .rsa(modulusBits: 2048)).publicKey
        let otherFromNumbers = try PublicKey(
            rsaModulus: otherKey.rsaModulus, exponent: otherKey.rsaExponent)
        #expect(otherFromNumbers != fromNumbers)
    }

    @Test func oneKeyVerifiesFromManyTasksAtOnce() async throws {
        let (key, fromNumbers, _) = try keys()
        let signature = try key.signature(for: message, algorithm: .rs256)
        let message = message
        // The first verifications race to make the low-level key; every task must succeed.
        let results = await withTaskGroup(of: Bool.self) { group in
            for _ in 0..<8 {
                group.addTask {
                    (try? fromNumbers.isValidSignature(signature, for: message, algorithm: .rs256))
                        ?? false
                }
            }
            return await group.reduce(into: [Bool]()) { $0.append($1) }
        }
        #expect(results == [Bool](repeating: true, count: 8))
    }
}
