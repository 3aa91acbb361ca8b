import Fido2Encoding

extension PrivateKey {
    /// Imports a private JSON Web Key: EC (`d` plus `x`, `y`), OKP (`d` plus `x`) or RSA (`n`,
    /// `e`, `d`, and either all or none of `p`, `q`, `dp`, `dq`, `qi`). The public members must
    /// match the private key; an `alg`, when present, must fit the key.
    ///
    /// - Throws: ``CryptoError/Code-swift.struct/missingMember`` when `d` or another required
    ///   member is absent (or only some RSA CRT members are present);
    ///   ``CryptoError/Code-swift.struct/invalidPrivateKey`` when the public members (or p·q)
    ///   do not match; ``CryptoError/Code-swift.struct/invalidLength`` for an EC `d` that is not
    ///   exactly the curve's size; ``CryptoError/Code-swift.struct/unsupportedKeyType`` for
    ///   multi-prime RSA (`oth`); otherwise as ``PublicKey/init(jwk:)``.
    public init(jwk: JSONValue) throws {
        self = try JWKCodec.privateKey(JWKCodec.Members(jwk))
    }

    /// Imports a private JWK from its JSON text; see ``init(jwk:)``.
    ///
    /// - Throws: ``CryptoError/Code-swift.struct/invalidJWK`` for malformed JSON; otherwise as
    ///   ``init(jwk:)``.
    public init(jwkRepresentation: String) throws {
        self = try JWKCodec.privateKey(JWKCodec.members(of: jwkRepresentation))
    }

    /// The key as a private JWK (public members plus `d`, and for RSA the CRT members), in
    /// lexicographic order, with `alg` when given. The result holds the private key: protect it.
    ///
    /// - Throws: as ``PublicKey/jwk(algorithm:)``.
    public func jwk(algorithm: COSEAlgorithm? = nil) throws -> JSONValue {
        try JWKCodec.object(JWKCodec.privateMembers(self), algorithm: algorithm, kind: kind)
    }

    /// The private JWK as compact JSON text. The intermediate UTF-8 buffer is wiped.
    ///
    /// - Throws: as ``PublicKey/jwk(algorithm:)``.
    public func jwkRepresentation(algorithm: COSEAlgorithm? = nil) throws -> String {
        var bytes = try jwk(algorithm: algorithm).serialized()
        defer { SecureBytes.wipe(&bytes) }
        return String(decoding: bytes, as: UTF8.self)
    }
}
