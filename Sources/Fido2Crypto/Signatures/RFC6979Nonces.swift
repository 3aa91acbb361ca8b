import COpenSSL

/// The RFC 6979 §3.2 nonce generator: HMAC_DRBG keyed by the private scalar and the message
/// hash, with the signature algorithm's own hash (SHA-256 for ES256, SHA-384 for ES384, SHA-512
/// for ES512). K and V live in one buffer owned by the generator and wiped when it goes away.
struct RFC6979Nonces: ~Copyable {
    private var mac: HMACContext
    /// K (first `hashLength` bytes) and V (next `hashLength` bytes).
    private let state: UnsafeMutableRawBufferPointer
    private let hashLength: Int
    private let orderBitCount: Int
    private let order: OpaquePointer
    private var started = false

    private var key: UnsafeMutableRawBufferPointer {
        UnsafeMutableRawBufferPointer(rebasing: state[0..<hashLength])
    }
    private var value: UnsafeMutableRawBufferPointer {
        UnsafeMutableRawBufferPointer(rebasing: state[hashLength..<(2 * hashLength)])
    }

    private init(
        mac: consuming HMACContext, hashLength: Int, orderBitCount: Int, order: OpaquePointer
    ) {
        self.mac = mac
        state = UnsafeMutableRawBufferPointer.allocate(byteCount: 2 * hashLength, alignment: 1)
        state.initializeMemory(as: UInt8.self, repeating: 0x00)
        self.hashLength = hashLength
        self.orderBitCount = orderBitCount
        self.order = order
    }

    /// A generator after steps a–g of §3.2 for private scalar x and message hash h1.
    static func make(
        scalar: OpaquePointer, messageDigest: UnsafeRawBufferPointer, digest: DigestAlgorithm,
        support: ECCurveSupport
    ) throws(CryptoError) -> RFC6979Nonces {
        var nonces = RFC6979Nonces(
            mac: try HMACContext(digest), hashLength: digest.byteCount,
            orderBitCount: support.orderBitCount, order: support.order)
        try nonces.seed(scalar: scalar, messageDigest: messageDigest)
        return nonces
    }

    private mutating func seed(
        scalar: OpaquePointer, messageDigest: UnsafeRawBufferPointer
    )
        throws(CryptoError)
    {
        let octetLength = (orderBitCount + 7) / 8
        let z1 = try Self.bitsToInteger(messageDigest, orderBitCount: orderBitCount)
        defer { BN_free(z1) }
        if BN_cmp(z1, order) >= 0 {
            guard BN_sub(z1, z1, order) == 1 else { throw CryptoError.openSSL("BN_sub failed") }
        }
        value.initializeMemory(as: UInt8.self, repeating: 0x01)
        // int2octets(x) ‖ bits2octets(h1), each rlen bytes, on the stack and wiped after use.
        try withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 2 * octetLength) {
            (seed) throws(CryptoError) in
            defer { SecureBytes.wipe(UnsafeMutableRawBufferPointer(seed)) }
            guard let base = seed.baseAddress,
                BN_bn2binpad(scalar, base, Int32(octetLength)) == Int32(octetLength),
                BN_bn2binpad(z1, base + octetLength, Int32(octetLength)) == Int32(octetLength)
            else { throw CryptoError(.invalidPrivateKey, "scalar does not fit rlen") }
            for separator: UInt8 in [0x00, 0x01] {
                try step(separator: separator, seed: UnsafeRawBufferPointer(seed))
            }
        }
    }

    deinit {
        SecureBytes.wipe(state)
        state.deallocate()
    }

    /// K = HMAC_K(V ‖ separator ‖ seed); V = HMAC_K(V).
    private mutating func step(
        separator: UInt8, seed: UnsafeRawBufferPointer?
    )
        throws(CryptoError)
    {
        try mac.start(key: UnsafeRawBufferPointer(key))
        mac.update(UnsafeRawBufferPointer(value))
        mac.update(byte: separator)
        if let seed { mac.update(seed) }
        try mac.finish(into: key)
        try refreshValue()
    }

    /// V = HMAC_K(V).
    private mutating func refreshValue() throws(CryptoError) {
        try mac.start(key: UnsafeRawBufferPointer(key))
        mac.update(UnsafeRawBufferPointer(value))
        try mac.finish(into: value)
    }

    /// The next candidate k in 1…q−1 (step h), as a new constant-time `BIGNUM` the caller
    /// clears. After the first call, K and V are first updated as step h.3 requires.
    mutating func next() throws(CryptoError) -> OpaquePointer {
        let blocks = (orderBitCount + 8 * hashLength - 1) / (8 * hashLength)
        let tLength = blocks * hashLength
        while true {
            if started { try step(separator: 0x00, seed: nil) }
            started = true
            let k = try withUnsafeTemporaryAllocation(byteCount: tLength, alignment: 1) {
                (t) throws(CryptoError) -> OpaquePointer in
                defer { SecureBytes.wipe(t) }
                for block in 0..<blocks {
                    try refreshValue()
                    if let target = t.baseAddress, let source = value.baseAddress {
                        (target + block * hashLength).copyMemory(
                            from: source, byteCount: hashLength)
                    }
                }
                return try Self.bitsToInteger(
                    UnsafeRawBufferPointer(t), orderBitCount: orderBitCount, secure: true)
            }
            if BN_is_zero(k) == 0, BN_cmp(k, order) < 0 {
                BN_set_flags(k, BN_FLG_CONSTTIME)
                return k
            }
            BN_clear_free(k)
        }
    }

    /// bits2int (§2.3.2): the leftmost qlen bits of `bytes` as an integer.
    static func bitsToInteger(
        _ bytes: UnsafeRawBufferPointer, orderBitCount: Int, secure: Bool = false
    ) throws(CryptoError) -> OpaquePointer {
        let number = try BigNumber.make(bytes, secure: secure)
        let excess = bytes.count * 8 - orderBitCount
        if excess > 0 {
            guard BN_rshift(number, number, Int32(excess)) == 1 else {
                BN_clear_free(number)
                throw CryptoError.openSSL("BN_rshift failed")
            }
        }
        return number
    }
}
