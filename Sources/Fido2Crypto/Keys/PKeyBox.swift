import COpenSSL
import Synchronization

/// Owns one key and frees it in `deinit`; the private backing of ``PublicKey`` and
/// ``PrivateKey``.
///
/// Most keys are an `EVP_PKEY` made up front. An ECDSA public key also holds its point as a
/// low-level `EC_KEY`, which ECDSA verification uses directly; a key imported from a point has
/// only that, and makes its `EVP_PKEY` on first use (SPKI or PEM export). A relying party that
/// imports a key to verify one signature so skips the template copy and the per-key
/// `EVP_PKEY_CTX` and signature fetch that OpenSSL 3.0's EVP route costs (about 3 µs each).
///
/// The public key of an ECDSA private key starts as its uncompressed point alone (read from
/// OpenSSL's own key, so already valid), and makes the `EC_KEY` and `EVP_PKEY` on first use: an
/// authenticator that only writes the point into a COSE key and an SPKI never pays for them.
///
/// An RSA public key imported from its modulus and exponent keeps those numbers (checked on the
/// bytes by ``PublicKey``) and makes its `EVP_PKEY` on first use: a TPM registration reads the
/// credential key's numbers to compare them with the pubArea, and never spends the
/// `EVP_PKEY_fromdata` (on OpenSSL 3.0 it walks the whole algorithm name map; skipping it took
/// the TPM peer benchmark's verification from 128 to 120 µs).
///
/// The key never changes after the box is made (lazily made keys are published once,
/// atomically), and OpenSSL 3 allows `EVP_PKEY` and `EC_KEY` to be used by many threads at once
/// as long as nobody modifies them; every EVP operation takes its own `EVP_PKEY_CTX` (from
/// ``contexts``), so sharing the box across tasks is safe.
final class PKeyBox: @unchecked Sendable {
    let kind: KeyKind
    /// The uncompressed point of an ECDSA public key made by ``init(uncompressedPoint:kind:)``;
    /// nil for every other key.
    let point: [UInt8]?
    /// The modulus and exponent of an RSA public key made from its components (big-endian, no
    /// leading zeros): its `EVP_PKEY` is made from them on first use, and reading them back
    /// costs no `EVP_PKEY_get_bn_param`; nil otherwise.
    let rsaNumbers: (modulus: [UInt8], exponent: [UInt8])?
    /// The point of an ECDSA public key as an `EC_KEY`: set at creation, or made from ``point``
    /// on first use.
    private let madeECKey: Atomic<OpaquePointer?>
    /// An RSA public key made from ``rsaNumbers`` as a low-level `RSA`, on first use: what
    /// RSASSA-PKCS1-v1_5 verification uses, without an `EVP_PKEY` or `EVP_PKEY_CTX`.
    private let madeRSAKey: Atomic<OpaquePointer?>
    /// Set-up sign/verify contexts for this key, tagged by operation, padding and digest (none
    /// kept for ECDSA public keys, which verify through ``ecKey``).
    let contexts: ContextPool
    /// The `EVP_PKEY`: set at creation, or on first use for a key made from an `EC_KEY`, a point
    /// or RSA numbers alone.
    private let evpKey: Atomic<OpaquePointer?>

    /// Takes ownership of `pointer` (and of `ecKey`, the same key's point as an `EC_KEY`).
    init(taking pointer: OpaquePointer, kind: KeyKind, ecKey: OpaquePointer? = nil) {
        self.kind = kind
        point = nil
        rsaNumbers = nil
        madeECKey = Atomic(ecKey)
        madeRSAKey = Atomic(nil)
        contexts = ContextPool(capacity: ecKey == nil ? 8 : 0)
        evpKey = Atomic(pointer)
    }

    /// Takes ownership of `ecKey`, an ECDSA public key of `kind`; its `EVP_PKEY` is made when
    /// first needed.
    init(takingECPublicKey ecKey: OpaquePointer, kind: KeyKind) {
        self.kind = kind
        point = nil
        rsaNumbers = nil
        madeECKey = Atomic(ecKey)
        madeRSAKey = Atomic(nil)
        contexts = ContextPool(capacity: 0)
        evpKey = Atomic(nil)
    }

    /// Keeps `point`, the uncompressed point of an ECDSA public key of `kind` that OpenSSL made
    /// (the caller vouches that it is on the curve); its `EC_KEY` and `EVP_PKEY` are made when
    /// first needed.
    init(uncompressedPoint point: [UInt8], kind: KeyKind) {
        self.kind = kind
        self.point = point
        rsaNumbers = nil
        madeECKey = Atomic(nil)
        madeRSAKey = Atomic(nil)
        contexts = ContextPool(capacity: 0)
        evpKey = Atomic(nil)
    }

    deinit {
        if let key = evpKey.load(ordering: .acquiring) { EVP_PKEY_free(key) }
        if let ecKey = madeECKey.load(ordering: .acquiring) { fido2_ec_key_free(ecKey) }
        if let rsaKey = madeRSAKey.load(ordering: .acquiring) { fido2_rsa_free(rsaKey) }
    }

    /// Keeps the modulus and exponent of an RSA public key of `kind` (big-endian, no leading
    /// zeros; the caller has checked them); its `EVP_PKEY` is made when first needed.
    init(rsaModulus modulus: [UInt8], exponent: [UInt8], kind: KeyKind) {
        self.kind = kind
        point = nil
        rsaNumbers = (modulus, exponent)
        madeECKey = Atomic(nil)
        madeRSAKey = Atomic(nil)
        contexts = ContextPool(capacity: 8)
        evpKey = Atomic(nil)
    }

