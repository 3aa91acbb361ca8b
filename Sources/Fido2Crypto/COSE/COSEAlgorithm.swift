/// A COSE algorithm identifier (`alg`, label 3 of a COSE_Key; IANA "COSE Algorithms"), as used
/// in WebAuthn's `pubKeyCredParams`, attestation statements and credential public keys.
///
/// Any integer can be wrapped (so unknown identifiers such as ML-DSA's -48/-49/-50 can be carried
/// and reported); operations on an algorithm this library does not implement throw
/// ``CryptoError/Code-swift.struct/unsupportedAlgorithm``, never trap.
///
/// Each supported algorithm names its digest explicitly — RS384 hashes with SHA-384, never with
/// SHA-256 — and the key type (and curve) it works with. Following WebAuthn and CTAP2, ES256,
/// ES384 and ES512 are bound to P-256, P-384 and P-521; following RFC 8812, ES256K is bound to
/// secp256k1.
public struct COSEAlgorithm: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
    /// The registered integer value.
    public let rawValue: Int

    /// Wraps any integer.
    public init(rawValue: Int) { self.rawValue = rawValue }

    /// ECDSA with SHA-256 on P-256: -7.
    public static let es256 = COSEAlgorithm(rawValue: -7)
    /// ECDSA with SHA-384 on P-384: -35.
    public static let es384 = COSEAlgorithm(rawValue: -35)
    /// ECDSA with SHA-512 on P-521: -36.
    public static let es512 = COSEAlgorithm(rawValue: -36)
    /// ECDSA with SHA-256 on secp256k1: -47 (RFC 8812 §3.2; the key is EC2 with crv 8).
    public static let es256K = COSEAlgorithm(rawValue: -47)
    /// EdDSA (pure) on Ed25519 or Ed448, the curve coming from the key: -8.
    public static let edDSA = COSEAlgorithm(rawValue: -8)
    /// Pure Ed25519 (fully specified, RFC 9864): -19.
    public static let ed25519 = COSEAlgorithm(rawValue: -19)
    /// Pure Ed448 (fully specified, RFC 9864): -53. The W3C vectors' packed Ed448 case uses it.
    public static let ed448 = COSEAlgorithm(rawValue: -53)
    /// RSASSA-PKCS1-v1_5 with SHA-256: -257.
    public static let rs256 = COSEAlgorithm(rawValue: -257)
    /// RSASSA-PKCS1-v1_5 with SHA-384: -258.
    public static let rs384 = COSEAlgorithm(rawValue: -258)
    /// RSASSA-PKCS1-v1_5 with SHA-512: -259.
    public static let rs512 = COSEAlgorithm(rawValue: -259)
    /// RSASSA-PSS with SHA-256, MGF1-SHA-256, 32-byte salt: -37.
    public static let ps256 = COSEAlgorithm(rawValue: -37)
    /// RSASSA-PSS with SHA-384, MGF1-SHA-384, 48-byte salt: -38.
    public static let ps384 = COSEAlgorithm(rawValue: -38)
    /// RSASSA-PSS with SHA-512, MGF1-SHA-512, 64-byte salt: -39.
    public static let ps512 = COSEAlgorithm(rawValue: -39)
    /// RSASSA-PKCS1-v1_5 with SHA-1: -65535. For verifying old TPM attestations only; signing
    /// with it is refused.
    public static let rs1 = COSEAlgorithm(rawValue: -65535)

    /// How signatures of this algorithm are made, or nil when it is not supported.
    var scheme: SignatureScheme? {
        switch rawValue {
        case -7: .ecdsa(.sha256, curve: .p256)
        case -35: .ecdsa(.sha384, curve: .p384)
        case -36: .ecdsa(.sha512, curve: .p521)
        case -47: .ecdsa(.sha256, curve: .secp256k1)
        case -8: .edDSA(curve: nil)
        case -19: .edDSA(curve: .ed25519)
        case -53: .edDSA(curve: .ed448)
        case -257: .rsaPKCS1(.sha256)
        case -258: .rsaPKCS1(.sha384)
        case -259: .rsaPKCS1(.sha512)
        case -37: .rsaPSS(.sha256)
        case -38: .rsaPSS(.sha384)
        case -39: .rsaPSS(.sha512)
        case -65535: .rsaPKCS1(.sha1)
        default: nil
        }
    }

    /// Whether this library implements the algorithm.
    public var isSupported: Bool { scheme != nil }

    /// Whether new signatures may be made with it (false for RS1 and unsupported algorithms).
    public var isAllowedForSigning: Bool { isSupported && rawValue != Self.rs1.rawValue }

    /// The hash the algorithm applies to the message: nil for EdDSA (pure EdDSA hashes
    /// internally) and for unsupported algorithms.
    public var digest: DigestAlgorithm? {
        switch scheme {
        case .ecdsa(let digest, _), .rsaPKCS1(let digest), .rsaPSS(let digest): digest
        case .edDSA, nil: nil
        }
    }

    /// The COSE key type the algorithm needs, or nil when unsupported.
    public var keyType: COSEKeyType? {
        switch scheme {
        case .ecdsa: .ec2
        case .edDSA: .okp
        case .rsaPKCS1, .rsaPSS: .rsa
        case nil: nil
        }
    }

    /// The curve the algorithm is bound to: P-256/P-384/P-521/secp256k1 for ES256/ES384/ES512/
    /// ES256K, Ed25519 or Ed448 for the fully specified EdDSA identifiers; nil for -8 EdDSA
    /// (either Edwards curve), RSA and unsupported algorithms.
    public var curve: COSECurve? {
        switch scheme {
        case .ecdsa(_, let curve): curve.coseCurve
        case .edDSA(let curve): curve?.coseCurve
        case .rsaPKCS1, .rsaPSS, nil: nil
        }
    }

    /// Whether keys of `kind` can make and check this algorithm's signatures.
    public func isCompatible(with kind: KeyKind) -> Bool {
        switch scheme {
        case .ecdsa(_, let curve): kind == curve
        case .edDSA(let curve): curve.map { kind == $0 } ?? kind.isEdDSA
        case .rsaPKCS1, .rsaPSS: kind.isRSA
        case nil: false
        }
    }

    /// The registry name (`"ES256"`, …) or the number for an unknown algorithm.
    public var description: String {
        switch rawValue {
        case -7: "ES256"
        case -35: "ES384"
        case -36: "ES512"
        case -47: "ES256K"
        case -8: "EdDSA"
        case -19: "Ed25519"
        case -53: "Ed448"
        case -257: "RS256"
        case -258: "RS384"
        case -259: "RS512"
        case -37: "PS256"
        case -38: "PS384"
        case -39: "PS512"
        case -65535: "RS1"
        case -48: "ML-DSA-44"
        case -49: "ML-DSA-65"
        case -50: "ML-DSA-87"
        default: "alg(\(rawValue))"
        }
    }

    /// The algorithm a registry name (`ES256`, `RS1`, …, any case) or a decimal number
    /// (`-7`) names; nil for anything else.
    public init?(name: String) {
        if let number = Int(name) {
            self.init(rawValue: number)
            return
        }
        let known: [COSEAlgorithm] = [
            .es256, .es384, .es512, .es256K, .edDSA, .ed25519, .ed448, .rs256, .rs384, .rs512,
            .ps256, .ps384, .ps512, .rs1, COSEAlgorithm(rawValue: -48),
            COSEAlgorithm(rawValue: -49),
            COSEAlgorithm(rawValue: -50),
        ]
        guard
            let match = known.first(where: {
                $0.description.lowercased() == name.lowercased()
            })
        else { return nil }
        self = match
    }

    /// The scheme, or the "unsupported algorithm" error.
    func requireScheme() throws(CryptoError) -> SignatureScheme {
        guard let scheme else {
            throw CryptoError(
                .unsupportedAlgorithm, "COSE algorithm \(self) is not supported", field: "alg")
        }
        return scheme
    }
}

/// The signature primitive behind a supported ``COSEAlgorithm``.
enum SignatureScheme: Hashable, Sendable {
    case ecdsa(DigestAlgorithm, curve: KeyKind)
    /// Pure EdDSA; `curve` nil accepts either Edwards curve (-8).
    case edDSA(curve: KeyKind?)
    case rsaPKCS1(DigestAlgorithm)
    case rsaPSS(DigestAlgorithm)
}
