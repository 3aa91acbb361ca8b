import COpenSSL

/// Everything fetched once per ECDSA curve: the `EC_GROUP` and its order (for RFC 6979), a
/// public-key template (domain parameters only) that point imports duplicate, and a pool of
/// key-generation contexts.
///
/// All members are read-only after creation; `EC_GROUP`, the order and the Montgomery context
/// are only ever passed to OpenSSL as `const`, which OpenSSL allows from any thread.
final class ECCurveSupport: @unchecked Sendable {
    let kind: KeyKind
    let groupName: StaticString
    let coordinateByteCount: Int
    let group: OpaquePointer
    /// The group order n (owned by `group`).
    let order: OpaquePointer
    /// n − 2, the exponent for a constant-time inverse modulo the prime n (Fermat).
    let orderMinusTwo: OpaquePointer
    let orderMontgomery: OpaquePointer
    let orderBitCount: Int
    /// An `EVP_PKEY` holding only the curve's domain parameters.
    let template: OpaquePointer
    let keyGeneration = ContextPool()

    private init?(kind: KeyKind, nid: Int32, groupName: StaticString, coordinateByteCount: Int) {
        guard let group = EC_GROUP_new_by_curve_name(nid) else { return nil }
        guard let order = EC_GROUP_get0_order(group),
            let orderMinusTwo = BN_dup(order),
            BN_sub_word(orderMinusTwo, 2) == 1
        else {
            EC_GROUP_free(group)
            return nil
        }
        guard let montgomery = BN_MONT_CTX_new(), let bnContext = BN_CTX_new() else {
            BN_free(orderMinusTwo)
            EC_GROUP_free(group)
            return nil
        }
        defer { BN_CTX_free(bnContext) }
        guard BN_MONT_CTX_set(montgomery, order, bnContext) == 1,
            let template = Self.makeTemplate(groupName)
        else {
            BN_MONT_CTX_free(montgomery)
            BN_free(orderMinusTwo)
            EC_GROUP_free(group)
            return nil
        }
        self.kind = kind
        self.groupName = groupName
        self.coordinateByteCount = coordinateByteCount
        self.group = group
        self.order = order
        self.orderMinusTwo = orderMinusTwo
        self.orderMontgomery = montgomery
        self.orderBitCount = Int(BN_num_bits(order))
        self.template = template
    }

    deinit {
        EVP_PKEY_free(template)
        BN_MONT_CTX_free(orderMontgomery)
        BN_free(orderMinusTwo)
        EC_GROUP_free(group)
    }

    private static func makeTemplate(_ groupName: StaticString) -> OpaquePointer? {
        guard let context = EVP_PKEY_CTX_new_from_name(nil, "EC", nil) else { return nil }
        defer { EVP_PKEY_CTX_free(context) }
        var params = [
            OSSL_PARAM_construct_utf8_string(
                CName("group").pointer, CName(groupName).mutablePointer, 0),
            OSSL_PARAM_construct_end(),
        ]
        var key: OpaquePointer?
        guard EVP_PKEY_fromdata_init(context) == 1,
            EVP_PKEY_fromdata(context, &key, EVP_PKEY_KEY_PARAMETERS, &params) == 1
        else {
            OpenSSLErrorQueue.clear()
            return nil
        }
        return key
    }

    static let p256 = ECCurveSupport(
        kind: .p256, nid: NID_X9_62_prime256v1, groupName: "prime256v1", coordinateByteCount: 32)
    static let p384 = ECCurveSupport(
        kind: .p384, nid: NID_secp384r1, groupName: "secp384r1", coordinateByteCount: 48)
    static let p521 = ECCurveSupport(
        kind: .p521, nid: NID_secp521r1, groupName: "secp521r1", coordinateByteCount: 66)
    static let secp256k1 = ECCurveSupport(
        kind: .secp256k1, nid: NID_secp256k1, groupName: "secp256k1", coordinateByteCount: 32)

    /// The support for an ECDSA kind.
    static func forKind(_ kind: KeyKind) throws(CryptoError) -> ECCurveSupport {
        let support: ECCurveSupport?
        switch kind.storage {
        case .p256: support = p256
        case .p384: support = p384
        case .p521: support = p521
        case .secp256k1: support = secp256k1
        default:
            throw CryptoError(.unsupportedKeyType, "\(kind) is not an ECDSA curve")
        }
        guard let support else { throw CryptoError.openSSL("OpenSSL cannot provide \(kind)") }
        return support
    }

    /// The kind for an OpenSSL group name, or nil for curves this library does not support.
    static func kind(forGroupName name: String) -> KeyKind? {
        switch name {
        case "prime256v1", "P-256", "secp256r1": .p256
        case "secp384r1", "P-384": .p384
        case "secp521r1", "P-521": .p521
        case "secp256k1": .secp256k1
        default: nil
        }
    }
}
