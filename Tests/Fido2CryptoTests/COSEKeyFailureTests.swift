import Fido2CBOR
import Fido2Crypto
import Fido2Encoding
import Fido2TestSupport
import Testing

/// Malformed, inconsistent and unsupported COSE keys give typed errors.
@Suite struct COSEKeyFailureTests {
    let x = Hex.bytes("60fed4ba255a9d31c961eb74c6356d68c049b8923b61fa6ce669622e60f29fb6")
    let y = Hex.bytes("7903fe1008b8bc99a41ae9e95628bc64f2f1b20c2d7e9f5177a3c294d4462299")

    enum Member {
        case int(Int)
        case bytes([UInt8])
        case text(String)
        case bool(Bool)
    }

    /// A COSE map written in the given order (so tests can break canonical order too).
    func encode(_ members: [(Int, Member)]) -> [UInt8] {
        var writer = CBORWriter()
        writer.writeMapHeader(count: members.count)
        for (label, value) in members {
            writer.writeInt(label)
            switch value {
            case .int(let number): writer.writeInt(number)
            case .bytes(let bytes): writer.writeByteString(bytes)
            case .text(let text): writer.writeTextString(text)
            case .bool(let flag): writer.writeBool(flag)
            }
        }
        return writer.bytes
    }

    func ec2(alg: Int = -7, crv: Int = 1, x: [UInt8]? = nil, y: [UInt8]? = nil) -> [(Int, Member)] {
        [
            (1, .int(2)), (3, .int(alg)), (-1, .int(crv)), (-2, .bytes(x ?? self.x)),
            (-3, .bytes(y ?? self.y)),
        ]
    }

    @Test func acceptsTheWellFormedKey() throws {
        let encoded = encode(ec2())
        let key = try COSEKey(cborEncoded: encoded)
        #expect(key.algorithm == .es256)
        #expect(try key.cborEncoded == encoded)
    }

    @Test func rejectsWrongLengthCoordinates() {
        expectCryptoError(.invalidLength, field: "x") {
            try COSEKey(cborEncoded: encode(ec2(x: Array(x.dropFirst()))))
        }
        expectCryptoError(.invalidLength, field: "y") {
            try COSEKey(cborEncoded: encode(ec2(y: [0] + y)))
        }
        expectCryptoError(.invalidLength, field: "x") {
            try COSEKey(
                cborEncoded: encode([
                    (1, .int(1)), (3, .int(-8)), (-1, .int(6)), (-2, .bytes(x + [0])),
                ]))
        }
    }

    @Test func rejectsPointsOffTheCurve() {
        var badY = y
        badY[0] ^= 0x80
        expectCryptoError(.invalidPublicKey) { try COSEKey(cborEncoded: encode(ec2(y: badY))) }
    }

    @Test func rejectsUnknownAlgorithmsAsUnsupported() {
        for alg in [-48, -49, -50, -999, 0, 1] {
            expectCryptoError(.unsupportedAlgorithm, field: "alg") {
                try COSEKey(cborEncoded: encode(ec2(alg: alg)))
            }
        }
        // An ML-DSA key as it appears in real registrations: kty 7 (AKP), alg -48, pub (-1).
        let mlDSA = encode([
            (1, .int(7)), (3, .int(-48)), (-1, .bytes([UInt8](repeating: 7, count: 1312))),
        ])
        expectCryptoError(.unsupportedAlgorithm, field: "alg") { try COSEKey(cborEncoded: mlDSA) }
    }

    @Test func rejectsKtyCrvAlgDisagreement() {
        // EC2 with EdDSA, OKP with ES256, ES256 on P-384, RSA alg on an EC2 key.
        expectCryptoError(.algorithmKeyMismatch) { try COSEKey(cborEncoded: encode(ec2(alg: -8))) }
        expectCryptoError(.algorithmKeyMismatch) {
            try COSEKey(cborEncoded: encode(ec2(alg: -257)))
        }
        expectCryptoError(.algorithmKeyMismatch, field: "crv") {
            try COSEKey(cborEncoded: encode(ec2(crv: 2)))
        }
        expectCryptoError(.algorithmKeyMismatch, field: "crv") {
            try COSEKey(
                cborEncoded: encode([
                    (1, .int(2)), (3, .int(-7)), (-1, .int(6)), (-2, .bytes(x)), (-3, .bytes(y)),
                ]))
        }
        expectCryptoError(.algorithmKeyMismatch) {
            try COSEKey(
                cborEncoded: encode([(1, .int(1)), (3, .int(-7)), (-1, .int(6)), (-2, .bytes(x))]))
        }
        expectCryptoError(.algorithmKeyMismatch, field: "crv") {
            try COSEKey(
                cborEncoded: encode([(1, .int(1)), (3, .int(-19)), (-1, .int(7)), (-2, .bytes(x))]))
        }
        expectCryptoError(.unsupportedKeyType, field: "crv") {
            try COSEKey(
                cborEncoded: encode([(1, .int(1)), (3, .int(-8)), (-1, .int(4)), (-2, .bytes(x))]))
        }
        expectCryptoError(.unsupportedKeyType, field: "kty") {
            try COSEKey(
                cborEncoded: encode([
                    (1, .int(9)), (3, .int(-7)), (-1, .int(1)), (-2, .bytes(x)), (-3, .bytes(y)),
                ]))
        }
    }

