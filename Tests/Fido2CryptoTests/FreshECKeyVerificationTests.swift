import Fido2Crypto
import Fido2Encoding
import Fido2TestSupport
import Testing

/// ECDSA public keys verify through a low-level `EC_KEY` (`ECDSA_verify`); keys imported from a
/// point make their OpenSSL `EVP_PKEY` only when SPKI or PEM export needs it. These tests pin that
/// the fast path validates points and signatures exactly as strictly as the EVP path did, on
/// every curve, and that the lazily made key is the same key.
@Suite struct FreshECKeyVerificationTests {
    struct Curve: Sendable, CustomStringConvertible {
        let kind: KeyKind
        let algorithm: COSEAlgorithm
        let fieldPrime: [UInt8]
        let order: [UInt8]
        /// DER of AlgorithmIdentifier { id-ecPublicKey, the named curve }.
        let algorithmIdentifier: [UInt8]
        var description: String { "\(kind)" }
        var width: Int { fieldPrime.count }
    }

    static let curves = [
        Curve(
            kind: .p256, algorithm: .es256,
            fieldPrime: Hex.bytes(
                "ffffffff00000001000000000000000000000000ffffffffffffffffffffffff"),
            order: Hex.bytes("ffffffff00000000ffffffffffffffffbce6faada7179e84f3b9cac2fc632551"),
            algorithmIdentifier: Hex.bytes("301306072a8648ce3d020106082a8648ce3d030107")),
        Curve(
            kind: .p384, algorithm: .es384,
            fieldPrime: Hex.bytes(
                "fffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffeffffffff0000000000000000ffffffff"
            ),
            order: Hex.bytes(
                "ffffffffffffffffffffffffffffffffffffffffffffffffc7634d81f4372ddf581a0db248b0a77aecec196accc52973"
            ),
            algorithmIdentifier: Hex.bytes("301006072a8648ce3d020106052b81040022")),
        Curve(
            kind: .p521, algorithm: .es512,
            fieldPrime: [0x01] + [UInt8](repeating: 0xff, count: 65),
            order: Hex.bytes(
                "01fffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffa51868783bf2f966b7fcc0148f709a5d03bb5c9b8899c47aebb6fb71e91386409"
            ),
            algorithmIdentifier: Hex.bytes("301006072a8648ce3d020106052b81040023")),
    ]

    let message = [UInt8]("authenticatorData ‖ clientDataHash".utf8)

    // MARK: The same key, however it was imported

    @Test(arguments: curves) func pointKeysVerifyBeforeAndAfterExport(_ curve: Curve) throws {
        let key = try PrivateKey(generating: curve.kind)
        let signature = try key.signature(for: message, algorithm: curve.algorithm)
        let point = try key.publicKey.uncompressedPoint
        let x = Array(point[1...curve.width])
        let y = Array(point[(1 + curve.width)...])

        // Verification first, before anything makes the EVP key.
        let fromPoint = try PublicKey(uncompressedPoint: point, kind: curve.kind)
        #expect(try fromPoint.isValidSignature(signature, for: message, algorithm: curve.algorithm))
        #expect(try fromPoint.uncompressedPoint == point)
        let fromCoordinates = try PublicKey(x: x, y: y, kind: curve.kind)
        #expect(
            try fromCoordinates.isValidSignature(
                signature, for: message, algorithm: curve.algorithm)
        )

        // Export makes the EVP key; it is the same key, and verification still works after it.
        let spki = try fromPoint.spkiDER
        let fromSPKI = try PublicKey(spkiDER: spki)
        #expect(fromSPKI.kind == curve.kind)
        #expect(try fromSPKI.spkiDER == spki)
        #expect(try fromSPKI.uncompressedPoint == point)
        #expect(try fromCoordinates.pemRepresentation == fromSPKI.pemRepresentation)
        #expect(fromPoint == fromSPKI)
        #expect(fromCoordinates == fromPoint)
        #expect(try fromPoint.isValidSignature(signature, for: message, algorithm: curve.algorithm))
        #expect(try fromSPKI.isValidSignature(signature, for: message, algorithm: curve.algorithm))

