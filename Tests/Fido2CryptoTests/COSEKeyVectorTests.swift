import Fido2Crypto
import Fido2Encoding
import Fido2TestSupport
import Foundation
import Testing

/// Every key of `cose-keys.json` (cose-wg/Examples): imported from its WebAuthn-style COSE
/// encoding and from SPKI, exported back byte for byte, and both imports are the same key.
@Suite struct COSEKeyVectorTests {
    struct Vector: Decodable, Sendable, CustomStringConvertible {
        let kid: String
        let keyTypeName: String
        let curveName: String?
        let x: String?
        let y: String?
        let d: String?
        let n: String?
        let e: String?
        let webAuthnCOSE: String
        let webAuthnAlgorithm: Int
        let plainCOSE: String
        let spki: String
        let uncompressedPoint: String?
        var description: String { "\(keyTypeName) \(curveName ?? "") \(kid)" }

        enum CodingKeys: String, CodingKey {
            case kid, x, y, d, n, e
            case keyTypeName = "kty_name"
            case curveName = "crv_name"
            case webAuthnCOSE = "webauthn_style_cose_key_cbor_hex"
            case webAuthnAlgorithm = "webauthn_style_alg"
            case plainCOSE = "cose_key_public_cbor_hex"
            case spki = "spki_der_hex"
            case uncompressedPoint = "uncompressed_point_hex"
        }
    }

    struct File: Decodable { let keys: [Vector] }

    static func vectors() throws -> [Vector] {
        try SharedVectors.decode(File.self, from: "cose-keys.json").keys
    }

    @Test func coversAllEightKeys() throws {
        let vectors = try Self.vectors()
        #expect(vectors.count == 8)
        let kinds = vectors.map { $0.curveName ?? $0.keyTypeName }
        #expect(
            kinds.sorted() == [
                "Ed25519", "Ed448", "P-256", "P-256", "P-256", "P-384", "P-521", "RSA",
            ])
    }

    @Test(arguments: try vectors()) func importsAndExportsByteForByte(_ vector: Vector) throws {
        let cose = Hex.bytes(vector.webAuthnCOSE)
        let spki = Hex.bytes(vector.spki)

        let fromCOSE = try COSEKey(cborEncoded: cose)
        #expect(fromCOSE.algorithm.rawValue == vector.webAuthnAlgorithm)
        #expect(try fromCOSE.cborEncoded == cose)

        let fromSPKI = try PublicKey(spkiDER: spki)
        #expect(try fromSPKI.spkiDER == spki)
        #expect(try fromCOSE.publicKey.spkiDER == spki)
        #expect(fromCOSE.publicKey == fromSPKI)
        #expect(fromSPKI.kind == fromCOSE.publicKey.kind)

        let rebuilt = try COSEKey(publicKey: fromSPKI, algorithm: fromCOSE.algorithm)
        #expect(try rebuilt.cborEncoded == cose)

        // The components the vector lists are the key's.
        if let point = vector.uncompressedPoint {
            #expect(try Hex.encode(fromSPKI.uncompressedPoint) == point)
            let x = try #require(vector.x), y = try #require(vector.y)
            #expect(
                try PublicKey(x: Hex.bytes(x), y: Hex.bytes(y), kind: fromSPKI.kind) == fromSPKI)
        }
        if fromSPKI.kind.isEdDSA, let x = vector.x {
            #expect(try Hex.encode(fromSPKI.rawEdDSAPublicKey) == x)
        }
        if let n = vector.n, let e = vector.e {
            #expect(try Hex.encode(fromSPKI.rsaModulus) == n)
            #expect(try Hex.encode(fromSPKI.rsaExponent) == e)
        }

        // The private key (where given) derives the same public key.
        if let d = vector.d {
            let privateKey =
                fromSPKI.kind.isEdDSA
                ? try PrivateKey(rawEdDSAPrivateKey: Hex.bytes(d), kind: fromSPKI.kind)
                : try PrivateKey(rawScalar: Hex.bytes(d), kind: fromSPKI.kind)
            #expect(try privateKey.publicKey == fromSPKI)
        }
    }

    /// The plain cose-wg encodings carry a kid and no alg; WebAuthn requires alg, so they are
    /// refused with a missing-member error naming alg.
    @Test(arguments: try vectors()) func refusesCOSEKeysWithoutAlgorithm(_ vector: Vector) throws {
        let error = try #require(throws: CryptoError.self) {
            try COSEKey(cborEncoded: Hex.bytes(vector.plainCOSE))
        }
        #expect(error.code == .missingMember)
        #expect(error.field == "alg")
    }
}
