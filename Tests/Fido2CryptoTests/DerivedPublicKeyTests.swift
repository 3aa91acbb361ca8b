import Fido2Crypto
import Fido2TestSupport
import Testing

/// A private key's public key, which starts as the point alone and makes its OpenSSL keys on
/// first use, behaves exactly like the same key imported from its SPKI.
@Suite struct DerivedPublicKeyTests {
    static let curves: [(KeyKind, COSEAlgorithm)] = [
        (.p256, .es256), (.p384, .es384), (.p521, .es512), (.secp256k1, .es256K),
    ]

    @Test(arguments: curves) func derivedPublicKeyActsAsItsImport(
        _ kind: KeyKind, _ algorithm: COSEAlgorithm
    ) throws {
        let key = try PrivateKey(generating: kind)
        // Each use on a fresh derived key first: verification, then export, then comparison.
        let message: [UInt8] = Array("derived".utf8)
        let signature = try key.signature(for: message, algorithm: algorithm)
        #expect(try key.publicKey.isValidSignature(signature, for: message, algorithm: algorithm))
        #expect(
            try !key.publicKey.isValidSignature(signature, for: message + [0], algorithm: algorithm)
        )

        let spki = try key.publicKey.spkiDER
        let imported = try PublicKey(spkiDER: spki)
        #expect(try key.publicKey == imported)
        #expect(try imported == key.publicKey)
        #expect(try key.publicKey.uncompressedPoint == imported.uncompressedPoint)
        #expect(try imported.spkiDER == spki)
        #expect(try key.publicKey.pemRepresentation == imported.pemRepresentation)
        #expect(try key.publicKey != PrivateKey(generating: kind).publicKey)
    }

    /// A PKCS#8 key whose ECPrivateKey carries its point compressed (OpenSSL then encodes the
    /// point compressed) still gives the uncompressed point and the same public key.
    @Test func compressedPointInPKCS8GivesTheUncompressedPublicKey() throws {
        let key = try PrivateKey(generating: .p256)
        let point = try key.publicKey.uncompressedPoint
        let scalar = try key.rawScalar
        let compressed = [UInt8(0x02 | (point[64] & 1))] + point[1...32]
        // ECPrivateKey { 1, d, [1] BIT STRING compressed point } (curve given by the PKCS#8
        // algorithm identifier).
        let ecPrivateKey =
            [0x30, 0x4b, 0x02, 0x01, 0x01, 0x04, 0x20] + scalar
            + [0xa1, 0x24, 0x03, 0x22, 0x00] + compressed
        let pkcs8: [UInt8] =
            [
                0x30, 0x67, 0x02, 0x01, 0x00, 0x30, 0x13, 0x06, 0x07, 0x2a, 0x86, 0x48, 0xce, 0x3d,
                0x02, 0x01, 0x06, 0x08, 0x2a, 0x86, 0x48, 0xce, 0x3d, 0x03, 0x01, 0x07, 0x04, 0x4d,
            ] + ecPrivateKey
        let imported = try PrivateKey(pkcs8DER: pkcs8)
        #expect(try imported.publicKey.uncompressedPoint == point)
        #expect(try imported.publicKey == key.publicKey)
        let signature = try imported.signature(for: [1, 2, 3], algorithm: .es256)
        #expect(try key.publicKey.isValidSignature(signature, for: [1, 2, 3], algorithm: .es256))
    }
}
