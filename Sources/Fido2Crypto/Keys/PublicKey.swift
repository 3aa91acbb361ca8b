import COpenSSL

/// A public key for verifying signatures: P-256, P-384, P-521, Ed25519, Ed448 or RSA.
///
/// A value type over a private class that owns the OpenSSL `EVP_PKEY`; copies share it, and
/// because the key never changes after creation it can be used from many tasks at once.
///
/// RSA keys are admitted with moduli of 2048–4096 bits (``KeyKind/allowedRSAModulusBits``); the
/// initializers named `unsafe…` also admit 1024–16384 bits for legacy data.
public struct PublicKey: Sendable, Equatable, CustomStringConvertible {
    let box: PKeyBox

    init(box: PKeyBox) { self.box = box }

    /// What the key is.
    public var kind: KeyKind { box.kind }

    /// `"PublicKey(P-256)"` and so on (never key material).
    public var description: String { "PublicKey(\(kind))" }

    /// Whether the two keys are the same key: for ECDSA keys the same curve and point, for
    /// others OpenSSL's `EVP_PKEY_eq`.
    public static func == (lhs: PublicKey, rhs: PublicKey) -> Bool {
        if lhs.box === rhs.box { return true }
        if lhs.kind.isECDSA, rhs.kind.isECDSA {
            // The uncompressed encoding is canonical; comparing it needs no `EVP_PKEY`.
            guard lhs.kind == rhs.kind, let leftPoint = try? lhs.uncompressedPoint,
                let rightPoint = try? rhs.uncompressedPoint
            else { return false }
            return leftPoint == rightPoint
        }
        if lhs.kind.isRSA, rhs.kind.isRSA, let left = lhs.box.rsaNumbers,
            let right = rhs.box.rsaNumbers
        {
            // Both made from their components (plain rsaEncryption keys), kept without leading
            // zeros: equal numbers are equal keys, and no `EVP_PKEY` needs making.
            return left.modulus == right.modulus && left.exponent == right.exponent
        }
        guard let left = try? lhs.box.pointer, let right = try? rhs.box.pointer else {
            return false
        }
        let equal = EVP_PKEY_eq(left, right) == 1
        OpenSSLErrorQueue.clear()
        return equal
    }

    // MARK: SubjectPublicKeyInfo

    /// Imports a DER SubjectPublicKeyInfo (RFC 5280), as found in certificates and
    /// `getPublicKey()`. EC points may be compressed or uncompressed; the whole input must be
    /// one SubjectPublicKeyInfo.
    ///
    /// - Throws: ``CryptoError/Code-swift.struct/invalidKeyEncoding`` for malformed or truncated
    ///   DER or trailing bytes; ``CryptoError/Code-swift.struct/invalidPublicKey`` for an EC
    ///   point off the curve or at infinity; ``CryptoError/Code-swift.struct/unsupportedKeyType``
    ///   for other algorithms and curves; ``CryptoError/Code-swift.struct/keySizeNotAllowed``
    ///   for RSA moduli outside 2048–4096 bits.
    @inlinable
    public init<C: Collection<UInt8>>(spkiDER: C) throws {
        self = try ByteAccess.with(spkiDER) { (der) throws(CryptoError) in
            try PublicKey(spkiBuffer: der, allowedRSABits: KeyKind.allowedRSAModulusBits)
        }
    }

    /// Like ``init(spkiDER:)`` but admits RSA moduli of 1024–16384 bits. Only for verifying
    /// legacy data whose key size you cannot choose.
    ///
    /// - Throws: as ``init(spkiDER:)``.
    @inlinable
    public init<C: Collection<UInt8>>(unsafeSPKIDER spkiDER: C) throws {
        self = try ByteAccess.with(spkiDER) { (der) throws(CryptoError) in
            try PublicKey(spkiBuffer: der, allowedRSABits: KeyKind.unsafeRSAModulusBits)
        }
    }

    @usableFromInline
    init(
        spkiBuffer der: UnsafeRawBufferPointer, allowedRSABits: ClosedRange<Int>
    )
        throws(CryptoError)
    {
        if let key = try PublicKey.decoderFree(der, allowedRSABits: allowedRSABits) {
            self = key
            return
        }
        let key = try KeyEncoding.decodeSPKI(der)
        box = try PKeyBox.adoptPublicKey(key, allowedRSABits: allowedRSABits)
    }

