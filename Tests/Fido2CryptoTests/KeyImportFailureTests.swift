import Fido2Crypto
import Fido2Encoding
import Fido2TestSupport
import Testing

/// Bad key input gives a typed error, never a crash.
@Suite struct KeyImportFailureTests {
    // RFC 6979 A.2.5 public key, a valid P-256 point.
    let x = Hex.bytes("60fed4ba255a9d31c961eb74c6356d68c049b8923b61fa6ce669622e60f29fb6")
    let y = Hex.bytes("7903fe1008b8bc99a41ae9e95628bc64f2f1b20c2d7e9f5177a3c294d4462299")
    let fieldPrime = Hex.bytes("ffffffff00000001000000000000000000000000ffffffffffffffffffffffff")
    let spkiHeader = Hex.bytes("3059301306072a8648ce3d020106082a8648ce3d030107034200")

    @Test func acceptsTheValidPoint() throws {
        let key = try PublicKey(x: x, y: y, kind: .p256)
        #expect(try key.uncompressedPoint == [0x04] + x + y)
        #expect(try PublicKey(uncompressedPoint: [0x04] + x + y, kind: .p256) == key)
        #expect(try PublicKey(spkiDER: spkiHeader + [0x04] + x + y) == key)
    }

    @Test func rejectsWrongLengthCoordinates() {
        expectCryptoError(.invalidLength, field: "x") {
            try PublicKey(x: x.dropFirst(), y: y, kind: .p256)
        }
        expectCryptoError(.invalidLength, field: "y") {
            try PublicKey(x: x, y: y + [0], kind: .p256)
        }
        expectCryptoError(.invalidLength, field: "x") {
            try PublicKey(x: [0] + x, y: [0] + y, kind: .p256)
        }
        expectCryptoError(.invalidLength, field: "x") { try PublicKey(x: x, y: y, kind: .p384) }
        expectCryptoError(.invalidLength, field: "point") {
            try PublicKey(uncompressedPoint: [0x04] + x + y.dropLast(), kind: .p256)
        }
    }

    @Test func rejectsPointsOffTheCurve() {
        var badY = y
        badY[31] ^= 0x01
        expectCryptoError(.invalidPublicKey) { try PublicKey(x: x, y: badY, kind: .p256) }
        expectCryptoError(.invalidPublicKey) {
            try PublicKey(uncompressedPoint: [0x04] + x + badY, kind: .p256)
        }
        expectCryptoError(.invalidPublicKey) {
            try PublicKey(spkiDER: spkiHeader + [0x04] + x + badY)
        }
        // (0, 0) is not on P-256 (b ≠ 0); a coordinate equal to p is not a field element.
        let zero = [UInt8](repeating: 0, count: 32)
        expectCryptoError(.invalidPublicKey) { try PublicKey(x: zero, y: zero, kind: .p256) }
        expectCryptoError(.invalidPublicKey) { try PublicKey(x: fieldPrime, y: y, kind: .p256) }
    }

    @Test func rejectsThePointAtInfinity() {
        // SubjectPublicKeyInfo whose BIT STRING holds the single octet 00 (SEC 1 infinity).
        let infinity = Hex.bytes("3019301306072a8648ce3d020106082a8648ce3d03010703020000")
        expectCryptoError(.invalidPublicKey) { try PublicKey(spkiDER: infinity) }
        // The one-byte infinity encoding is not an uncompressed point.
        expectCryptoError(.invalidLength) { try PublicKey(uncompressedPoint: [0x00], kind: .p256) }
    }

    @Test func rejectsCompressedPrefixOnUncompressedImport() {
        expectCryptoError(.invalidPublicKey, field: "point") {
            try PublicKey(uncompressedPoint: [0x02] + x + y, kind: .p256)
        }
    }

