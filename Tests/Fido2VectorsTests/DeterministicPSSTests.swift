import Fido2Crypto
import Fido2Vectors
import Testing

/// The vectors' PSS salt rule (`DeterministicPSS`, through `ECDSANonce.reproducible`): the salt
/// is HMAC(d, H(m)), so the signature repeats for the same key and message, changes with
/// either, and verifies as any PSS signature does.
@Suite struct DeterministicPSSTests {
    static let key = Result { try PrivateKey(generating: .rsa(modulusBits: 2048)) }
    let authenticatorData = [UInt8](repeating: 0xab, count: 37)
    let clientDataHash = [UInt8](repeating: 0xcd, count: 32)

    @Test(arguments: [COSEAlgorithm.ps256, .ps384, .ps512])
    func saltRepeatsAndVerifies(_ algorithm: COSEAlgorithm) throws {
        let key = try Self.key.get()
        let first = try key.signature(
            for: authenticatorData, clientDataHash, algorithm: algorithm, nonce: .reproducible)
        let second = try key.signature(
            for: authenticatorData + clientDataHash, algorithm: algorithm, nonce: .reproducible)
        #expect(first == second)
        #expect(
            try key.publicKey.isValidSignature(
                first, for: authenticatorData, clientDataHash, algorithm: algorithm))
    }

    @Test func saltDependsOnTheMessageAndTheKey() throws {
        let key = try Self.key.get()
        let other = try PrivateKey(generating: .rsa(modulusBits: 2048))
        let a = try key.signature(for: authenticatorData, algorithm: .ps256, nonce: .reproducible)
        let b = try key.signature(for: clientDataHash, algorithm: .ps256, nonce: .reproducible)
        let c = try other.signature(
            for: authenticatorData, algorithm: .ps256, nonce: .reproducible)
        #expect(a != b)
        #expect(a != c)
        // A signature by one key does not verify under the other.
        #expect(
            try !other.publicKey.isValidSignature(a, for: authenticatorData, algorithm: .ps256))
    }

    /// The salt is HMAC(d, H(m)) with the signature's hash, d as wide as the modulus.
    @Test func saltIsTheHMACOfTheMessageHashUnderThePrivateExponent() throws {
        let key = try Self.key.get()
        let hash = DigestAlgorithm.sha256.hash(authenticatorData)
        let salt = try DeterministicPSS.salt.make(key, hash, .sha256)
        #expect(
            salt
                == (try HMAC.authenticationCode(
                    for: hash, key: key.rsaPrivateExponent, digest: .sha256)))
        #expect(ECDSANonce.reproducible == .deterministic(pssSalt: DeterministicPSS.salt))
        #expect(ECDSANonce.reproducible != .deterministic)
    }
}
