import COpenSSL

extension PrivateKey {
    // MARK: EC scalar

    /// Imports an ECDSA private key from its scalar d as a big-endian integer of at most the
    /// curve's coordinate size (the W3C vectors give P-521 scalars as 65-byte draws). The public
    /// point d·G is computed with OpenSSL's `EC_POINT_mul`.
    ///
    /// - Throws: ``CryptoError/Code-swift.struct/invalidLength`` for an empty or over-long
    ///   scalar; ``CryptoError/Code-swift.struct/invalidPrivateKey`` when d is 0 or not below
    ///   the group order; ``CryptoError/Code-swift.struct/unsupportedKeyType`` when `kind` is
    ///   not an ECDSA curve.
    @inlinable
    public init<C: Collection<UInt8>>(rawScalar: C, kind: KeyKind) throws {
        self = try ByteAccess.with(rawScalar) { (scalar) throws(CryptoError) in
            try PrivateKey(rawScalarBuffer: scalar, kind: kind)
        }
    }

    @usableFromInline
    init(rawScalarBuffer rawScalar: UnsafeRawBufferPointer, kind: KeyKind) throws(CryptoError) {
        let support = try ECCurveSupport.forKind(kind)
        guard (1...support.coordinateByteCount).contains(rawScalar.count) else {
            throw CryptoError(
                .invalidLength,
                "\(kind) scalar must be 1...\(support.coordinateByteCount) bytes, not \(rawScalar.count)",
                field: "d")
        }
        let scalar = try BigNumber.make(rawScalar, secure: true)
        defer { BN_clear_free(scalar) }
        BN_set_flags(scalar, BN_FLG_CONSTTIME)
        guard BN_is_zero(scalar) == 0, BN_cmp(scalar, support.order) < 0 else {
            throw CryptoError(
                .invalidPrivateKey, "\(kind) scalar must be in 1...n-1", field: "d")
        }
        let key = try ECKeyBuilder.keyPair(scalar: scalar, support: support)
        self.init(box: PKeyBox(taking: key, kind: kind))
    }

    /// The ECDSA private scalar d, big-endian, left-padded to the coordinate size (32, 48 or 66
    /// bytes).
    ///
    /// - Throws: ``CryptoError/Code-swift.struct/unsupportedKeyType`` for non-ECDSA keys.
    public var rawScalar: [UInt8] {
        get throws {
            guard let width = kind.coordinateByteCount else {
                throw CryptoError(.unsupportedKeyType, "\(kind) is not an ECDSA key")
            }
            return try KeyInspection.bigNumber("priv", of: box.pointer, width: width)
        }
    }

    // MARK: RSA

    /// The RSA private exponent d, big-endian, left-padded to the modulus size: what
    /// deterministic PSS salts (``PSSSalt``) are keyed with.
    ///
    /// - Throws: ``CryptoError/Code-swift.struct/unsupportedKeyType`` for non-RSA keys;
    ///   ``CryptoError/Code-swift.struct/openSSLFailure`` if OpenSSL does not give it.
    package var rsaPrivateExponent: [UInt8] {
        get throws(CryptoError) {
            guard kind.isRSA else {
                throw CryptoError(.unsupportedKeyType, "\(kind) is not an RSA key")
            }
            let key = try box.pointer
            return try KeyInspection.bigNumber("d", of: key, width: Int(EVP_PKEY_get_size(key)))
        }
    }

    // MARK: EdDSA

    /// Imports a raw EdDSA private key (RFC 8032: the 32-byte Ed25519 or 57-byte Ed448 seed).
    ///
    /// - Throws: ``CryptoError/Code-swift.struct/invalidLength`` for the wrong length;
    ///   ``CryptoError/Code-swift.struct/unsupportedKeyType`` when `kind` is not an Edwards
    ///   curve.
    @inlinable
    public init<C: Collection<UInt8>>(rawEdDSAPrivateKey: C, kind: KeyKind) throws {
        self = try ByteAccess.with(rawEdDSAPrivateKey) { (raw) throws(CryptoError) in
            try PrivateKey(rawEdDSABuffer: raw, kind: kind)
        }
    }