    @Test func rejectsTruncatedOrPaddedDER() throws {
        let spki = spkiHeader + [0x04] + x + y
        expectCryptoError(.invalidKeyEncoding) { try PublicKey(spkiDER: spki.dropLast()) }
        expectCryptoError(.invalidKeyEncoding) { try PublicKey(spkiDER: spki + [0x00]) }
        expectCryptoError(.invalidKeyEncoding) { try PublicKey(spkiDER: spki.prefix(10)) }
        expectCryptoError(.invalidKeyEncoding) { try PublicKey(spkiDER: [UInt8]()) }
        let pkcs8 = try PrivateKey(generating: .p256).pkcs8DER
        expectCryptoError(.invalidKeyEncoding) { try PrivateKey(pkcs8DER: pkcs8.dropLast()) }
        expectCryptoError(.invalidKeyEncoding) { try PrivateKey(pkcs8DER: pkcs8 + [0]) }
        expectCryptoError(.invalidKeyEncoding) { try PrivateKey(pkcs8DER: spki) }
    }

    @Test func rejectsUnsupportedCurvesAndKeyTypes() {
        let secp256k1 = Hex.bytes(
            "3056301006072a8648ce3d020106052b8104000a034200042cf69d8aaaa142f8e6ff880308b1a510d68280a3dbca657fd40b4d78c0f6ad41751bc69c46f1748a9f104ed3affd1bcb293aae1384d2ac563047c8b640b65ec0"
        )
        // secp256k1 (ES256K) imports; brainpoolP256r1 does not.
        #expect((try? PublicKey(spkiDER: secp256k1))?.kind == .secp256k1)
        let brainpoolP256r1 = Hex.bytes(
            "305a301406072a8648ce3d020106092b2403030208010107034200047f5ab32d15427adfda848728a89ca920eb47b5a2b9d7edb3e28bbc522462cdaf092844bfcb4b6195365c586ce4a96604f8f4f4140735bb29851d44780c0a721a"
        )
        expectCryptoError(.unsupportedKeyType) { try PublicKey(spkiDER: brainpoolP256r1) }
        let x25519 = Hex.bytes(
            "302a300506032b656e0321001b5ce58fd962b474bf7b15d16f8fe606d470f59781775f769f3285f00171eb3f"
        )
        expectCryptoError(.unsupportedKeyType) { try PublicKey(spkiDER: x25519) }
        expectCryptoError(.unsupportedKeyType) { try PublicKey(x: x, y: y, kind: .ed25519) }
        expectCryptoError(.unsupportedKeyType) { try PublicKey(rawEdDSAPublicKey: x, kind: .p256) }
        expectCryptoError(.unsupportedKeyType) { try PrivateKey(rawScalar: x, kind: .ed25519) }
    }

    @Test func rejectsRSABelow2048BitsThroughTheSafeInitializers() throws {
        let small = try PrivateKey(unsafeGeneratingRSAModulusBits: 1024)
        #expect(small.kind == .rsa(modulusBits: 1024))
        let spki = try small.publicKey.spkiDER
        expectCryptoError(.keySizeNotAllowed) { try PublicKey(spkiDER: spki) }
        #expect(try PublicKey(unsafeSPKIDER: spki).kind == .rsa(modulusBits: 1024))
        let pkcs8 = try small.pkcs8DER
        expectCryptoError(.keySizeNotAllowed) { try PrivateKey(pkcs8DER: pkcs8) }
        #expect(try PrivateKey(unsafePKCS8DER: pkcs8).kind == .rsa(modulusBits: 1024))
        let n = try small.publicKey.rsaModulus
        expectCryptoError(.keySizeNotAllowed, field: "n") {
            try PublicKey(rsaModulus: n, exponent: [1, 0, 1])
        }
        #expect(try PublicKey(unsafeRSAModulus: n, exponent: [1, 0, 1]) == small.publicKey)
        expectCryptoError(.keySizeNotAllowed) {
            try PrivateKey(generating: .rsa(modulusBits: 1024))
        }
        expectCryptoError(.keySizeNotAllowed) {
            try PrivateKey(unsafeGeneratingRSAModulusBits: 512)
        }
        expectCryptoError(.keySizeNotAllowed) {
            try PrivateKey(generating: .rsa(modulusBits: 8192))
        }
        let pem = try small.publicKey.pemRepresentation
        expectCryptoError(.keySizeNotAllowed) { try PublicKey(pemRepresentation: pem) }
    }

