/// A COSE key type (`kty`, label 1 of a COSE_Key; IANA "COSE Key Types").
public struct COSEKeyType: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
    /// The registered integer value.
    public let rawValue: Int

    /// Wraps any integer; unknown values are representable so they can be reported.
    public init(rawValue: Int) { self.rawValue = rawValue }

    /// Octet key pair (EdDSA keys): kty 1.
    public static let okp = COSEKeyType(rawValue: 1)
    /// Elliptic curve with x and y coordinates: kty 2.
    public static let ec2 = COSEKeyType(rawValue: 2)
    /// RSA: kty 3.
    public static let rsa = COSEKeyType(rawValue: 3)

    /// The registry name, or the number for an unknown type.
    public var description: String {
        switch rawValue {
        case 1: "OKP"
        case 2: "EC2"
        case 3: "RSA"
        default: "kty(\(rawValue))"
        }
    }
}
