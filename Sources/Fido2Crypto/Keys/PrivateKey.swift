import COpenSSL

/// A private key for signing: P-256, P-384, P-521, Ed25519, Ed448 or RSA.
///
/// A value type over a private class that owns the OpenSSL `EVP_PKEY` and frees it when the last
/// copy goes away; the key never changes after creation, so it can sign from many tasks at once.
/// Private key bytes that pass through our own buffers on the way in or out of OpenSSL are wiped
/// with `OPENSSL_cleanse`; bytes this type returns to you are yours to protect.
///
/// RSA keys are admitted with moduli of 2048–4096 bits; only initializers named `unsafe…` admit
/// other sizes.
public struct PrivateKey: Sendable, CustomStringConvertible {
    let box: PKeyBox

    /// What the key is.
    public var kind: KeyKind { box.kind }

    /// `"PrivateKey(P-256)"` and so on (never key material).
    public var description: String { "PrivateKey(\(kind))" }

    // MARK: Generation

    /// A new random key of `kind`, from OpenSSL's DRBG. EC and EdDSA keys reuse a cached
    /// key-generation context for the curve.
    ///
    /// - Throws: ``CryptoError/Code-swift.struct/keySizeNotAllowed`` for RSA outside 2048–4096
    ///   bits; ``CryptoError/Code-swift.struct/openSSLFailure`` if generation fails.
    public init(generating kind: KeyKind) throws {
        if let bits = kind.modulusBits, !KeyKind.allowedRSAModulusBits.contains(bits) {
            throw CryptoError(
                .keySizeNotAllowed, "RSA-\(bits) is outside 2048...4096; see unsafeGeneratingRSA")
        }
        box = PKeyBox(taking: try KeyGeneration.generate(kind), kind: kind)
    }

    /// A new random RSA key of 1024–16384 bits. Only for tests and interoperability with legacy
    /// systems; keys under 2048 bits are too weak for real use.
    ///
    /// - Throws: ``CryptoError/Code-swift.struct/keySizeNotAllowed`` outside 1024–16384 bits.
    public init(unsafeGeneratingRSAModulusBits bits: Int) throws {
        guard KeyKind.unsafeRSAModulusBits.contains(bits) else {
            throw CryptoError(.keySizeNotAllowed, "RSA-\(bits) is outside 1024...16384")
        }
        box = PKeyBox(
            taking: try KeyGeneration.generate(.rsa(modulusBits: bits)),
            kind: .rsa(modulusBits: bits))
    }

    /// A new EC or EdDSA key drawn from `random`: the EC scalar is drawn by rejection sampling
    /// (redrawn until it is in 1…n−1), the EdDSA key is the raw draw. With a seeded source the
    /// same seed gives the same key.
    ///
    /// - Throws: ``CryptoError/Code-swift.struct/unsupportedOperation`` for RSA (OpenSSL's RSA
    ///   generation cannot take an external random source);
    ///   ``CryptoError/Code-swift.struct/randomGenerationFailed`` if `random` fails.
    public init(generating kind: KeyKind, using random: some RandomSource) throws {
        if let count = kind.rawEdDSAKeyByteCount {
            var seed = try random.bytes(count: count)
            defer { SecureBytes.wipe(&seed) }
            try self.init(rawEdDSAPrivateKey: seed, kind: kind)
            return
        }
        guard kind.isECDSA else {
            throw CryptoError(
                .unsupportedOperation,
                "\(kind) keys cannot be generated from a custom random source")
        }
        let support = try ECCurveSupport.forKind(kind)
        let width = support.coordinateByteCount
        let excessBits = width * 8 - support.orderBitCount
        for _ in 0..<64 {
            var candidate = try random.bytes(count: width)
            defer { SecureBytes.wipe(&candidate) }
            candidate[0] &= UInt8(truncatingIfNeeded: 0xff >> excessBits)
            do {
                self = try PrivateKey(rawScalar: candidate, kind: kind)
                return
            } catch let error as CryptoError where error.code == .invalidPrivateKey {
                continue
            }
        }
        throw CryptoError(.randomGenerationFailed, "random source gave no valid \(kind) scalar")
    }

    // MARK: PKCS#8

