import Fido2Crypto
import Testing

/// RSASSA-PSS with a salt rule (`PSSSalt`, carried by the nonce): the signature is the one the
/// rule's salt gives, every time, and OpenSSL's own PSS verification (digest-length salt)
/// accepts it. Without a rule, even the deterministic nonce keeps OpenSSL's random salt.
@Suite struct SaltedPSSTests {
    static let key = Result { try PrivateKey(generating: .rsa(modulusBits: 2048)) }
    /// A salt of 0x5a bytes, whatever the key and message.
    static let fixedSalt = ECDSANonce.deterministic(
        pssSalt: PSSSalt(name: "fixed 0x5a") { _, _, digest in
            [UInt8](repeating: 0x5a, count: digest.byteCount)
        })
    let authenticatorData = [UInt8](repeating: 0xab, count: 37)
    let clientDataHash = [UInt8](repeating: 0xcd, count: 32)

    @Test(arguments: [COSEAlgorithm.ps256, .ps384, .ps512])
    func aSaltRuleMakesTheSignatureRepeat(_ algorithm: COSEAlgorithm) throws {
        let key = try Self.key.get()
        let first = try key.signature(
            for: authenticatorData, clientDataHash, algorithm: algorithm, nonce: Self.fixedSalt)
        let second = try key.signature(
            for: authenticatorData + clientDataHash, algorithm: algorithm, nonce: Self.fixedSalt)
        #expect(first == second)
        #expect(first.count == 256)
        #expect(
            try key.publicKey.isValidSignature(
                first, for: authenticatorData, clientDataHash, algorithm: algorithm))
        for nonce in [ECDSANonce.random, .deterministic] {
            let random = try key.signature(
                for: authenticatorData, clientDataHash, algorithm: algorithm, nonce: nonce)
            #expect(random != first)
            #expect(
                try key.publicKey.isValidSignature(
                    random, for: authenticatorData, clientDataHash, algorithm: algorithm))
        }
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
            for: authenticatorData, algorithm: .ps256, nonce: Self.fixedSalt)
        #expect(signature.count == 129)
        #expect(
            try key.publicKey.isValidSignature(signature, for: authenticatorData, algorithm: .ps256)
        )
    }

    /// PS512 needs 2·64 + 2 bytes of encoded message: a 1024-bit key is too small, and the
    /// salted path says so instead of producing a broken signature.
    @Test func refusesKeysTooSmallForTheDigest() throws {
        let key = try PrivateKey(unsafeGeneratingRSAModulusBits: 1024)
        expectCryptoError(.invalidLength) {
            try key.signature(for: authenticatorData, algorithm: .ps512, nonce: Self.fixedSalt)
        }
    }

    /// A rule whose salt is not as long as the hash is refused: COSE's PS256, PS384 and PS512
    /// fix the salt length to the hash length.
    @Test func refusesASaltOfAnotherLength() throws {
        let key = try Self.key.get()
        let short = ECDSANonce.deterministic(
            pssSalt: PSSSalt(name: "short") { _, _, _ in [0x01] })
        expectCryptoError(.invalidLength) {
            try key.signature(for: authenticatorData, algorithm: .ps256, nonce: short)
        }
    }

    /// The private exponent the vectors' salt rule is keyed with: as many bytes as the modulus,
    /// and only for RSA keys.
    @Test func exposesTheRSAPrivateExponentToSaltRules() throws {
        let key = try Self.key.get()
        #expect(try key.rsaPrivateExponent.count == 256)
        expectCryptoError(.unsupportedKeyType) {
            try PrivateKey(generating: .p256).rsaPrivateExponent
        }
    }
}
