import Fido2Crypto
import Fido2WebAuthnWire

/// CTAP 2.1's PIN/UV auth protocols (§6.5.6 and §6.5.7): how a platform and an authenticator
/// turn an ECDH agreement into keys, encrypt `hmac-secret` salts and outputs, and authenticate
/// messages.
public enum PINUVAuthProtocol: Int, Sendable, Hashable, CaseIterable {
    /// Protocol one: SHA-256 of the ECDH x-coordinate; AES-256-CBC with a zero IV;
    /// HMAC-SHA-256 truncated to 16 bytes.
    case one = 1
    /// Protocol two: HKDF-SHA-256 HMAC and AES keys; AES-256-CBC with a random IV sent in
    /// front of the ciphertext; full HMAC-SHA-256.
    case two = 2

    /// The shared secret from the ECDH x-coordinate `z` (CTAP 2.1 "kdf"): 32 bytes for
    /// protocol one, 64 (HMAC key ‖ AES key) for protocol two.
    ///
    /// - Throws: ``AuthenticatorError`` `invalidValue` if the crypto layer fails.
    public func kdf(_ z: [UInt8]) throws -> [UInt8] {
        try Self.crypto { () throws in
            switch self {
            case .one:
                return DigestAlgorithm.sha256.hash(z)
            case .two:
                let salt = [UInt8](repeating: 0, count: 32)
                let hmacKey = try HKDF.deriveKey(
                    inputKeyMaterial: z, salt: salt, info: Array("CTAP2 HMAC key".utf8),
                    outputByteCount: 32)
                let aesKey = try HKDF.deriveKey(
                    inputKeyMaterial: z, salt: salt, info: Array("CTAP2 AES key".utf8),
                    outputByteCount: 32)
                return hmacKey + aesKey
            }
        }
    }

    /// ECDH between `privateKey` and `peer` (P-256), then ``kdf(_:)``.
    ///
    /// - Throws: ``AuthenticatorError`` `invalidValue` for keys that are not both
    ///   P-256, or if the crypto layer fails.
    public func sharedSecret(
        privateKey: PrivateKey, peer: PublicKey
    ) throws
        -> [UInt8]
    {
        guard privateKey.kind == .p256, peer.kind == .p256 else {
            throw AuthenticatorError(
                .invalidValue, "PIN/UV auth protocols use P-256 keys", field: "keyAgreement")
        }
        let z = try Self.crypto { () throws in try privateKey.sharedSecret(with: peer)
        }
        return try kdf(z)
    }

    /// Encrypts `plaintext` (whole 16-byte blocks) with `sharedSecret`. Protocol two prepends
    /// `iv`, which must then be 16 random bytes (fixed only to reproduce test vectors);
    /// protocol one ignores it and uses a zero IV.
    ///
    /// - Throws: ``AuthenticatorError`` `invalidValue` for a secret, IV or plaintext
    ///   of the wrong size.
    public func encrypt(
        _ plaintext: [UInt8], sharedSecret: [UInt8], iv: [UInt8]
    )
        throws -> [UInt8]
    {
        let aesKey = try aesKey(sharedSecret)
        return try Self.crypto { () throws in
            switch self {
            case .one:
                return try AESCBC.encrypt(
                    plaintext, key: aesKey, iv: [UInt8](repeating: 0, count: 16))
            case .two:
                return iv + (try AESCBC.encrypt(plaintext, key: aesKey, iv: iv))
            }
        }
    }

    /// Decrypts what ``encrypt(_:sharedSecret:iv:)`` made.
    ///
    /// - Throws: ``AuthenticatorError`` `invalidValue` for a secret or ciphertext of
    ///   the wrong size.
    public func decrypt(
        _ ciphertext: [UInt8], sharedSecret: [UInt8]
    ) throws
        -> [UInt8]
    {
        let aesKey = try aesKey(sharedSecret)
        return try Self.crypto { () throws in
            switch self {
            case .one:
                return try AESCBC.decrypt(
                    ciphertext, key: aesKey, iv: [UInt8](repeating: 0, count: 16))
            case .two:
                guard ciphertext.count >= AESCBC.blockSize else {
                    throw CryptoError(.invalidLength, "protocol two ciphertext lacks its IV")
                }
                return try AESCBC.decrypt(
                    ciphertext.dropFirst(AESCBC.blockSize), key: aesKey,
                    iv: ciphertext.prefix(AESCBC.blockSize))
            }
        }
    }

    /// The message authentication code of `message` under `sharedSecret`: 16 bytes for
    /// protocol one, 32 for protocol two.
    ///
    /// - Throws: ``AuthenticatorError`` `invalidValue` for a secret of the wrong size.
    public func authenticate(
        _ message: [UInt8], sharedSecret: [UInt8]
    ) throws
        -> [UInt8]
    {
        let hmacKey: ArraySlice<UInt8>
        switch (self, sharedSecret.count) {
        case (.one, 32): hmacKey = sharedSecret[...]
        case (.two, 64): hmacKey = sharedSecret.prefix(32)
        default: throw Self.badSecret(sharedSecret.count, for: self)
        }
        let code = try Self.crypto { () throws in
            try HMAC.authenticationCode(for: message, key: hmacKey)
        }
        return self == .one ? Array(code.prefix(16)) : code
    }

    private func aesKey(_ sharedSecret: [UInt8]) throws(AuthenticatorError) -> ArraySlice<UInt8> {
        switch (self, sharedSecret.count) {
        case (.one, 32): return sharedSecret[...]
        case (.two, 64): return sharedSecret.suffix(32)
        default: throw Self.badSecret(sharedSecret.count, for: self)
        }
    }

    private static func badSecret(
        _ count: Int, for version: PINUVAuthProtocol
    ) -> AuthenticatorError {
        AuthenticatorError(
            .invalidValue,
            "protocol \(version.rawValue) shared secrets are \(version == .one ? 32 : 64) bytes, not \(count)",
            field: "sharedSecret")
    }

    /// Runs crypto-layer work, reporting its failures as invalid values.
    static func crypto<R>(_ body: () throws -> R) throws(AuthenticatorError) -> R {
        do {
            return try body()
        } catch {
            throw AuthenticatorError(crypto: error, .invalidValue)
        }
    }
}