    @usableFromInline
    init(
        rawEdDSABuffer rawEdDSAPrivateKey: UnsafeRawBufferPointer, kind: KeyKind
    )
        throws(CryptoError)
    {
        guard let count = kind.rawEdDSAKeyByteCount else {
            throw CryptoError(.unsupportedKeyType, "\(kind) is not an EdDSA curve")
        }
        guard rawEdDSAPrivateKey.count == count else {
            throw CryptoError(
                .invalidLength,
                "\(kind) private key must be \(count) bytes, not \(rawEdDSAPrivateKey.count)",
                field: "d")
        }
        let name = kind == .ed25519 ? CName("ED25519") : CName("ED448")
        let key = EVP_PKEY_new_raw_private_key_ex(
            nil, name.pointer, nil,
            rawEdDSAPrivateKey.baseAddress?.assumingMemoryBound(to: UInt8.self),
            rawEdDSAPrivateKey.count)
        guard let key else {
            throw CryptoError.openSSL(.invalidPrivateKey, "\(kind) private key refused")
        }
        self.init(box: PKeyBox(taking: key, kind: kind))
    }

    /// The raw EdDSA private key (32 or 57 bytes).
    ///
    /// - Throws: ``CryptoError/Code-swift.struct/unsupportedKeyType`` for non-EdDSA keys.
    public var rawEdDSAPrivateKey: [UInt8] {
        get throws {
            guard let count = kind.rawEdDSAKeyByteCount else {
                throw CryptoError(.unsupportedKeyType, "\(kind) is not an EdDSA key")
            }
            let key = try box.pointer
            var length = count
            var ok = false
            let out = [UInt8](unsafeUninitializedCapacity: count) { buffer, initialized in
                ok =
                    EVP_PKEY_get_raw_private_key(key, buffer.baseAddress, &length) == 1
                    && length == count
                initialized = ok ? count : 0
            }
            guard ok else { throw CryptoError.openSSL("cannot read the raw private key") }
            return out
        }
    }

    // MARK: RSA

    /// Builds an RSA private key from its primes p and q and public exponent e (big-endian):
    /// n = p·q, d = e⁻¹ mod lcm(p−1, q−1), dP = d mod (p−1), dQ = d mod (q−1),
    /// qInv = q⁻¹ mod p, all with OpenSSL `BN` arithmetic. The W3C vectors' RSA key is
    /// p = 2¹²⁷⁹−1, q = 2²²⁰³−1, e = 65537.
    ///
    /// - Throws: ``CryptoError/Code-swift.struct/invalidPrivateKey`` when p or q is not prime,
    ///   p = q, or e is not invertible; ``CryptoError/Code-swift.struct/keySizeNotAllowed`` when
    ///   n is outside 2048–4096 bits.
    @inlinable
    public init<P: Collection<UInt8>, Q: Collection<UInt8>, E: Collection<UInt8>>(
        rsaPrimeP: P, primeQ: Q, publicExponent: E
    ) throws {
        self = try ByteAccess.with(rsaPrimeP) { (p) throws(CryptoError) in
            try ByteAccess.with(primeQ) { (q) throws(CryptoError) in
                try ByteAccess.with(publicExponent) { (e) throws(CryptoError) in
                    try PrivateKey(rsaPrimeBuffers: p, q, e)
                }
            }
        }
    }

    @usableFromInline
    init(
        rsaPrimeBuffers p: UnsafeRawBufferPointer, _ q: UnsafeRawBufferPointer,
        _ e: UnsafeRawBufferPointer
    ) throws(CryptoError) {
        self.init(
            box: try RSAKeyBuilder.fromPrimes(
                p: p, q: q, e: e, allowed: KeyKind.allowedRSAModulusBits))
    }

    init(box: PKeyBox) { self.box = box }
}
