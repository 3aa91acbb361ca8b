/// How an ECDSA signature's per-signature secret k is chosen.
public struct ECDSANonce: Hashable, Sendable, CustomStringConvertible {
    private enum Kind: Hashable, Sendable {
        case random, deterministic
    }

    private let kind: Kind
    private init(_ kind: Kind) { self.kind = kind }

    /// OpenSSL's own signing: k from its DRBG (mixed with the key and message in OpenSSL 3).
    /// Signatures differ on every call. The default, and the fastest path.
    public static let random = ECDSANonce(.random)

    /// RFC 6979 deterministic k (HMAC-DRBG over the private key and the message hash, with the
    /// algorithm's own hash): the same key and message always give the same signature. This is
    /// what reproduces the W3C WebAuthn test vectors. The signature is plain RFC 6979 output;
    /// no low-s normalisation is applied. RSASSA-PSS signatures made with it are reproducible
    /// too: their salt is HMAC(d, H(m)) with the algorithm's hash instead of a random draw.
    public static let deterministic = ECDSANonce(.deterministic)

    var isDeterministic: Bool { kind == .deterministic }

    /// `"random"` or `"deterministic"`.
    public var description: String { kind == .random ? "random" : "deterministic" }
}
