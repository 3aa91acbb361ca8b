import Fido2Authenticator
import Fido2Crypto
import Fido2WebAuthn
import Fido2WebAuthnWire

extension AuthenticatorConfiguration {
    /// Deterministic mode, for tests and generated vectors: keys and credential IDs from a
    /// ``DeterministicRandomSource`` seeded with `seed`, ECDSA nonces by RFC 6979 and PSS salts
    /// by ``DeterministicPSS`` (``ECDSANonce/reproducible``). The same inputs give the same
    /// bytes.
    ///
    /// - Throws: `AuthenticatorError` `keyGenerationFailed` if the source cannot be made.
    package static func deterministic(
        seed: [UInt8], base: AuthenticatorConfiguration = .init()
    ) throws(AuthenticatorError) -> AuthenticatorConfiguration {
        var configuration = base
        do {
            configuration.random = try DeterministicRandomSource(seed: seed)
        } catch {
            throw AuthenticatorError(.keyGenerationFailed, "\(error)")
        }
        configuration.ecdsaNonce = .reproducible
        return configuration
    }
}
