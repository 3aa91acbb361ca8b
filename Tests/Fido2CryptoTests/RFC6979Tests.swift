import Fido2Encoding
import Fido2TestSupport
import Testing

@testable import Fido2Crypto

/// RFC 6979 appendix A.2.5 (ECDSA, 256 bits, prime field: NIST P-256) with SHA-256.
@Suite struct RFC6979Tests {
    static let privateKey = "c9afa9d845ba75166b5c215767b1d6934e50c3db36e89b127b8a622b120f6721"
    static let publicX = "60fed4ba255a9d31c961eb74c6356d68c049b8923b61fa6ce669622e60f29fb6"
    static let publicY = "7903fe1008b8bc99a41ae9e95628bc64f2f1b20c2d7e9f5177a3c294d4462299"

    struct Case: Sendable, CustomStringConvertible {
        let message: String
        let k: String
        let r: String
        let s: String
        var description: String { message }
    }

    static let cases = [
        Case(
            message: "sample",
            k: "a6e3c57dd01abe90086538398355dd4c3b17aa873382b0f24d6129493d8aad60",
            r: "efd48b2aacb6a8fd1140dd9cd45e81d69d2c877b56aaf991c34d0ea84eaf3716",
            s: "f7cb1c942d657c41d436c7a1b6e29f65f3e900dbb9aff4064dc4ab2f843acda8"),
        Case(
            message: "test",
            k: "d16b6ae827f17175e040871a1c7ec3500192c4c92677336ec2537acaee0008e0",
            r: "f1abb023518351cd71d881567b1ea663ed3efcf6c5132b354f28d3b0b7d38367",
            s: "019f4113742a2b14bd25926b49c649155f267e60d3814b4c0cc84250e46f0083"),
    ]

    @Test func derivesTheAppendixPublicKey() throws {
        let key = try PrivateKey(rawScalar: Hex.bytes(Self.privateKey), kind: .p256)
        #expect(
            try Hex.encode(key.publicKey.uncompressedPoint) == "04" + Self.publicX + Self.publicY)
    }

    @Test(arguments: cases) func reproducesNonceAndSignature(_ vector: Case) throws {
        let key = try PrivateKey(rawScalar: Hex.bytes(Self.privateKey), kind: .p256)
        let message = Array(vector.message.utf8)
        let hash = DigestAlgorithm.sha256.hash(message)
        #expect(
            try Hex.encode(key.rfc6979FirstNonce(messageDigest: hash, digest: .sha256)) == vector.k)

        let der = try key.signature(for: message, algorithm: .es256, nonce: .deterministic)
        let signature = try ECDSASignature(derRepresentation: der)
        #expect(try Hex.encode(signature.rawRepresentation(kind: .p256)) == vector.r + vector.s)
        // Deterministic means the same bytes every time.
        #expect(try key.signature(for: message, algorithm: .es256, nonce: .deterministic) == der)
        #expect(try key.publicKey.isValidSignature(der, for: message, algorithm: .es256))
    }

    @Test func randomNoncesDifferButVerify() throws {
        let key = try PrivateKey(rawScalar: Hex.bytes(Self.privateKey), kind: .p256)
        let message = Array("sample".utf8)
        let a = try key.signature(for: message, algorithm: .es256)
        let b = try key.signature(for: message, algorithm: .es256)
        #expect(a != b)
        #expect(try key.publicKey.isValidSignature(a, for: message, algorithm: .es256))
        #expect(try key.publicKey.isValidSignature(b, for: message, algorithm: .es256))
    }
}
