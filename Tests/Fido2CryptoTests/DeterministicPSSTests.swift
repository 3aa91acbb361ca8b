import Fido2Crypto
import Testing

/// RSASSA-PSS with ``ECDSANonce/deterministic``: the salt comes from the key and the message,
/// so the signature repeats, and OpenSSL's own PSS verification (digest-length salt) accepts it.
@Suite struct DeterministicPSSTests {
    static let key = Result { try PrivateKey(generating: .rsa(modulusBits: 2048)) }
    let authenticatorData = [UInt8](repeating: 0xab, count: 37)
    let clientDataHash = [UInt8](repeating: 0xcd, count: 32)

    @Test(arguments: [COSEAlgorithm.ps256, .ps384, .ps512])
    func deterministicSaltRepeatsAndVerifies(_ algorithm: COSEAlgorithm) throws {
        let key = try Self.key.get()
        let first = try key.signature(
            for: authenticatorData, clientDataHash, algorithm: algorithm, nonce: .deterministic)
        let second = try key.signature(
            for: authenticatorData + clientDataHash, algorithm: algorithm, nonce: .deterministic)
        #expect(first == second)
        #expect(first.count == 256)
        #expect(
            try key.publicKey.isValidSignature(
                first, for: authenticatorData, clientDataHash, algorithm: algorithm))
        let random = try key.signature(
            for: authenticatorData, clientDataHash, algorithm: algorithm, nonce: .random)
        #expect(random != first)
        #expect(
            try key.publicKey.isValidSignature(
                random, for: authenticatorData, clientDataHash, algorithm: algorithm))
    }

    @Test func deterministicSaltDependsOnTheMessageAndTheKey() throws {
        let key = try Self.key.get()
        let other = try PrivateKey(generating: .rsa(modulusBits: 2048))
        let a = try key.signature(for: authenticatorData, algorithm: .ps256, nonce: .deterministic)
        let b = try key.signature(for: clientDataHash, algorithm: .ps256, nonce: .deterministic)
        let c = try other.signature(
            for: authenticatorData, algorithm: .ps256, nonce: .deterministic)
        #expect(a != b)
        #expect(a != c)
        // A signature by one key does not verify under the other.
        #expect(
            try !other.publicKey.isValidSignature(a, for: authenticatorData, algorithm: .ps256))
    }

    /// A modulus of 8n + 1 bits leaves the encoded message one byte shorter than the modulus
    /// (RFC 8017 §9.1.1, emLen = ⌈(modBits − 1)/8⌉): the leading zero byte must still be there.
    @Test func signsWithAModulusOneBitPastAByte() throws {
        // OpenSSL sometimes returns one bit less than asked for an odd size: draw until exact.
        var key = try PrivateKey(unsafeGeneratingRSAModulusBits: 1025)
        for _ in 0..<32 where key.kind.modulusBits != 1025 {
            key = try PrivateKey(unsafeGeneratingRSAModulusBits: 1025)
        }
        try #require(key.kind.modulusBits == 1025)
        let signature = try key.signature(
            for: authenticatorData, algorithm: .ps256, nonce: .deterministic)
        #expect(signature.count == 129)
        #expect(
            try key.publicKey.isValidSignature(signature, for: authenticatorData, algorithm: .ps256)
        )
    }

    /// PS512 needs 2·64 + 2 bytes of encoded message: a 1024-bit key is too small, and the
    /// deterministic path says so instead of producing a broken signature.
    @Test func refusesKeysTooSmallForTheDigest() throws {
        let key = try PrivateKey(unsafeGeneratingRSAModulusBits: 1024)
        expectCryptoError(.invalidLength) {
            try key.signature(for: authenticatorData, algorithm: .ps512, nonce: .deterministic)
        }
    }
}
