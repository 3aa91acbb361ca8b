extension KeyEncoding {
    /// The modulus and public exponent of `der` when it is exactly an rsaEncryption
    /// SubjectPublicKeyInfo in DER (RFC 8017 A.1.1 inside RFC 5280 4.1: a NULL parameter, no
    /// unused bits, positive minimal INTEGERs); nil for anything else, which OpenSSL then
    /// decodes. Read here because OpenSSL 3.0's decoder set-up costs far more than the import.
    static func rsaComponents(
        ofSPKI der: UnsafeRawBufferPointer
    ) -> (modulus: ArraySlice<UInt8>, exponent: ArraySlice<UInt8>)? {
        // The smallest such structure is well over 16 bytes; rsaEncryption's fixed header first.
        guard der.count > 16, der.count <= 4096, der[0] == 0x30 else { return nil }
        do {
            var reader = try DERReader(Array(der))
            let components = try reader.readSequence {
                (spki) throws(CryptoError) -> (ArraySlice<UInt8>, ArraySlice<UInt8>) in
                try spki.readSequence { (algorithm) throws(CryptoError) in
                    guard try algorithm.readObjectIdentifier() == .rsaEncryption else {
                        throw CryptoError(.unsupportedKeyType, "not rsaEncryption")
                    }
                    try algorithm.readNull()
                }
                let key = try spki.readBitString()
                guard key.unusedBitCount == 0 else {
                    throw CryptoError(.invalidKeyEncoding, "unused bits in an RSA key")
                }
                var numbers = try DERReader(key.bytes)
                let pair = try numbers.readSequence {
                    (rsa) throws(CryptoError) -> (ArraySlice<UInt8>, ArraySlice<UInt8>) in
                    (try rsa.readInteger(), try rsa.readInteger())
                }
                try numbers.finish()
                return pair
            }
            try reader.finish()
            // Negative numbers (top bit set) are left to OpenSSL's own verdict.
            guard let first = components.0.first, first & 0x80 == 0,
                let exponentFirst = components.1.first, exponentFirst & 0x80 == 0
            else { return nil }
            return (components.0, components.1)
        } catch {
            return nil
        }
    }
}
