import Fido2Encoding

extension PublicKey {
    /// Imports a public JSON Web Key (RFC 7517/7518, RFC 8037 for OKP): kty `EC` (P-256, P-384,
    /// P-521), `OKP` (Ed25519, Ed448) or `RSA`. `kid`, `use` and `key_ops` are ignored; an
    /// `alg`, when present, must fit the key.
    ///
    /// - Throws: ``CryptoError/Code-swift.struct/invalidJWK`` for a value that is not an object,
    ///   a member of the wrong type, padded or malformed base64url, a non-minimal RSA integer, or
    ///   private members (`d`); ``CryptoError/Code-swift.struct/missingMember`` for an absent
    ///   kty, crv, x, y, n or e; ``CryptoError/Code-swift.struct/unsupportedKeyType`` for other
    ///   key types and curves; ``CryptoError/Code-swift.struct/unsupportedAlgorithm`` or
    ///   ``CryptoError/Code-swift.struct/algorithmKeyMismatch`` for an `alg` that is unknown or
    ///   does not fit; otherwise as the component initializers (wrong coordinate length,
    ///   point off the curve, RSA outside 2048–4096 bits).
    public init(jwk: JSONValue) throws {
        self = try JWKCodec.publicKey(JWKCodec.Members(jwk))
    }

    /// Imports a public JWK from its JSON text; see ``init(jwk:)``.
    ///
    /// - Throws: ``CryptoError/Code-swift.struct/invalidJWK`` for malformed JSON; otherwise as
    ///   ``init(jwk:)``.
    public init(jwkRepresentation: String) throws {
        self = try JWKCodec.publicKey(JWKCodec.members(of: jwkRepresentation))
    }

    /// The key as a public JWK, members in lexicographic order, with `alg` when given.
    ///
    /// - Throws: ``CryptoError/Code-swift.struct/unsupportedAlgorithm`` or
    ///   ``CryptoError/Code-swift.struct/algorithmKeyMismatch`` for an `algorithm` without a
    ///   JOSE name or that does not fit the key.
    public func jwk(algorithm: COSEAlgorithm? = nil) throws -> JSONValue {
        try JWKCodec.object(JWKCodec.publicMembers(self), algorithm: algorithm, kind: kind)
    }

    /// The public JWK as compact JSON text.
    ///
    /// - Throws: as ``jwk(algorithm:)``.
    public func jwkRepresentation(algorithm: COSEAlgorithm? = nil) throws -> String {
        String(decoding: try jwk(algorithm: algorithm).serialized(), as: UTF8.self)
    }

    /// The RFC 7638 JWK thumbprint: SHA-256 of the required public members in lexicographic
    /// order without whitespace (base64url-encode it for a `kid` or `jkt`).
    ///
    /// - Throws: ``CryptoError/Code-swift.struct/openSSLFailure`` if OpenSSL fails.
    public var jwkThumbprint: [UInt8] {
        get throws {
            DigestAlgorithm.sha256.hash(try jwk().serialized())
        }
    }
}
