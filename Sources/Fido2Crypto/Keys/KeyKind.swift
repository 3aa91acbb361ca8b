/// What a key is: an ECDSA curve (P-256, P-384, P-521, secp256k1), an Edwards curve (Ed25519, Ed448), or
/// RSA with its modulus size.
public struct KeyKind: Hashable, Sendable, CustomStringConvertible {
    enum Storage: Hashable, Sendable {
        case p256, p384, p521, secp256k1, ed25519, ed448
        case rsa(bits: Int)
    }

    let storage: Storage

    init(_ storage: Storage) { self.storage = storage }

    /// NIST P-256 (secp256r1, prime256v1) for ECDSA.
    public static let p256 = KeyKind(.p256)
    /// NIST P-384 (secp384r1) for ECDSA.
    public static let p384 = KeyKind(.p384)
    /// NIST P-521 (secp521r1) for ECDSA.
    public static let p521 = KeyKind(.p521)
    /// SEC 2 secp256k1 (the Koblitz curve) for ECDSA: ES256K (RFC 8812).
    public static let secp256k1 = KeyKind(.secp256k1)
    /// Ed25519 for EdDSA.
    public static let ed25519 = KeyKind(.ed25519)
    /// Ed448 for EdDSA.
    public static let ed448 = KeyKind(.ed448)
    /// RSA with a modulus of `modulusBits` bits.
    public static func rsa(modulusBits: Int) -> KeyKind { KeyKind(.rsa(bits: modulusBits)) }

    /// The RSA sizes the ordinary initializers admit; smaller (or larger) keys need an
    /// initializer whose name starts with `unsafe`.
    public static let allowedRSAModulusBits = 2048...4096
    /// The RSA sizes the `unsafe` initializers admit.
    public static let unsafeRSAModulusBits = 1024...16384

    /// Whether this is an RSA key.
    public var isRSA: Bool {
        if case .rsa = storage { return true }
        return false
    }

    /// Whether this is an ECDSA curve (P-256, P-384, P-521, secp256k1).
    public var isECDSA: Bool { coordinateByteCount != nil }

    /// Whether this is an Edwards curve (Ed25519, Ed448).
    public var isEdDSA: Bool { self == .ed25519 || self == .ed448 }

    /// The RSA modulus size in bits, or nil for curves.
    public var modulusBits: Int? {
        if case .rsa(let bits) = storage { return bits }
        return nil
    }

    /// The byte length of one coordinate (and of the private scalar and of r and s) of an ECDSA
    /// curve: 32, 48 or 66; nil for other kinds.
    public var coordinateByteCount: Int? {
        switch storage {
        case .p256, .secp256k1: 32
        case .p384: 48
        case .p521: 66
        default: nil
        }
    }

    /// The byte length of a raw EdDSA public or private key: 32 (Ed25519) or 57 (Ed448); nil
    /// for other kinds.
    public var rawEdDSAKeyByteCount: Int? {
        switch storage {
        case .ed25519: 32
        case .ed448: 57
        default: nil
        }
    }

    /// The COSE key type of keys of this kind.
    public var coseKeyType: COSEKeyType {
        switch storage {
        case .p256, .p384, .p521, .secp256k1: .ec2
        case .ed25519, .ed448: .okp
        case .rsa: .rsa
        }
    }

    /// The COSE curve of this kind, or nil for RSA.
    public var coseCurve: COSECurve? {
        switch storage {
        case .p256: .p256
        case .p384: .p384
        case .p521: .p521
        case .secp256k1: .secp256k1
        case .ed25519: .ed25519
        case .ed448: .ed448
        case .rsa: nil
        }
    }

    /// A short name: `"P-256"`, `"Ed25519"`, `"RSA-2048"`, ….
    public var description: String {
        switch storage {
        case .p256: "P-256"
        case .p384: "P-384"
        case .p521: "P-521"
        case .secp256k1: "secp256k1"
        case .ed25519: "Ed25519"
        case .ed448: "Ed448"
        case .rsa(let bits): "RSA-\(bits)"
        }
    }
}