    /// The key of a SubjectPublicKeyInfo in one of the encodings imported without OpenSSL's
    /// decoder (EC and EdDSA fixed headers, rsaEncryption with RSA moduli of
    /// ``KeyKind/unsafeRSAModulusBits``); nil for any other encoding or a key refused.
    init?(decoderFreeSPKI der: UnsafeRawBufferPointer) {
        guard
            let key = try? PublicKey.decoderFree(der, allowedRSABits: KeyKind.unsafeRSAModulusBits)
        else { return nil }
        self = key
    }

    /// The key of `der` read without OpenSSL's decoder, or nil when `der` is not in such an
    /// encoding or its RSA components are refused (OpenSSL's decoder then has the last word).
    /// The one encoding browsers and certificates use for EC and EdDSA keys is imported like a
    /// COSE key, rsaEncryption from its components like a COSE RSA key: OpenSSL's decoder set-up
    /// costs more than the rest of a key import.
    ///
    /// - Throws: what the point or raw-key import throws for a fixed EC or EdDSA encoding.
    private static func decoderFree(
        _ der: UnsafeRawBufferPointer, allowedRSABits: ClosedRange<Int>
    ) throws(CryptoError) -> PublicKey? {
        if let (kind, key) = KeyEncoding.fixedSPKI(der) {
            return try kind.isECDSA
                ? PublicKey(pointBuffer: key, kind: kind)
                : PublicKey(rawEdDSABuffer: key, kind: kind)
        }
        guard let (modulus, exponent) = KeyEncoding.rsaComponents(ofSPKI: der) else { return nil }
        return try? PublicKey(rsaComponents: modulus, exponent, allowed: allowedRSABits)
    }

    /// Whether `der` is in one of the encodings ``init(decoderFreeSPKI:)`` reads, with RSA
    /// components it accepts; an EC point may still be off its curve.
    static func isDecoderFreeSPKI(_ der: UnsafeRawBufferPointer) -> Bool {
        if KeyEncoding.fixedSPKI(der) != nil { return true }
        guard let (modulus, exponent) = KeyEncoding.rsaComponents(ofSPKI: der) else {
            return false
        }
        return modulus.withUnsafeBytes { n in
            exponent.withUnsafeBytes { e in
                rsaComponentsRefusal(n, e, allowed: KeyKind.unsafeRSAModulusBits) == nil
            }
        }
    }

    /// Why an RSA public key with big-endian unsigned `modulus` and `exponent` is refused, or
    /// nil: a size outside `allowed`, an even modulus, an exponent that is even, below 3 or not
    /// below the modulus. On the bytes, so a caller can ask before building anything.
    static func rsaComponentsRefusal(
        _ modulus: UnsafeRawBufferPointer, _ exponent: UnsafeRawBufferPointer,
        allowed: ClosedRange<Int>
    ) -> CryptoError? {
        guard modulus.count <= 2048, exponent.count <= 2048 else {
            return CryptoError(.keySizeNotAllowed, "RSA modulus or exponent is too long")
        }
        let n = modulus.drop { $0 == 0 }
        let e = exponent.drop { $0 == 0 }
        let bits = significantBits(n)
        guard allowed.contains(bits) else {
            return CryptoError(
                .keySizeNotAllowed,
                "RSA modulus of \(bits) bits is outside \(allowed.lowerBound)...\(allowed.upperBound)",
                field: "n")
        }
        guard let low = n.last, low & 1 == 1 else {
            return CryptoError(.invalidPublicKey, "RSA modulus is even", field: "n")
        }
        let eBelowN = e.count < n.count || (e.count == n.count && e.lexicographicallyPrecedes(n))
        guard let eLow = e.last, eLow & 1 == 1, e.count > 1 || eLow >= 3, eBelowN else {
            return CryptoError(
                .invalidPublicKey, "RSA public exponent must be odd, at least 3 and below n",
                field: "e")
        }
        return nil
    }

    /// The bit length of a big-endian unsigned integer whose leading zero bytes are dropped.
    private static func significantBits<Bytes: Collection<UInt8>>(_ bytes: Bytes) -> Int {
        bytes.first.map { bytes.count * 8 - $0.leadingZeroBitCount } ?? 0
    }

