import Testing

@testable import Fido2Crypto

/// `PublicKey.spkiDER` writes ECDSA and EdDSA keys as a fixed header and the key's bytes; the
/// bytes must be exactly what OpenSSL's `i2d_PUBKEY` writes for the same key.
@Suite struct SPKIEncodingTests {
    @Test(arguments: [KeyKind.p256, .p384, .p521, .ed25519, .ed448])
    func headerAndKeyAreOpenSSLsEncoding(_ kind: KeyKind) throws {
        for _ in 0..<4 {
            let key = try PrivateKey(generating: kind).publicKey
            let openSSL = try KeyEncoding.encodeSPKI(key.box.pointer)
            #expect(try key.spkiDER == openSSL)
            // A key imported from its point (the COSE path) writes the same bytes.
            if kind.isECDSA {
                let fromPoint = try PublicKey(uncompressedPoint: key.uncompressedPoint, kind: kind)
                #expect(try fromPoint.spkiDER == openSSL)
            }
            #expect(try PublicKey(spkiDER: openSSL) == key)
        }
    }

    @Test func rsaKeysAreEncodedByOpenSSL() throws {
        let key = try PrivateKey(generating: .rsa(modulusBits: 2048)).publicKey
        #expect(KeyEncoding.spkiHeader(for: key.kind) == nil)
        #expect(try key.spkiDER == KeyEncoding.encodeSPKI(key.box.pointer))
    }
}
