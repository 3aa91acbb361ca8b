import COpenSSL

/// Conversions between OpenSSL `BIGNUM`s and big-endian bytes.
enum BigNumber {
    /// The big-endian bytes of `number`: minimal when `width` is nil, else left-padded to
    /// exactly `width` bytes (failing when it does not fit).
    static func bytes(of number: OpaquePointer, width: Int? = nil) throws(CryptoError) -> [UInt8] {
        let count = width ?? Int(fido2_bn_num_bytes(number))
        guard count >= Int(fido2_bn_num_bytes(number)) else {
            throw CryptoError(.invalidLength, "number does not fit in \(count) bytes")
        }
        // Zero has no minimal bytes; an array of capacity 0 made by the initializer below would
        // store into the stdlib's shared empty-array storage, which races with other threads.
        if count == 0 { return [] }
        var ok = false
        let out = [UInt8](unsafeUninitializedCapacity: count) { buffer, initialized in
            ok = BN_bn2binpad(number, buffer.baseAddress, Int32(count)) == Int32(count)
            initialized = ok ? count : 0
        }
        guard ok else { throw CryptoError.openSSL("BN_bn2binpad failed") }
        return out
    }

    /// A new `BIGNUM` from big-endian bytes; `secure` allocates it from OpenSSL's secure heap
    /// path so that it is cleared when freed and copies made by `OSSL_PARAM_BLD` are too.
    static func make(
        _ bytes: UnsafeRawBufferPointer, secure: Bool = false
    ) throws(CryptoError)
        -> OpaquePointer
    {
        guard let number = secure ? BN_secure_new() : BN_new() else {
            throw CryptoError.openSSL("BN_new failed")
        }
        guard
            BN_bin2bn(
                bytes.baseAddress?.assumingMemoryBound(to: UInt8.self), Int32(bytes.count), number)
                != nil
        else {
            BN_clear_free(number)
            throw CryptoError.openSSL("BN_bin2bn failed")
        }
        return number
    }

    /// ``make(_:secure:)`` for a collection of bytes.
    static func make<C: Collection<UInt8>>(
        _ bytes: C, secure: Bool = false
    ) throws(CryptoError)
        -> OpaquePointer
    {
        guard bytes.count <= 2048 else {
            throw CryptoError(.invalidLength, "integer of \(bytes.count) bytes is too long")
        }
        return try ByteAccess.with(bytes) { (buffer) throws(CryptoError) in
            try make(buffer, secure: secure)
        }
    }
}