    private init(
        rsaComponents modulus: ArraySlice<UInt8>, _ exponent: ArraySlice<UInt8>,
        allowed: ClosedRange<Int>
    ) throws(CryptoError) {
        self = try ByteAccess.with(modulus) { (n) throws(CryptoError) in
            try ByteAccess.with(exponent) { (e) throws(CryptoError) in
                try PublicKey(rsaBuffers: n, e, allowed: allowed)
            }
        }
    }

    /// Imports a PEM `PUBLIC KEY` block (a SubjectPublicKeyInfo).
    ///
    /// - Throws: ``CryptoError/Code-swift.struct/invalidPEM`` when the text holds no PEM block
    ///   or one with another label; otherwise as ``init(spkiDER:)``.
    public init(pemRepresentation: String) throws {
        let key = try PEMReader.withFirstBlock(pemRepresentation, label: "PUBLIC KEY") {
            (der) throws(CryptoError) in try KeyEncoding.decodeSPKI(der)
        }
        box = try PKeyBox.adoptPublicKey(key, allowedRSABits: KeyKind.allowedRSAModulusBits)
    }

    /// The DER SubjectPublicKeyInfo (EC points uncompressed, named curve).
    ///
    /// For ECDSA and EdDSA keys the encoding is a fixed header and the key's bytes, written
    /// here without OpenSSL's encoders: a key imported from a COSE point would otherwise build
    /// its `EVP_PKEY` and an encoder only for this (about 140 µs, most of a registration's
    /// cost when the response carries `publicKey`). RSA keys are encoded by OpenSSL.
    ///
    /// - Throws: ``CryptoError/Code-swift.struct/openSSLFailure`` if OpenSSL cannot encode.
    public var spkiDER: [UInt8] {
        get throws {
            if let header = KeyEncoding.spkiHeader(for: kind) {
                let key = kind.isECDSA ? try uncompressedPoint : try rawEdDSAPublicKey
                return header + key
            }
            return try KeyEncoding.encodeSPKI(box.pointer)
        }
    }

    /// The key as a PEM `PUBLIC KEY` block.
    ///
    /// - Throws: ``CryptoError/Code-swift.struct/openSSLFailure`` if OpenSSL cannot encode.
    public var pemRepresentation: String {
        get throws {
            try KeyEncoding.pem(spkiDER, label: "PUBLIC KEY", secret: false)
        }
    }

    // MARK: EC points

    /// Imports an uncompressed SEC 1 point `04 ‖ x ‖ y` on an ECDSA curve.
    ///
    /// OpenSSL checks that the point lies on the curve. The key is built on the curve's cached
    /// group and verifies without further set-up; the OpenSSL `EVP_PKEY` that SPKI and PEM
    /// export use is made only when first needed, so a key imported to verify one signature
    /// costs little more than the verification.
    ///
    /// - Throws: ``CryptoError/Code-swift.struct/invalidLength`` when the length is not
    ///   1 + 2 × the coordinate size; ``CryptoError/Code-swift.struct/invalidPublicKey`` when the
    ///   first byte is not 04 or the point is not on the curve;
    ///   ``CryptoError/Code-swift.struct/unsupportedKeyType`` when `kind` is not an ECDSA curve.
    @inlinable
    public init<C: Collection<UInt8>>(uncompressedPoint: C, kind: KeyKind) throws {
        self = try ByteAccess.with(uncompressedPoint) { (point) throws(CryptoError) in
            try PublicKey(pointBuffer: point, kind: kind)
        }
    }

    @usableFromInline
    init(pointBuffer point: UnsafeRawBufferPointer, kind: KeyKind) throws(CryptoError) {
        let support = try ECCurveSupport.forKind(kind)
        let expected = 1 + 2 * support.coordinateByteCount
        guard point.count == expected else {
            throw CryptoError(
                .invalidLength,
                "\(kind) uncompressed point must be \(expected) bytes, not \(point.count)",
                field: "point")
        }
        box = PKeyBox(
            takingECPublicKey: try ECPublicKeyBuilder.ecKey(
                uncompressedPoint: point, support: support),
            kind: kind)
    }

