import Fido2Crypto

/// Reproducible RSASSA-PSS salts, for tests and generated vectors: the salt is HMAC(d, H(m))
/// with the signature's hash, keyed by the private exponent as RFC 6979 keys its nonce by the
/// private scalar. The same key and message always give the same signature, the salt is
/// unpredictable to anyone without the key, and verifiers cannot tell these signatures from
/// randomly salted ones. Fido2Crypto signs with the salt (``PSSSalt``); the rule lives here
/// because nothing but tests and vectors needs it.
package enum DeterministicPSS {
    /// The salt rule: HMAC(d, mHash).
    package static let salt = PSSSalt(name: "HMAC(d, H(m))") {
        (key, messageHash, digest) throws(CryptoError) -> [UInt8] in
        let exponent = try key.rsaPrivateExponent
        do {
            return try HMAC.authenticationCode(for: messageHash, key: exponent, digest: digest)
        } catch {
            throw error as? CryptoError ?? CryptoError(.openSSLFailure, "HMAC: \(error)")
        }
    }
}

extension ECDSANonce {
    /// RFC 6979 nonces for ECDSA and ``DeterministicPSS`` salts for RSASSA-PSS: every signature
    /// reproducible. What the software authenticator's deterministic configuration and the
    /// vector generator sign with.
    package static let reproducible = ECDSANonce.deterministic(pssSalt: DeterministicPSS.salt)
}