        // Another key is not equal, and does not verify the signature.
        let other = try PrivateKey(generating: curve.kind).publicKey
        #expect(other != fromPoint)
        let otherCurve: KeyKind = curve.kind == .p256 ? .p384 : .p256
        #expect(try PrivateKey(generating: otherCurve).publicKey != fromPoint)
        #expect(try PrivateKey(generating: .ed25519).publicKey != fromCoordinates)
        #expect(try !other.isValidSignature(signature, for: message, algorithm: curve.algorithm))
    }

    /// A SubjectPublicKeyInfo may carry a compressed point; its `EC_KEY` is decompressed by
    /// OpenSSL and verifies like the uncompressed key.
    @Test(arguments: curves) func compressedSPKIKeysVerify(_ curve: Curve) throws {
        let key = try PrivateKey(generating: curve.kind)
        let signature = try key.signature(for: message, algorithm: curve.algorithm)
        let point = try key.publicKey.uncompressedPoint
        let x = point[1...curve.width]
        let yIsOdd = point[point.count - 1] & 1 == 1
        let compressed = Self.spki(curve, point: [yIsOdd ? 0x03 : 0x02] + x)
        let imported = try PublicKey(spkiDER: compressed)
        #expect(try imported.uncompressedPoint == point)
        let expected = try key.publicKey
        #expect(imported == expected)
        #expect(try imported.isValidSignature(signature, for: message, algorithm: curve.algorithm))
        // The other parity is the negated point: a different key.
        let negated = try PublicKey(spkiDER: Self.spki(curve, point: [yIsOdd ? 0x02 : 0x03] + x))
        #expect(try !negated.isValidSignature(signature, for: message, algorithm: curve.algorithm))
    }

    // MARK: Points that must be refused

    @Test(arguments: curves) func rejectsBadPointsOnEveryCurve(_ curve: Curve) throws {
        let point = try PrivateKey(generating: curve.kind).publicKey.uncompressedPoint
        let x = Array(point[1...curve.width])
        let y = Array(point[(1 + curve.width)...])
        var offCurveY = y
        offCurveY[offCurveY.count - 1] ^= 0x01
        let zero = [UInt8](repeating: 0, count: curve.width)
        let ones = [UInt8](repeating: 0xff, count: curve.width)
        // Off the curve, (0, 0), and coordinates that are not field elements (p, all ones).
        for (badX, badY) in [
            (x, offCurveY), (zero, zero), (curve.fieldPrime, y), (x, curve.fieldPrime),
            (ones, y), (x, ones),
        ] {
            expectCryptoError(.invalidPublicKey) {
                try PublicKey(x: badX, y: badY, kind: curve.kind)
            }
            expectCryptoError(.invalidPublicKey) {
                try PublicKey(uncompressedPoint: [0x04] + badX + badY, kind: curve.kind)
            }
            expectCryptoError(.invalidPublicKey) {
                try PublicKey(spkiDER: Self.spki(curve, point: [0x04] + badX + badY))
            }
        }
        // Only the uncompressed form: compressed, hybrid and infinity prefixes are refused even
        // at the uncompressed length.
        for prefix: UInt8 in [0x00, 0x02, 0x03, 0x05, 0x06, 0x07] {
            expectCryptoError(.invalidPublicKey, field: "point") {
                try PublicKey(uncompressedPoint: [prefix] + x + y, kind: curve.kind)
            }
        }
        // Wrong lengths.
        expectCryptoError(.invalidLength, field: "point") {
            try PublicKey(uncompressedPoint: point.dropLast(), kind: curve.kind)
        }
        expectCryptoError(.invalidLength, field: "point") {
            try PublicKey(uncompressedPoint: point + [0], kind: curve.kind)
        }
        expectCryptoError(.invalidLength, field: "point") {
            try PublicKey(uncompressedPoint: [UInt8](), kind: curve.kind)
        }
        expectCryptoError(.invalidLength, field: "x") {
            try PublicKey(x: x.dropFirst(), y: y, kind: curve.kind)
        }
        expectCryptoError(.invalidLength, field: "y") {
            try PublicKey(x: x, y: [0] + y, kind: curve.kind)
        }
    }

    /// On P-521 a 66-byte coordinate can hold x + p, which is the valid x modulo p: OpenSSL must
    /// refuse the non-canonical encoding rather than reduce it.
    @Test func rejectsNonCanonicalP521Coordinates() throws {
        let curve = Self.curves[2]
        let point = try PrivateKey(generating: .p521).publicKey.uncompressedPoint
        let x = Array(point[1...66])
        let y = Array(point[67...])
        _ = try PublicKey(x: x, y: y, kind: .p521)
        let xPlusP = Self.add(x, curve.fieldPrime)
        let yPlusP = Self.add(y, curve.fieldPrime)
        #expect(xPlusP.count == 66 && yPlusP.count == 66)
        expectCryptoError(.invalidPublicKey) { try PublicKey(x: xPlusP, y: y, kind: .p521) }
        expectCryptoError(.invalidPublicKey) { try PublicKey(x: x, y: yPlusP, kind: .p521) }
        expectCryptoError(.invalidPublicKey) {
            try PublicKey(uncompressedPoint: [0x04] + xPlusP + y, kind: .p521)
        }
    }

    // MARK: Signatures that must be refused

    @Test(arguments: curves) func freshKeysRejectNonStrictDERAndOutOfRangeSignatures(
        _ curve: Curve
    ) throws {
        let key = try PrivateKey(generating: curve.kind)
        let point = try key.publicKey.uncompressedPoint
        let fresh = try PublicKey(uncompressedPoint: point, kind: curve.kind)
        let spki = try PublicKey(spkiDER: fresh.spkiDER)
        let der = try key.signature(for: message, algorithm: curve.algorithm)
        let parsed = try ECDSASignature(derRepresentation: der)
        #expect(parsed.derRepresentation == der)
        let r = parsed.r
        let s = parsed.s
        // The SEQUENCE's contents (after a one- or two-byte length).
        let body = Array(der[(der[1] < 0x80 ? 2 : 3)...])
        let rInteger = Self.integer(Self.positive(r))
        let sInteger = Self.integer(Self.positive(s))
        #expect(body == rInteger + sInteger)

        var variants: [(String, [UInt8])] = [
            ("empty", []),
            ("truncated", Array(der.dropLast())),
            ("trailing byte", der + [0]),
            ("r and s swapped", ECDSASignature(r: s, s: r).derRepresentation),
            ("r = 0", Self.sequence(Self.integer([0]) + sInteger)),
            ("s = 0", Self.sequence(rInteger + Self.integer([0]))),
            ("r = n", ECDSASignature(r: curve.order, s: s).derRepresentation),
            ("s = n", ECDSASignature(r: r, s: curve.order).derRepresentation),
            ("r + n", ECDSASignature(r: Self.add(r, curve.order), s: s).derRepresentation),
            ("padded r", Self.sequence(Self.integer([0] + Self.positive(r)) + sInteger)),
            ("raw r ‖ s", try parsed.rawRepresentation(kind: curve.kind)),
            ("indefinite length", [0x30, 0x80] + body + [0, 0]),
            ("non-minimal length", [0x30, 0x82, 0x00, UInt8(body.count)] + body),
            ("SET instead of SEQUENCE", [0x31] + der.dropFirst()),
        ]
        if r.first.map({ $0 & 0x80 != 0 }) == true {
            // r without the 00 that keeps it positive: a negative INTEGER.
            variants.append(("negative r", Self.sequence(Self.integer(r) + sInteger)))
        }

        for publicKey in [fresh, spki] {
            #expect(try publicKey.isValidSignature(der, for: message, algorithm: curve.algorithm))
            for (name, variant) in variants {
                #expect(
                    try !publicKey.isValidSignature(
                        variant, for: message, algorithm: curve.algorithm),
                    "\(curve): \(name) accepted")
            }
            // ECDSA itself accepts (r, n − s); the fast path adds no low-s rule and drops none.
            let highS = ECDSASignature(r: r, s: Self.subtract(curve.order, s)).derRepresentation
            #expect(try publicKey.isValidSignature(highS, for: message, algorithm: curve.algorithm))
        }
        // The curve's own algorithm only.
        let wrong: COSEAlgorithm = curve.algorithm == .es256 ? .es384 : .es256
        expectCryptoError(.algorithmKeyMismatch, field: "alg") {
            try fresh.isValidSignature(der, for: message, algorithm: wrong)
        }
        expectCryptoError(.algorithmKeyMismatch, field: "alg") {
            try fresh.isValidSignature(der, for: message, algorithm: .rs256)
        }
    }

    // MARK: Helpers

    /// A SubjectPublicKeyInfo for `point` (any SEC 1 form) on `curve`.
    static func spki(_ curve: Curve, point: [UInt8]) -> [UInt8] {
        let bitString = [0x03] + length(point.count + 1) + [0x00] + point
        let body = curve.algorithmIdentifier + bitString
        return [0x30] + length(body.count) + body
    }

    static func length(_ count: Int) -> [UInt8] {
        count < 0x80 ? [UInt8(count)] : [0x81, UInt8(count)]
    }

    static func sequence(_ body: [UInt8]) -> [UInt8] { [0x30] + length(body.count) + body }

    /// A DER INTEGER whose content is exactly `content`.
    static func integer(_ content: [UInt8]) -> [UInt8] { [0x02] + length(content.count) + content }

    /// `value` as minimal positive INTEGER content.
    static func positive(_ value: [UInt8]) -> [UInt8] {
        value.first.map { $0 & 0x80 != 0 } == true ? [0] + value : value
    }

    /// Big-endian a + b.
    static func add(_ a: [UInt8], _ b: [UInt8]) -> [UInt8] {
        let count = max(a.count, b.count) + 1
        let a = [UInt8](repeating: 0, count: count - a.count) + a
        let b = [UInt8](repeating: 0, count: count - b.count) + b
        var out = [UInt8](repeating: 0, count: count)
        var carry = 0
        for index in stride(from: count - 1, through: 0, by: -1) {
            let sum = Int(a[index]) + Int(b[index]) + carry
            out[index] = UInt8(sum & 0xff)
            carry = sum >> 8
        }
        return Array(out.drop(while: { $0 == 0 }))
    }

    /// Big-endian a − b for a ≥ b.
    static func subtract(_ a: [UInt8], _ b: [UInt8]) -> [UInt8] {
        let b = [UInt8](repeating: 0, count: a.count - b.count) + b
        var out = [UInt8](repeating: 0, count: a.count)
        var borrow = 0
        for index in stride(from: a.count - 1, through: 0, by: -1) {
            var difference = Int(a[index]) - Int(b[index]) - borrow
            borrow = difference < 0 ? 1 : 0
            if difference < 0 { difference += 256 }
            out[index] = UInt8(difference)
        }
        return Array(out.drop(while: { $0 == 0 }))
    }
}