    /// Imports an ECDSA public key from its affine coordinates (big-endian, each exactly the
    /// curve's coordinate size, leading zeros kept, as COSE and JWK carry them).
    ///
    /// - Throws: ``CryptoError/Code-swift.struct/invalidLength`` when a coordinate has the wrong
    ///   length (field `x` or `y`); ``CryptoError/Code-swift.struct/invalidPublicKey`` when the
    ///   point is not on the curve; ``CryptoError/Code-swift.struct/unsupportedKeyType`` when
    ///   `kind` is not an ECDSA curve.
    @inlinable
    public init<X: Collection<UInt8>, Y: Collection<UInt8>>(
        x: X, y: Y, kind: KeyKind
    )
        throws
    {
        self = try ByteAccess.with(x) { (x) throws(CryptoError) in
            try ByteAccess.with(y) { (y) throws(CryptoError) in
                try PublicKey(xBuffer: x, yBuffer: y, kind: kind)
            }
        }
    }

    @usableFromInline
    init(
        xBuffer x: UnsafeRawBufferPointer, yBuffer y: UnsafeRawBufferPointer, kind: KeyKind
    )
        throws(CryptoError)
    {
        let support = try ECCurveSupport.forKind(kind)
        let width = support.coordinateByteCount
        guard x.count == width else {
            throw CryptoError(
                .invalidLength, "\(kind) x coordinate must be \(width) bytes, not \(x.count)",
                field: "x")
        }
        guard y.count == width else {
            throw CryptoError(
                .invalidLength, "\(kind) y coordinate must be \(width) bytes, not \(y.count)",
                field: "y")
        }
        // 1 + 2 × 66 bytes at most: built on the stack.
        let key = try withUnsafeTemporaryAllocation(byteCount: 1 + 2 * width, alignment: 1) {
            (point) throws(CryptoError) -> OpaquePointer in
            guard let target = point.baseAddress, let xBase = x.baseAddress,
                let yBase = y.baseAddress
            else { throw CryptoError(.invalidLength, "empty coordinate") }
            target.storeBytes(of: 0x04, as: UInt8.self)
            (target + 1).copyMemory(from: xBase, byteCount: width)
            (target + 1 + width).copyMemory(from: yBase, byteCount: width)
            return try ECPublicKeyBuilder.ecKey(
                uncompressedPoint: UnsafeRawBufferPointer(point), support: support)
        }
        box = PKeyBox(takingECPublicKey: key, kind: kind)
    }

    /// The uncompressed point `04 ‖ x ‖ y` of an ECDSA key.
    ///
    /// - Throws: ``CryptoError/Code-swift.struct/unsupportedKeyType`` for non-ECDSA keys.
    public var uncompressedPoint: [UInt8] {
        get throws {
            let support = try ECCurveSupport.forKind(kind)
            if let point = box.point { return point }
            guard let ecKey = try box.ecKey else {
                throw CryptoError.openSSL("\(kind) key without its point")
            }
            return try ECPublicKeyBuilder.uncompressedPoint(of: ecKey, support: support)
        }
    }

    // MARK: EdDSA

    /// Imports a raw EdDSA public key: 32 bytes for Ed25519, 57 for Ed448 (RFC 8032 encoding).
    ///
    /// - Throws: ``CryptoError/Code-swift.struct/invalidLength`` for the wrong length;
    ///   ``CryptoError/Code-swift.struct/unsupportedKeyType`` when `kind` is not an Edwards
    ///   curve; ``CryptoError/Code-swift.struct/invalidPublicKey`` if OpenSSL refuses it.
    @inlinable
    public init<C: Collection<UInt8>>(rawEdDSAPublicKey: C, kind: KeyKind) throws {
        self = try ByteAccess.with(rawEdDSAPublicKey) { (raw) throws(CryptoError) in
            try PublicKey(rawEdDSABuffer: raw, kind: kind)
        }
    }

    @usableFromInline
    init(rawEdDSABuffer raw: UnsafeRawBufferPointer, kind: KeyKind) throws(CryptoError) {
        guard let count = kind.rawEdDSAKeyByteCount else {
            throw CryptoError(.unsupportedKeyType, "\(kind) is not an EdDSA curve")
        }
        guard raw.count == count else {
            throw CryptoError(
                .invalidLength, "\(kind) public key must be \(count) bytes, not \(raw.count)",
                field: "x")
        }
        if let refusal = EdwardsPublicKeyCheck.refusal(raw, kind: kind) {
            throw CryptoError(.invalidPublicKey, refusal, field: "x")
        }
        let name = kind == .ed25519 ? CName("ED25519") : CName("ED448")
        let key = EVP_PKEY_new_raw_public_key_ex(
            nil, name.pointer, nil, raw.baseAddress?.assumingMemoryBound(to: UInt8.self), raw.count)
        guard let key else {
            throw CryptoError.openSSL(.invalidPublicKey, "\(kind) public key refused")
        }
        box = PKeyBox(taking: key, kind: kind)
    }