    /// The point of an ECDSA public key as an `EC_KEY` (made from ``point`` on first use); nil
    /// for every other key. The box keeps ownership.
    ///
    /// - Throws: ``CryptoError/Code-swift.struct/openSSLFailure`` if OpenSSL cannot make it.
    var ecKey: OpaquePointer? {
        get throws(CryptoError) {
            if let key = madeECKey.load(ordering: .acquiring) { return key }
            guard let point else { return nil }
            let support = try ECCurveSupport.forKind(kind)
            let made = try ByteAccess.with(point) { (bytes) throws(CryptoError) in
                try ECPublicKeyBuilder.ecKey(uncompressedPoint: bytes, support: support)
            }
            let (exchanged, winner) = madeECKey.compareExchange(
                expected: nil, desired: made, ordering: .acquiringAndReleasing)
            if exchanged { return made }
            // Another thread published its copy first: use that one.
            fido2_ec_key_free(made)
            return winner
        }
    }

    /// An RSA public key made from ``rsaNumbers`` as a low-level `RSA` (on first use); nil for
    /// every other key. The box keeps ownership.
    ///
    /// - Throws: ``CryptoError/Code-swift.struct/openSSLFailure`` if OpenSSL cannot make it.
    var rsaKey: OpaquePointer? {
        get throws(CryptoError) {
            if let key = madeRSAKey.load(ordering: .acquiring) { return key }
            guard kind.isRSA, let numbers = rsaNumbers else { return nil }
            let made = numbers.modulus.withUnsafeBufferPointer { n in
                numbers.exponent.withUnsafeBufferPointer { e in
                    fido2_rsa_public_key(
                        n.baseAddress, Int32(n.count), e.baseAddress, Int32(e.count))
                }
            }
            guard let made else { throw CryptoError.openSSL("RSA_new or RSA_set0_key failed") }
            let (exchanged, winner) = madeRSAKey.compareExchange(
                expected: nil, desired: made, ordering: .acquiringAndReleasing)
            if exchanged { return made }
            // Another thread published its copy first: use that one.
            fido2_rsa_free(made)
            return winner
        }
    }

    /// The key's `EVP_PKEY`, made on first use (from ``ecKey``, or from ``rsaNumbers``) when the
    /// box was created without one. The box keeps ownership.
    ///
    /// - Throws: ``CryptoError/Code-swift.struct/openSSLFailure`` if OpenSSL cannot make it.
    var pointer: OpaquePointer {
        get throws(CryptoError) {
            if let key = evpKey.load(ordering: .acquiring) { return key }
            let made: OpaquePointer
            if kind.isRSA, let numbers = rsaNumbers {
                made = try RSAKeyBuilder.publicKey(
                    modulus: numbers.modulus, exponent: numbers.exponent)
            } else {
                guard let ecKey = try ecKey else {
                    throw CryptoError.openSSL("key box holds no key")
                }
                made = try ECPublicKeyBuilder.evpKey(
                    from: ecKey, support: ECCurveSupport.forKind(kind))
            }
            let (exchanged, winner) = evpKey.compareExchange(
                expected: nil, desired: made, ordering: .acquiringAndReleasing)
            if exchanged { return made }
            // Another thread published its copy first: use that one.
            EVP_PKEY_free(made)
            guard let winner else { throw CryptoError.openSSL("key box lost its key") }
            return winner
        }
    }

    /// Takes ownership of `pointer` after working out its kind; frees it and throws when the
    /// kind is not supported or (for RSA) its size is outside `allowedRSABits`.
    static func adopt(
        _ pointer: OpaquePointer, allowedRSABits: ClosedRange<Int>
    ) throws(CryptoError)
        -> PKeyBox
    {
        do throws(CryptoError) {
            let kind = try checkedKind(of: pointer, allowedRSABits: allowedRSABits)
            return PKeyBox(taking: pointer, kind: kind)
        } catch {
            EVP_PKEY_free(pointer)
            throw error
        }
    }

    /// Like ``adopt(_:allowedRSABits:)`` for a public key; an ECDSA key must not be the point at
    /// infinity, and gets its point as an `EC_KEY` for verification.
    static func adoptPublicKey(
        _ pointer: OpaquePointer, allowedRSABits: ClosedRange<Int>
    ) throws(CryptoError)
        -> PKeyBox
    {
        do throws(CryptoError) {
            let kind = try checkedKind(of: pointer, allowedRSABits: allowedRSABits)
            if let count = kind.rawEdDSAKeyByteCount {
                // A decoded SubjectPublicKeyInfo meets the same refusals as a raw key.
                let raw = try KeyInspection.rawPublicKey(of: pointer, count: count)
                let refusal = raw.withUnsafeBytes { EdwardsPublicKeyCheck.refusal($0, kind: kind) }
                if let refusal { throw CryptoError(.invalidPublicKey, refusal) }
            }
            guard kind.isECDSA else { return PKeyBox(taking: pointer, kind: kind) }
            let ecKey = try ECPublicKeyBuilder.ecKey(
                fromEVPKey: pointer, support: ECCurveSupport.forKind(kind))
            return PKeyBox(taking: pointer, kind: kind, ecKey: ecKey)
        } catch {
            EVP_PKEY_free(pointer)
            throw error
        }
    }

    private static func checkedKind(
        of pointer: OpaquePointer, allowedRSABits: ClosedRange<Int>
    ) throws(CryptoError) -> KeyKind {
        let kind = try KeyInspection.kind(of: pointer)
        if let bits = kind.modulusBits, !allowedRSABits.contains(bits) {
            throw CryptoError(
                .keySizeNotAllowed,
                "RSA modulus of \(bits) bits is outside \(allowedRSABits.lowerBound)...\(allowedRSABits.upperBound)"
            )
        }
        return kind
    }
}
