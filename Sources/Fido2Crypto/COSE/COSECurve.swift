/// A COSE elliptic curve (`crv`, label -1 of an EC2 or OKP COSE_Key; IANA "COSE Elliptic
/// Curves").
public struct COSECurve: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
    /// The registered integer value.
    public let rawValue: Int

    /// Wraps any integer; unknown values are representable so they can be reported.
    public init(rawValue: Int) { self.rawValue = rawValue }

    /// NIST P-256 (secp256r1): crv 1.
    public static let p256 = COSECurve(rawValue: 1)
    /// NIST P-384 (secp384r1): crv 2.
    public static let p384 = COSECurve(rawValue: 2)
    /// NIST P-521 (secp521r1): crv 3.
    public static let p521 = COSECurve(rawValue: 3)
    /// Ed25519 (OKP): crv 6.
    public static let ed25519 = COSECurve(rawValue: 6)
    /// Ed448 (OKP): crv 7.
    public static let ed448 = COSECurve(rawValue: 7)
    /// SECG secp256k1 (EC2): crv 8 (RFC 8812 §3.1).
    public static let secp256k1 = COSECurve(rawValue: 8)

    /// The key kind this curve denotes, or nil when this library does not support it (X25519,
    /// X448, brainpool, …).
    public var keyKind: KeyKind? {
        switch rawValue {
        case 1: .p256
        case 2: .p384
        case 3: .p521
        case 6: .ed25519
        case 7: .ed448
        case 8: .secp256k1
        default: nil
        }
    }

    /// The registry name, or the number for an unknown curve.
    public var description: String {
        switch rawValue {
        case 1: "P-256"
        case 2: "P-384"
        case 3: "P-521"
        case 4: "X25519"
        case 5: "X448"
        case 6: "Ed25519"
        case 7: "Ed448"
        case 8: "secp256k1"
        default: "crv(\(rawValue))"
        }
    }
}
