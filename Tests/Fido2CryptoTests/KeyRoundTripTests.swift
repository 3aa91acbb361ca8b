import Fido2Crypto
import Fido2TestSupport
import Fido2Vectors
import Testing

/// Generated keys survive every export and import they support.
@Suite struct KeyRoundTripTests {
    static let kinds: [KeyKind] = [
        .p256, .p384, .p521, .secp256k1, .ed25519, .ed448, .rsa(modulusBits: 2048),
    ]

    @Test(arguments: kinds) func roundTripsThroughPKCS8AndSPKI(_ kind: KeyKind) throws {
        let key = try PrivateKey(generating: kind)
        #expect(key.kind == kind)
        let publicKey = try key.publicKey
        #expect(publicKey.kind == kind)

        let pkcs8 = try key.pkcs8DER
        let reimported = try PrivateKey(pkcs8DER: pkcs8)
        #expect(reimported.kind == kind)
        #expect(try reimported.publicKey == publicKey)
        #expect(try reimported.pkcs8DER == pkcs8)

        let pem = try key.pemRepresentation
        #expect(pem.hasPrefix("-----BEGIN PRIVATE KEY-----\n"))
        #expect(pem.hasSuffix("-----END PRIVATE KEY-----\n"))
        #expect(try PrivateKey(pemRepresentation: pem).pkcs8DER == pkcs8)

        let spki = try publicKey.spkiDER
        #expect(try PublicKey(spkiDER: spki) == publicKey)
        let publicPEM = try publicKey.pemRepresentation
        #expect(publicPEM.hasPrefix("-----BEGIN PUBLIC KEY-----\n"))
        #expect(try PublicKey(pemRepresentation: publicPEM) == publicKey)

        // Keys of another kind (or another key of the same kind) are different.
        #expect(try PrivateKey(generating: kind == .p256 ? .p384 : .p256).publicKey != publicKey)
        if !kind.isRSA { #expect(try PrivateKey(generating: kind).publicKey != publicKey) }
    }

    @Test(arguments: [KeyKind.p256, .p384, .p521, .secp256k1]) func roundTripsECRawForms(
        _ kind: KeyKind
    ) throws {
        let key = try PrivateKey(generating: kind)
        let scalar = try key.rawScalar
        #expect(scalar.count == kind.coordinateByteCount)
        let rebuilt = try PrivateKey(rawScalar: scalar, kind: kind)
        #expect(try rebuilt.publicKey == key.publicKey)
        let point = try key.publicKey.uncompressedPoint
        #expect(point.count == 1 + 2 * (kind.coordinateByteCount ?? 0))
        #expect(try PublicKey(uncompressedPoint: point, kind: kind) == key.publicKey)
    }

    @Test(arguments: [KeyKind.ed25519, .ed448]) func roundTripsEdDSARawForms(_ kind: KeyKind) throws
    {
        let key = try PrivateKey(generating: kind)
        let raw = try key.rawEdDSAPrivateKey
        #expect(raw.count == kind.rawEdDSAKeyByteCount)
        #expect(try PrivateKey(rawEdDSAPrivateKey: raw, kind: kind).publicKey == key.publicKey)
        let publicRaw = try key.publicKey.rawEdDSAPublicKey
        #expect(try PublicKey(rawEdDSAPublicKey: publicRaw, kind: kind) == key.publicKey)
    }

    @Test func refusesExportsThatDoNotFitTheKind() throws {
        let ec = try PrivateKey(generating: .p256)
        let ed = try PrivateKey(generating: .ed25519)
        expectCryptoError(.unsupportedKeyType) { try ec.rawEdDSAPrivateKey }
        expectCryptoError(.unsupportedKeyType) { try ed.rawScalar }
        expectCryptoError(.unsupportedKeyType) { try ed.publicKey.uncompressedPoint }
        expectCryptoError(.unsupportedKeyType) { try ec.publicKey.rawEdDSAPublicKey }
        expectCryptoError(.unsupportedKeyType) { try ec.publicKey.rsaModulus }
    }

    @Test(arguments: [KeyKind.p256, .p384, .p521, .ed25519, .ed448])
    func generatesReproducibleKeysFromADeterministicSource(_ kind: KeyKind) throws {
        let seed = Array("fido2kit key generation test".utf8)
        let a = try PrivateKey(generating: kind, using: DeterministicRandomSource(seed: seed))
        let b = try PrivateKey(generating: kind, using: DeterministicRandomSource(seed: seed))
        #expect(try a.pkcs8DER == b.pkcs8DER)
        let c = try PrivateKey(generating: kind, using: DeterministicRandomSource(seed: seed + [1]))
        #expect(try a.pkcs8DER != c.pkcs8DER)
        let d = try PrivateKey(generating: kind, using: SystemRandomSource())
        #expect(d.kind == kind)
    }

    @Test func refusesRSAGenerationFromACustomSource() throws {
        expectCryptoError(.unsupportedOperation) {
            try PrivateKey(
                generating: .rsa(modulusBits: 2048), using: DeterministicRandomSource(seed: [1]))
        }
    }

    /// The W3C RSA key (p = 2^1279 − 1, q = 2^2203 − 1, e = 65537) is a 3482-bit key.
    @Test func buildsTheW3CRSAKeyFromItsPrimes() throws {
        var p = [UInt8](repeating: 0xff, count: 160)
        p[0] = 0x7f
        var q = [UInt8](repeating: 0xff, count: 276)
        q[0] = 0x07
        let key = try PrivateKey(rsaPrimeP: p, primeQ: q, publicExponent: [1, 0, 1])
        #expect(key.kind == .rsa(modulusBits: 3482))
        #expect(try key.publicKey.rsaExponent == [1, 0, 1])
        let again = try PrivateKey(pkcs8DER: key.pkcs8DER)
        let signature = try key.signature(for: [1, 2, 3], algorithm: .rs256)
        #expect(try again.signature(for: [1, 2, 3], algorithm: .rs256) == signature)
    }
}