    @Test func rejectsMissingMembers() {
        expectCryptoError(.missingMember, field: "kty") {
            try COSEKey(
                cborEncoded: encode([
                    (3, .int(-7)), (-1, .int(1)), (-2, .bytes(x)), (-3, .bytes(y)),
                ]))
        }
        expectCryptoError(.missingMember, field: "alg") {
            try COSEKey(
                cborEncoded: encode([(1, .int(2)), (-1, .int(1)), (-2, .bytes(x)), (-3, .bytes(y))])
            )
        }
        expectCryptoError(.missingMember, field: "crv") {
            try COSEKey(
                cborEncoded: encode([(1, .int(2)), (3, .int(-7)), (-2, .bytes(x)), (-3, .bytes(y))])
            )
        }
        expectCryptoError(.missingMember, field: "x") {
            try COSEKey(
                cborEncoded: encode([(1, .int(2)), (3, .int(-7)), (-1, .int(1)), (-3, .bytes(y))]))
        }
        expectCryptoError(.missingMember, field: "y") {
            try COSEKey(
                cborEncoded: encode([(1, .int(2)), (3, .int(-7)), (-1, .int(1)), (-2, .bytes(x))]))
        }
        expectCryptoError(.missingMember, field: "e") {
            try COSEKey(cborEncoded: encode([(1, .int(3)), (3, .int(-257)), (-1, .bytes(x))]))
        }
    }

    @Test func rejectsMembersOfTheWrongType() {
        expectCryptoError(.invalidCOSEKey, field: "x") {
            try COSEKey(
                cborEncoded: encode([
                    (1, .int(2)), (3, .int(-7)), (-1, .int(1)), (-2, .text("x")), (-3, .bytes(y)),
                ]))
        }
        expectCryptoError(.invalidCOSEKey, field: "crv") {
            try COSEKey(
                cborEncoded: encode([
                    (1, .int(2)), (3, .int(-7)), (-1, .text("P-256")), (-2, .bytes(x)),
                    (-3, .bytes(y)),
                ]))
        }
        expectCryptoError(.invalidCOSEKey, field: "kty") {
            try COSEKey(
                cborEncoded: encode([
                    (1, .text("EC2")), (3, .int(-7)), (-1, .int(1)), (-2, .bytes(x)),
                    (-3, .bytes(y)),
                ]))
        }
        expectCryptoError(.invalidCOSEKey, field: "y") {
            try COSEKey(
                cborEncoded: encode([
                    (1, .int(2)), (3, .int(-7)), (-1, .int(1)), (-2, .bytes(x)), (-3, .bool(true)),
                ]))
        }
    }

    @Test func rejectsPrivateKeyMaterial() throws {
        expectCryptoError(.invalidCOSEKey, field: "d") {
            try COSEKey(cborEncoded: encode(ec2() + [(-4, .bytes(x))]))
        }
        let n = try PrivateKey(generating: .rsa(modulusBits: 2048)).publicKey.rsaModulus
        let rsa: [(Int, Member)] = [
            (1, .int(3)), (3, .int(-257)), (-1, .bytes(n)), (-2, .bytes([1, 0, 1])),
        ]
        #expect(try COSEKey(cborEncoded: encode(rsa)).publicKey.kind == .rsa(modulusBits: 2048))
        for label in [-3, -4, -8, -12] {
            expectCryptoError(.invalidCOSEKey, field: "d") {
                try COSEKey(cborEncoded: encode(rsa + [(label, .bytes([1]))]))
            }
        }
        // Labels outside the key type's parameters are ignored (-5 means nothing for EC2).
        #expect(try COSEKey(cborEncoded: encode(ec2() + [(-5, .bytes([1]))])).algorithm == .es256)
    }

    @Test func rejectsNonCanonicalOrMalformedCBOR() throws {
        let canonical = encode(ec2())
        // alg before kty: not CTAP2 canonical.
        let reordered = encode([
            (3, .int(-7)), (1, .int(2)), (-1, .int(1)), (-2, .bytes(x)), (-3, .bytes(y)),
        ])
        expectCryptoError(.invalidCOSEKey) { try COSEKey(cborEncoded: reordered) }
        // The lenient reader accepts the order; the key is the same.
        #expect(
            try COSEKey(cborEncoded: reordered, options: .lenient)
                == COSEKey(cborEncoded: canonical))
        expectCryptoError(.invalidCOSEKey) { try COSEKey(cborEncoded: canonical.dropLast()) }
        expectCryptoError(.invalidCOSEKey) { try COSEKey(cborEncoded: canonical + [0x00]) }
        expectCryptoError(.invalidCOSEKey) { try COSEKey(cborEncoded: [UInt8]()) }
        expectCryptoError(.invalidCOSEKey) { try COSEKey(cborEncoded: [0x80]) }  // an array
        // Duplicate kty.
        expectCryptoError(.invalidCOSEKey) {
            try COSEKey(
                cborEncoded: encode([
                    (1, .int(2)), (1, .int(2)), (3, .int(-7)), (-1, .int(1)), (-2, .bytes(x)),
                    (-3, .bytes(y)),
                ]))
        }
    }

    @Test func rejectsRSAKeysBelow2048Bits() throws {
        let small = try PrivateKey(unsafeGeneratingRSAModulusBits: 1024).publicKey
        let encoded = encode([
            (1, .int(3)), (3, .int(-257)), (-1, .bytes(try small.rsaModulus)),
            (-2, .bytes([1, 0, 1])),
        ])
        expectCryptoError(.keySizeNotAllowed) { try COSEKey(cborEncoded: encoded) }
    }

    @Test func rejectsPairingAKeyWithTheWrongAlgorithm() throws {
        let key = try PrivateKey(generating: .p384).publicKey
        expectCryptoError(.algorithmKeyMismatch) { try COSEKey(publicKey: key, algorithm: .es256) }
        expectCryptoError(.unsupportedAlgorithm) {
            try COSEKey(publicKey: key, algorithm: COSEAlgorithm(rawValue: -48))
        }
        #expect(try COSEKey(publicKey: key, algorithm: .es384).algorithm == .es384)
    }
}