    /// The raw EdDSA public key (32 or 57 bytes).
    ///
    /// - Throws: ``CryptoError/Code-swift.struct/unsupportedKeyType`` for non-EdDSA keys.
    public var rawEdDSAPublicKey: [UInt8] {
        get throws {
            guard let count = kind.rawEdDSAKeyByteCount else {
                throw CryptoError(.unsupportedKeyType, "\(kind) is not an EdDSA key")
            }
            return try KeyInspection.rawPublicKey(of: box.pointer, count: count)
        }
    }

    // MARK: RSA

    /// Imports an RSA public key from its modulus and public exponent (big-endian unsigned).
    ///
    /// - Throws: ``CryptoError/Code-swift.struct/keySizeNotAllowed`` when the modulus is outside
    ///   2048–4096 bits; ``CryptoError/Code-swift.struct/invalidPublicKey`` for an even modulus
    ///   or an exponent that is even or below 3.
    @inlinable
    public init<N: Collection<UInt8>, E: Collection<UInt8>>(
        rsaModulus: N, exponent: E
    )
        throws
    {
        self = try ByteAccess.with(rsaModulus) { (n) throws(CryptoError) in
            try ByteAccess.with(exponent) { (e) throws(CryptoError) in
                try PublicKey(rsaBuffers: n, e, allowed: KeyKind.allowedRSAModulusBits)
            }
        }
    }

    /// Like ``init(rsaModulus:exponent:)`` but admits 1024–16384-bit moduli. Only for verifying
    /// legacy data whose key size you cannot choose.
    ///
    /// - Throws: as ``init(rsaModulus:exponent:)``.
    @inlinable
    public init<N: Collection<UInt8>, E: Collection<UInt8>>(
        unsafeRSAModulus: N, exponent: E
    )
        throws
    {
        self = try ByteAccess.with(unsafeRSAModulus) { (n) throws(CryptoError) in
            try ByteAccess.with(exponent) { (e) throws(CryptoError) in
                try PublicKey(rsaBuffers: n, e, allowed: KeyKind.unsafeRSAModulusBits)
            }
        }
    }

    @usableFromInline
    init(
        rsaBuffers modulus: UnsafeRawBufferPointer, _ exponent: UnsafeRawBufferPointer,
        allowed: ClosedRange<Int>
    ) throws(CryptoError) {
        if let refusal = Self.rsaComponentsRefusal(modulus, exponent, allowed: allowed) {
            throw refusal
        }
        // Every refusal is decided on the bytes above; the EVP_PKEY is made on first use.
        let n = Array(modulus.drop { $0 == 0 })
        box = PKeyBox(
            rsaModulus: n, exponent: Array(exponent.drop { $0 == 0 }),
            kind: .rsa(modulusBits: Self.significantBits(n)))
    }

    /// The RSA modulus n, big-endian without leading zeros.
    ///
    /// - Throws: ``CryptoError/Code-swift.struct/unsupportedKeyType`` for non-RSA keys.
    public var rsaModulus: [UInt8] {
        get throws {
            guard kind.isRSA else { throw CryptoError(.unsupportedKeyType, "\(kind) is not RSA") }
            if let numbers = box.rsaNumbers { return numbers.modulus }
            return try KeyInspection.bigNumber("n", of: box.pointer)
        }
    }

    /// The RSA public exponent e, big-endian without leading zeros.
    ///
    /// - Throws: ``CryptoError/Code-swift.struct/unsupportedKeyType`` for non-RSA keys.
    public var rsaExponent: [UInt8] {
        get throws {
            guard kind.isRSA else { throw CryptoError(.unsupportedKeyType, "\(kind) is not RSA") }
            if let numbers = box.rsaNumbers { return numbers.exponent }
            return try KeyInspection.bigNumber("e", of: box.pointer)
        }
    }
}