    /// Imports an unencrypted PKCS#8 PrivateKeyInfo (RFC 5208) in DER.
    ///
    /// - Throws: ``CryptoError/Code-swift.struct/invalidKeyEncoding`` for malformed or truncated
    ///   DER or trailing bytes; ``CryptoError/Code-swift.struct/unsupportedKeyType`` for other
    ///   algorithms; ``CryptoError/Code-swift.struct/keySizeNotAllowed`` for RSA outside
    ///   2048–4096 bits.
    @inlinable
    public init<C: Collection<UInt8>>(pkcs8DER: C) throws {
        self = try ByteAccess.with(pkcs8DER) { (der) throws(CryptoError) in
            try PrivateKey(pkcs8Buffer: der, allowedRSABits: KeyKind.allowedRSAModulusBits)
        }
    }

    /// Like ``init(pkcs8DER:)`` but admits RSA keys of 1024–16384 bits.
    ///
    /// - Throws: as ``init(pkcs8DER:)``.
    @inlinable
    public init<C: Collection<UInt8>>(unsafePKCS8DER pkcs8DER: C) throws {
        self = try ByteAccess.with(pkcs8DER) { (der) throws(CryptoError) in
            try PrivateKey(pkcs8Buffer: der, allowedRSABits: KeyKind.unsafeRSAModulusBits)
        }
    }

    @usableFromInline
    init(
        pkcs8Buffer der: UnsafeRawBufferPointer, allowedRSABits: ClosedRange<Int>
    )
        throws(CryptoError)
    {
        let key = try KeyEncoding.decodePKCS8(der)
        box = try PKeyBox.adopt(key, allowedRSABits: allowedRSABits)
    }

    /// Imports a PEM `PRIVATE KEY` block (unencrypted PKCS#8).
    ///
    /// - Throws: ``CryptoError/Code-swift.struct/invalidPEM`` when there is no such block, it
    ///   has another label (`ENCRYPTED PRIVATE KEY`, `EC PRIVATE KEY`, …) or headers; otherwise
    ///   as ``init(pkcs8DER:)``.
    public init(pemRepresentation: String) throws {
        let key = try PEMReader.withFirstBlock(pemRepresentation, label: "PRIVATE KEY") {
            (der) throws(CryptoError) in try KeyEncoding.decodePKCS8(der)
        }
        box = try PKeyBox.adopt(key, allowedRSABits: KeyKind.allowedRSAModulusBits)
    }

    /// The key as unencrypted PKCS#8 DER.
    ///
    /// - Throws: ``CryptoError/Code-swift.struct/openSSLFailure`` if OpenSSL cannot encode.
    public var pkcs8DER: [UInt8] {
        get throws { try KeyEncoding.encodePKCS8(box.pointer) }
    }

    /// The key as a PEM `PRIVATE KEY` block (unencrypted PKCS#8). The DER in between is wiped.
    ///
    /// - Throws: ``CryptoError/Code-swift.struct/openSSLFailure`` if OpenSSL cannot encode.
    public var pemRepresentation: String {
        get throws {
            var der = try pkcs8DER
            defer { SecureBytes.wipe(&der) }
            return try KeyEncoding.pem(der, label: "PRIVATE KEY", secret: true)
        }
    }

    // MARK: Public key

    /// The matching public key. For an ECDSA key this reads the point once and defers the
    /// verification key until it is first used.
    ///
    /// - Throws: ``CryptoError/Code-swift.struct/openSSLFailure`` if OpenSSL cannot export it.
    public var publicKey: PublicKey {
        get throws {
            switch kind.storage {
            case .p256, .p384, .p521, .secp256k1:
                let width = 1 + 2 * (kind.coordinateByteCount ?? 0)
                let point = try KeyInspection.encodedPoint(of: box.pointer, capacity: width)
                if point.count == width, point.first == 0x04 {
                    return PublicKey(box: PKeyBox(uncompressedPoint: point, kind: kind))
                }
                // A key imported with a compressed point encodes it compressed: decompress it
                // through an `EC_KEY`.
                let ecKey = try ByteAccess.with(point) { (bytes) throws(CryptoError) in
                    try ECPublicKeyBuilder.ecKey(
                        encodedPoint: bytes, support: ECCurveSupport.forKind(kind))
                }
                return PublicKey(box: PKeyBox(takingECPublicKey: ecKey, kind: kind))
            case .ed25519, .ed448:
                return try PublicKey(
                    rawEdDSAPublicKey: KeyInspection.rawPublicKey(
                        of: box.pointer, count: kind.rawEdDSAKeyByteCount ?? 0), kind: kind)
            case .rsa:
                return try PublicKey(
                    unsafeRSAModulus: KeyInspection.bigNumber("n", of: box.pointer),
                    exponent: KeyInspection.bigNumber("e", of: box.pointer))
            }
        }
    }
}