    @Test func rejectsBadRSAComponents() throws {
        let n = try PrivateKey(generating: .rsa(modulusBits: 2048)).publicKey.rsaModulus
        expectCryptoError(.invalidPublicKey, field: "e") {
            try PublicKey(rsaModulus: n, exponent: [1, 0, 0])
        }
        expectCryptoError(.invalidPublicKey, field: "e") {
            try PublicKey(rsaModulus: n, exponent: [1])
        }
        var even = n
        even[even.count - 1] &= 0xfe
        expectCryptoError(.invalidPublicKey, field: "n") {
            try PublicKey(rsaModulus: even, exponent: [1, 0, 1])
        }
        // p = q, and a composite "prime".
        let p = [UInt8](repeating: 0xff, count: 128)
        expectCryptoError(.invalidPrivateKey) {
            try PrivateKey(rsaPrimeP: p, primeQ: p, publicExponent: [1, 0, 1])
        }
        expectCryptoError(.invalidPrivateKey) {
            try PrivateKey(rsaPrimeP: p, primeQ: p.dropLast() + [0xfd], publicExponent: [1, 0, 1])
        }
    }

    @Test func rejectsBadPEM() throws {
        let key = try PrivateKey(generating: .p256)
        let privatePEM = try key.pemRepresentation
        let publicPEM = try key.publicKey.pemRepresentation
        expectCryptoError(.invalidPEM) { try PublicKey(pemRepresentation: "not PEM at all") }
        expectCryptoError(.invalidPEM) { try PublicKey(pemRepresentation: "") }
        expectCryptoError(.invalidPEM) { try PublicKey(pemRepresentation: privatePEM) }
        expectCryptoError(.invalidPEM) { try PrivateKey(pemRepresentation: publicPEM) }
        let corrupted = publicPEM.replacingOccurrences(of: "M", with: "!")
        expectCryptoError(.invalidPEM) { try PublicKey(pemRepresentation: corrupted) }
        let truncated = String(publicPEM.dropLast(30))
        expectCryptoError(.invalidPEM) { try PublicKey(pemRepresentation: truncated) }
        let encrypted = privatePEM.replacingOccurrences(
            of: "-----BEGIN PRIVATE KEY-----\n",
            with:
                "-----BEGIN PRIVATE KEY-----\nProc-Type: 4,ENCRYPTED\nDEK-Info: AES-128-CBC,00112233445566778899AABBCCDDEEFF\n\n"
        )
        expectCryptoError(.invalidPEM) { try PrivateKey(pemRepresentation: encrypted) }
        let relabelled = privatePEM.replacingOccurrences(of: "PRIVATE KEY", with: "EC PRIVATE KEY")
        expectCryptoError(.invalidPEM) { try PrivateKey(pemRepresentation: relabelled) }
        // A PEM block whose DER is not a key.
        let garbage = "-----BEGIN PUBLIC KEY-----\nAAECAwQF\n-----END PUBLIC KEY-----\n"
        expectCryptoError(.invalidKeyEncoding) { try PublicKey(pemRepresentation: garbage) }
    }

    @Test func rejectsBadPrivateScalarsAndRawKeys() {
        let order = Hex.bytes("ffffffff00000000ffffffffffffffffbce6faada7179e84f3b9cac2fc632551")
        expectCryptoError(.invalidPrivateKey, field: "d") {
            try PrivateKey(rawScalar: [0, 0], kind: .p256)
        }
        expectCryptoError(.invalidPrivateKey, field: "d") {
            try PrivateKey(rawScalar: order, kind: .p256)
        }
        expectCryptoError(.invalidLength, field: "d") {
            try PrivateKey(rawScalar: [UInt8](), kind: .p256)
        }
        expectCryptoError(.invalidLength, field: "d") {
            try PrivateKey(rawScalar: [1] + order, kind: .p256)
        }
        expectCryptoError(.invalidLength, field: "d") {
            try PrivateKey(rawEdDSAPrivateKey: [UInt8](repeating: 1, count: 31), kind: .ed25519)
        }
        expectCryptoError(.invalidLength, field: "x") {
            try PublicKey(rawEdDSAPublicKey: [UInt8](repeating: 1, count: 32), kind: .ed448)
        }
    }
}
