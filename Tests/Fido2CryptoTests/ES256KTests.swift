import Fido2Crypto
import Fido2TestSupport
import Testing

/// ES256K (COSE -47, RFC 8812): ECDSA with SHA-256 on secp256k1, EC2 keys with crv 8.
@Suite struct ES256KTests {
    /// A COSE_Key {1: 2, 3: alg, -1: crv, -2: x, -3: y}, its bytes written out by hand from
    /// RFC 8949's head encoding rather than by the library's CBOR writer, so that the encoder is
    /// checked against them: `alg` and `crv` are one-byte heads (-24...23) or `0x38 n` (-256...-25).
    static func ec2(alg: Int, crv: Int, point: [UInt8]) -> [UInt8] {
        func head(_ value: Int) -> [UInt8] {
            switch value {
            case 0...23: [UInt8(value)]
            case -24...(-1): [0x20 | UInt8(-1 - value)]
            default: [0x38, UInt8(-1 - value)]
            }
        }
        return [0xA5, 0x01, 0x02, 0x03] + head(alg) + [0x20] + head(crv)
            + [0x21, 0x58, 0x20] + point[1...32] + [0x22, 0x58, 0x20] + point[33...]
    }

    @Test func describesTheAlgorithmAndTheCurve() {
        #expect(COSEAlgorithm.es256K.rawValue == -47)
        #expect(COSEAlgorithm.es256K.isSupported)
        #expect(COSEAlgorithm.es256K.isAllowedForSigning)
        #expect(COSEAlgorithm.es256K.digest == .sha256)
        #expect(COSEAlgorithm.es256K.keyType == .ec2)
        #expect(COSEAlgorithm.es256K.curve == .secp256k1)
        #expect(COSEAlgorithm.es256K.description == "ES256K")
        #expect(COSEAlgorithm.es256K.joseName == "ES256K")
        #expect(COSEAlgorithm(joseName: "ES256K") == .es256K)
        #expect(COSECurve.secp256k1.rawValue == 8)
        #expect(COSECurve.secp256k1.keyKind == .secp256k1)
        #expect(KeyKind.secp256k1.coordinateByteCount == 32)
        #expect(KeyKind.secp256k1.isECDSA)
        #expect(COSEAlgorithm.es256K.isCompatible(with: .secp256k1))
        #expect(!COSEAlgorithm.es256K.isCompatible(with: .p256))
        #expect(!COSEAlgorithm.es256.isCompatible(with: .secp256k1))
    }

    @Test func importsACOSEKeyAndVerifiesItsDERSignatures() throws {
        let signer = try PrivateKey(generating: .secp256k1)
        let point = try signer.publicKey.uncompressedPoint
        let encoded = Self.ec2(alg: -47, crv: 8, point: point)
        let key = try COSEKey(cborEncoded: encoded)
        #expect(key.algorithm == .es256K)
        #expect(key.publicKey.kind == .secp256k1)
        #expect(try key.cborEncoded == encoded)
        #expect(try COSEKey(publicKey: signer.publicKey, algorithm: .es256K).cborEncoded == encoded)
        let fromSPKI = try PublicKey(spkiDER: signer.publicKey.spkiDER)
        #expect(fromSPKI.kind == .secp256k1)

        let message = Array("ES256K".utf8)
        let signature = try signer.signature(for: message, algorithm: .es256K)
        #expect(try key.publicKey.isValidSignature(signature, for: message, algorithm: .es256K))
        #expect(try fromSPKI.isValidSignature(signature, for: message, algorithm: .es256K))
        #expect(
            try !key.publicKey.isValidSignature(signature, for: message + [0], algorithm: .es256K))
        // The same key under ES256 (P-256) is a mismatch, not a verification.
        expectCryptoError(.algorithmKeyMismatch) {
            try key.publicKey.isValidSignature(signature, for: message, algorithm: .es256)
        }
    }

    @Test func refusesCurveAndAlgorithmDisagreement() throws {
        let k1Point = try PrivateKey(generating: .secp256k1).publicKey.uncompressedPoint
        let p256Point = try PrivateKey(generating: .p256).publicKey.uncompressedPoint
        // ES256K on P-256, ES256 on secp256k1.
        expectCryptoError(.algorithmKeyMismatch, field: "crv") {
            try COSEKey(cborEncoded: Self.ec2(alg: -47, crv: 1, point: p256Point))
        }
        expectCryptoError(.algorithmKeyMismatch, field: "crv") {
            try COSEKey(cborEncoded: Self.ec2(alg: -7, crv: 8, point: k1Point))
        }
        // A P-256 point labelled secp256k1 is not on the curve.
        expectCryptoError(.invalidPublicKey) {
            try COSEKey(cborEncoded: Self.ec2(alg: -47, crv: 8, point: p256Point))
        }
        // A secp256k1 key cannot sign ES256.
        let signer = try PrivateKey(generating: .secp256k1)
        expectCryptoError(.algorithmKeyMismatch) {
            try signer.signature(for: [1], algorithm: .es256)
        }
    }
}
