/// How an ECDSA signature's per-signature secret k is chosen.
public struct ECDSANonce: Hashable, Sendable, CustomStringConvertible {
    private enum Kind: Hashable, Sendable {
        case random, deterministic
    }

    private let kind: Kind
    /// The rule for RSASSA-PSS salts, or nil for OpenSSL's random salt.
    package let pssSalt: PSSSalt?

    private init(_ kind: Kind, pssSalt: PSSSalt? = nil) {
        self.kind = kind
        self.pssSalt = pssSalt
    }

    /// OpenSSL's own signing: k from its DRBG (mixed with the key and message in OpenSSL 3).
    /// Signatures differ on every call. The default, and the fastest path.
    public static let random = ECDSANonce(.random)

    /// RFC 6979 deterministic k (HMAC-DRBG over the private key and the message hash, with the
    /// algorithm's own hash): the same key and message always give the same signature. This is
    /// what reproduces the W3C WebAuthn test vectors. The signature is plain RFC 6979 output;
    /// no low-s normalisation is applied. RSASSA-PSS has no standard deterministic salt: PSS
    /// signatures made with it keep OpenSSL's random salt.
    public static let deterministic = ECDSANonce(.deterministic)

    /// RFC 6979 for ECDSA, as ``deterministic``, and PSS salts made by `pssSalt`.
    package static func deterministic(pssSalt: PSSSalt) -> ECDSANonce {
        ECDSANonce(.deterministic, pssSalt: pssSalt)
    }

    var isDeterministic: Bool { kind == .deterministic }

    /// `"random"` or `"deterministic"`.
    public var description: String { kind == .random ? "random" : "deterministic" }
}
