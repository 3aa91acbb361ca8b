/// The refusals of an encoded EdDSA public key that OpenSSL's raw-key import does not make:
/// a non-canonical encoding (RFC 8032 §5.1.3 / §5.2.3: y ≥ p, or Ed448's unused bits set) and
/// a point of small order.
///
/// A small-order key verifies forged signatures: for the identity point, R = identity and
/// S = 0 is a valid signature over every message under OpenSSL's cofactorless check. A
/// non-canonical encoding names the same point as a canonical one, so one key would have two
/// encodings (and two credential records). Both are refused before the key exists.
///
/// The small-order points are found by their y coordinate alone, with the sign bit ignored:
/// Ed25519 (cofactor 8) has them at y ∈ {0, 1, p − 1, y₈, p − y₈} (y₈ being the order-8
/// points'); Ed448 (cofactor 4) at y ∈ {0, 1, p − 1}. Mixed-order points (a large-order point
/// plus a small-order one) are not refused: they have no known use in forging WebAuthn
/// signatures, and finding them costs a scalar multiplication per import.
enum EdwardsPublicKeyCheck {
    /// Ed25519's p = 2²⁵⁵ − 19, little-endian.
    private static let ed25519Prime: [UInt8] = [0xed] + [UInt8](repeating: 0xff, count: 30) + [0x7f]
    /// Ed25519's order-8 y coordinates (y₈ and p − y₈), little-endian.
    private static let ed25519OrderEightY: [[UInt8]] = [
        [
            0xc7, 0x17, 0x6a, 0x70, 0x3d, 0x4d, 0xd8, 0x4f, 0xba, 0x3c, 0x0b, 0x76, 0x0d, 0x10,
            0x67, 0x0f, 0x2a, 0x20, 0x53, 0xfa, 0x2c, 0x39, 0xcc, 0xc6, 0x4e, 0xc7, 0xfd, 0x77,
            0x92, 0xac, 0x03, 0x7a,
        ],
        [
            0x26, 0xe8, 0x95, 0x8f, 0xc2, 0xb2, 0x27, 0xb0, 0x45, 0xc3, 0xf4, 0x89, 0xf2, 0xef,
            0x98, 0xf0, 0xd5, 0xdf, 0xac, 0x05, 0xd3, 0xc6, 0x33, 0x39, 0xb1, 0x38, 0x02, 0x88,
            0x6d, 0x53, 0xfc, 0x05,
        ],
    ]
    /// Ed448's p = 2⁴⁴⁸ − 2²²⁴ − 1, little-endian (56 bytes).
    private static let ed448Prime: [UInt8] =
        [UInt8](repeating: 0xff, count: 28) + [0xfe] + [UInt8](repeating: 0xff, count: 27)

    /// Why the raw key `raw` of `kind` (32 or 57 bytes, already of the right length) is
    /// refused, or nil when it is not.
    static func refusal(_ raw: UnsafeRawBufferPointer, kind: KeyKind) -> String? {
        let bytes = Array(raw)
        if kind == .ed25519 {
            guard bytes.count == 32 else { return nil }
            var y = bytes
            y[31] &= 0x7f
            guard isLess(y, than: ed25519Prime) else {
                return "Ed25519 public key is not canonically encoded (y ≥ p)"
            }
            let small =
                isSmall(y, 0) || isSmall(y, 1) || y == minusOne(ed25519Prime)
                || ed25519OrderEightY.contains(y)
            return small ? "Ed25519 public key is a point of small order" : nil
        }
        if kind == .ed448 {
            guard bytes.count == 57 else { return nil }
            guard bytes[56] & 0x7f == 0 else {
                return
                    "Ed448 public key is not canonically encoded (unused bits of the last byte set)"
            }
            let y = Array(bytes[0..<56])
            guard isLess(y, than: ed448Prime) else {
                return "Ed448 public key is not canonically encoded (y ≥ p)"
            }
            let small = isSmall(y, 0) || isSmall(y, 1) || y == minusOne(ed448Prime)
            return small ? "Ed448 public key is a point of small order" : nil
        }
        return nil
    }

    /// Whether little-endian `value` is below little-endian `bound` (equal lengths).
    private static func isLess(_ value: [UInt8], than bound: [UInt8]) -> Bool {
        for index in stride(from: value.count - 1, through: 0, by: -1)
        where value[index] != bound[index] {
            return value[index] < bound[index]
        }
        return false
    }

    /// Whether little-endian `value` is the small integer `small`.
    private static func isSmall(_ value: [UInt8], _ small: UInt8) -> Bool {
        value.first == small && value.dropFirst().allSatisfy { $0 == 0 }
    }

    /// `prime` − 1, little-endian (its lowest byte is odd, so no borrow).
    private static func minusOne(_ prime: [UInt8]) -> [UInt8] {
        var value = prime
        value[0] -= 1
        return value
    }
}
