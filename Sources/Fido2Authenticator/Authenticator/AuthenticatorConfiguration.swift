import Fido2Crypto
import Fido2WebAuthnWire

/// How the software authenticator behaves: what it supports, which flags it sets, and where
/// its randomness comes from.
public struct AuthenticatorConfiguration: Sendable {
    /// The AAGUID it reports. Default all zeros.
    public var aaguid: AAGUID = .zero
    /// The algorithms it can make credentials for, in no particular order: the relying
    /// party's preference order decides. Default ES256, RS256, EdDSA (Ed25519). Also
    /// available: ES384, ES512, ES256K, Ed25519 (-19), Ed448, RS384, RS512, PS256, PS384,
    /// PS512.
    public var supportedAlgorithms: [COSEAlgorithm] = [.es256, .rs256, .edDSA]
    /// The attestation it produces, whatever the relying party's conveyance preference
    /// (no client-side anonymization is done). Default `none`.
    public var attestation: AuthenticatorAttestation = .none
    /// Whether it can verify the user (UV is set when the relying party requires or prefers
    /// it). Default true.
    public var supportsUserVerification = true
    /// Whether it can make discoverable credentials. Default true.
    public var supportsDiscoverableCredentials = true
    /// The BE flag of new credentials. Default false.
    public var backupEligible = false
    /// The BS flag of new credentials (only with BE). Default false.
    public var backupState = false
    /// Whether assertions advance the signature counter. Default true; synced passkeys keep
    /// it at 0.
    public var usesSignCounter = true
    /// The transports reported in registration responses. Default `internal`, `hybrid`.
    public var transports: [AuthenticatorTransport] = [.internal, .hybrid]
    /// The attachment reported in responses. Default `platform`.
    public var attachment: AuthenticatorAttachment? = .platform
    /// The length of new credential IDs (random bytes), 16…1023. Default 32.
    public var credentialIdLength = 32
    /// The size of new RSA keys. Default 2048.
    public var rsaModulusBits = 2048
    /// Where keys and credential IDs come from; nil (the default) uses OpenSSL's DRBG
    /// directly, the fastest. With a seeded source output is reproducible (RSA keys are then
    /// found by a deterministic prime search: slow, for tests only).
    public var random: (any RandomSource)?
    /// How ECDSA nonces are made. Default random; `ECDSANonce.deterministic` (RFC 6979) makes
    /// ECDSA signatures reproducible.
    public var ecdsaNonce: ECDSANonce = .random

    /// The default configuration: a platform authenticator with user verification and
    /// discoverable credentials, no backup, counting signatures, attestation `none`.
    public init() {}

    /// A synced passkey provider: BE and BS set, the signature counter stays 0.
    public static func syncedPasskey() -> AuthenticatorConfiguration {
        var configuration = AuthenticatorConfiguration()
        configuration.backupEligible = true
        configuration.backupState = true
        configuration.usesSignCounter = false
        return configuration
    }
}
