import Fido2Crypto
import Fido2WebAuthnWire

/// The WebAuthn `prf` extension over CTAP2 `hmac-secret` (WebAuthn Level 3 §10.1.4, CTAP 2.1
/// §12.5): how a PRF input becomes an `hmac-secret` salt, and how an authenticator turns a salt
/// into an output with the credential's secret.
public enum PRFEvaluation {
    /// The `hmac-secret` salt for a PRF input: SHA-256(UTF-8 "WebAuthn PRF" ‖ 0x00 ‖ input).
    ///
    /// - Throws: ``AuthenticatorError`` `invalidValue` if hashing fails.
    public static func salt(forInput input: [UInt8]) throws -> [UInt8] {
        try PINUVAuthProtocol.crypto { () throws(CryptoError) in
            DigestAlgorithm.sha256.hash(Array("WebAuthn PRF".utf8) + [0] + input)
        }
    }

    /// The `hmac-secret` output for `salt` (32 bytes): HMAC-SHA-256 keyed with the
    /// credential's random secret.
    ///
    /// - Throws: ``AuthenticatorError`` `invalidValue` for a salt that is not 32
    ///   bytes or a secret that is empty.
    public static func output(
        credentialRandom: [UInt8], salt: [UInt8]
    ) throws
        -> [UInt8]
    {
        guard salt.count == 32 else {
            throw AuthenticatorError(
                .invalidValue, "hmac-secret salts are 32 bytes, not \(salt.count)", field: "salt")
        }
        guard !credentialRandom.isEmpty else {
            throw AuthenticatorError(
                .invalidValue, "the credential secret is empty", field: "credRandom")
        }
        return try PINUVAuthProtocol.crypto { () throws in
            try HMAC.authenticationCode(for: salt, key: credentialRandom)
        }
    }
}
