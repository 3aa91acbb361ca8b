import Fido2Crypto
import Fido2Encoding
import Fido2TestSupport
import Testing

/// ECDH against RFC 5903 §8.1 and AES-CBC against NIST SP 800-38A F.2.5/F.2.6 (published
/// values, written here as facts), and their failure paths.
struct KeyAgreementAndCipherTests {
    // RFC 5903 §8.1, the 256-bit random ECP group.
    static let i = Hex.bytes("c88f01f510d9ac3f70a292daa2316de544e9aab8afe84049c62a9c57862d1433")
    static let gi = Hex.bytes(
        "04dad0b65394221cf9b051e1feca5787d098dfe637fc90b9ef945d0c3772581180"
            + "5271a0461cdb8252d61f1c456fa3e59ab1f45b33accf5f58389e0577b8990bb3")
    static let r = Hex.bytes("c6ef9c5d78ae012a011164acb397ce2088685d8f06bf9be0b283ab46476bee53")
    static let gr = Hex.bytes(
        "04d12dfb5289c8d4f81208b70270398c342296970a0bccb74c736fc7554494bf63"
            + "56fbf3ca366cc23e8157854c13c58d6aac23f046ada30f8353e74f33039872ab")
    static let girx = "d6840f6b42f6edafd13116e0e12565202fef8e9ece7dce03812464d04b9442de"

    @Test func ecdhReproducesRFC5903BothWays() throws {
        let initiator = try PrivateKey(rawScalar: Self.i, kind: .p256)
        let responder = try PrivateKey(rawScalar: Self.r, kind: .p256)
        #expect(try initiator.publicKey.uncompressedPoint == Self.gi)
        #expect(try responder.publicKey.uncompressedPoint == Self.gr)
        let fromInitiator = try initiator.sharedSecret(
            with: PublicKey(uncompressedPoint: Self.gr, kind: .p256))
        let fromResponder = try responder.sharedSecret(
            with: PublicKey(uncompressedPoint: Self.gi, kind: .p256))
        #expect(Hex.encode(fromInitiator) == Self.girx)
        #expect(fromResponder == fromInitiator)
    }

    @Test func ecdhRefusesKeysOfDifferentCurvesOrTypes() throws {
        let p256 = try PrivateKey(rawScalar: Self.i, kind: .p256)
        let p384 = try PrivateKey(generating: .p384)
        let ed25519 = try PrivateKey(generating: .ed25519)
        #expect(throws: CryptoError.self) { try p256.sharedSecret(with: p384.publicKey) }
        #expect(throws: CryptoError.self) { try ed25519.sharedSecret(with: ed25519.publicKey) }
        var offCurve = Self.gr
        offCurve[64] ^= 1
        #expect(throws: CryptoError.self) {
            try PublicKey(uncompressedPoint: offCurve, kind: .p256)
        }
    }

    @Test func ecdhWorksOnP384AndP521() throws {
        for kind in [KeyKind.p384, .p521] {
            let a = try PrivateKey(generating: kind)
            let b = try PrivateKey(generating: kind)
            let ab = try a.sharedSecret(with: b.publicKey)
            #expect(ab == (try b.sharedSecret(with: a.publicKey)))
            #expect(ab.count == kind.coordinateByteCount)
        }
    }

    // NIST SP 800-38A F.2.5 (CBC-AES256.Encrypt) and F.2.6 (Decrypt).
    static let key = Hex.bytes("603deb1015ca71be2b73aef0857d77811f352c073b6108d72d9810a30914dff4")
    static let iv = Hex.bytes("000102030405060708090a0b0c0d0e0f")
    static let plaintext = Hex.bytes(
        "6bc1bee22e409f96e93d7e117393172aae2d8a571e03ac9c9eb76fac45af8e51"
            + "30c81c46a35ce411e5fbc1191a0a52eff69f2445df4f9b17ad2b417be66c3710")
    static let ciphertext = Hex.bytes(
        "f58c4c04d6e5f1ba779eabfb5f7bfbd69cfc4e967edb808d679f777bc6702c7d"
            + "39f23369a9d9bacfa530e26304231461b2eb05e2c39be9fcda6c19078c6a9d1b")

    @Test func aesCBCReproducesSP800_38A() throws {
        #expect(try AESCBC.encrypt(Self.plaintext, key: Self.key, iv: Self.iv) == Self.ciphertext)
        #expect(try AESCBC.decrypt(Self.ciphertext, key: Self.key, iv: Self.iv) == Self.plaintext)
        #expect(try AESCBC.encrypt([UInt8](), key: Self.key, iv: Self.iv) == [])
    }

    @Test func aesCBCRefusesWrongSizes() {
        let cases: [([UInt8], [UInt8], [UInt8], String)] = [
            (Array(Self.plaintext.prefix(15)), Self.key, Self.iv, "plaintext"),
            (Self.plaintext, Array(Self.key.prefix(31)), Self.iv, "key"),
            (Self.plaintext, Self.key, Array(Self.iv.prefix(8)), "iv"),
        ]
        for (input, key, iv, field) in cases {
            let error = #expect(throws: CryptoError.self) {
                try AESCBC.encrypt(input, key: key, iv: iv)
            }
            #expect(error?.code == .invalidLength)
            #expect(error?.field == field)
        }
        #expect(throws: CryptoError.self) {
            try AESCBC.decrypt(Array(Self.ciphertext.prefix(17)), key: Self.key, iv: Self.iv)
        }
    }
}
