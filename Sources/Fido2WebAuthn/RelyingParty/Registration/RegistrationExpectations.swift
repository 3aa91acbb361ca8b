import Fido2Crypto
@_spi(Fido2Internals) import Fido2WebAuthnWire

/// What a relying party expects of one registration ceremony: what it put in the
/// `PublicKeyCredentialCreationOptions` and what it will accept back.
public struct RegistrationExpectations: Sendable, Hashable {
    /// The algorithms verified by default, in the order of their COSE registry preference
    /// (EdDSA and ECDSA first): the default `allowedAlgorithms`.
    ///
    /// Two algorithms this library verifies are left out and are accepted only when the
    /// caller lists them: RS1 (SHA-1) and ES256K (-47, ECDSA on secp256k1). RFC 8812 registers
    /// ES256K with "Recommended: No", WebAuthn Level 3's examples offer ES256, EdDSA and RS256,
    /// and the peer libraries' default parameter lists (go-webauthn, py_webauthn,
    /// SimpleWebAuthn) leave it out: following them, a relying party that wants secp256k1
    /// credentials adds `.es256K` to `allowedAlgorithms` (command line:
    /// `--allow-algorithm ES256K`).
    public static let supportedAlgorithms: [COSEAlgorithm] = [
        .edDSA, .ed25519, .ed448, .es256, .es384, .es512, .ps256, .ps384, .ps512, .rs256,
        .rs384, .rs512,
    ]

    /// Every attestation type: the default `acceptedAttestationTypes`.
    public static let allAttestationTypes: Set<AttestationType> = [
        .none, .selfAttestation, .basic, .attestationCA, .anonymizationCA,
    ]

    /// The challenge sent in the options (compared in constant time, §7.1 step 8).
    public var challenge: [UInt8]
    /// Whether the UV flag must be set (`userVerification: "required"`, §7.1 step 16).
    public var requiresUserVerification: Bool
    /// The algorithms of `pubKeyCredParams` (§7.1 step 20).
    public var allowedAlgorithms: [COSEAlgorithm]
    /// The attestation types acceptable under the relying party's policy (§7.1 step 24).
    public var acceptedAttestationTypes: Set<AttestationType>
    /// Which extension outputs may appear (§7.1 step 28).
    public var extensions: ExtensionPolicy
    /// The attestation the options asked for. When it is not `none` and the relying party's
    /// ``AttestationTrustPolicy`` has no anchors at all, the chains are judged against
    /// ``WellKnownAttestationRoots`` (step 23); with `none` (the default) a chain without
    /// anchors is reported as ``TrustPathEvaluation/notEvaluated(reason:)``.
    public var attestation: AttestationConveyancePreference
    /// The credential IDs of `excludeCredentials`: a response creating one of them fails step
    /// 26 with `WebAuthnError.Code.credentialExcluded`.
    public var excludedCredentials: [[UInt8]]

    /// Expectations for a ceremony that sent `challenge`.
    public init(
        challenge: [UInt8], requiresUserVerification: Bool = false,
        allowedAlgorithms: [COSEAlgorithm] = supportedAlgorithms,
        acceptedAttestationTypes: Set<AttestationType> = allAttestationTypes,
        extensions: ExtensionPolicy = .acceptAll,
        attestation: AttestationConveyancePreference = .none, excludedCredentials: [[UInt8]] = []
    ) {
        self.challenge = challenge
        self.requiresUserVerification = requiresUserVerification
        self.allowedAlgorithms = allowedAlgorithms
        self.acceptedAttestationTypes = acceptedAttestationTypes
        self.extensions = extensions
        self.attestation = attestation
        self.excludedCredentials = excludedCredentials
    }

    /// Expectations read from the options the relying party sent: the challenge, UV required
    /// when `authenticatorSelection.userVerification` is `required`, the `public-key`
    /// algorithms of `pubKeyCredParams` (ES256 and RS256 when it is empty, as clients then
    /// assume), the attestation conveyance and the IDs of `excludeCredentials`.
    public init(
        options: PublicKeyCredentialCreationOptionsJSON,
        acceptedAttestationTypes: Set<AttestationType> = allAttestationTypes,
        extensions: ExtensionPolicy = .acceptAll
    ) {
        let parameters = options.pubKeyCredParams
        self.init(
            challenge: options.challenge,
            requiresUserVerification: options.authenticatorSelection?.userVerification
                == .required,
            allowedAlgorithms: parameters.isEmpty
                ? [.es256, .rs256]
                : parameters.filter { $0.type == "public-key" }.map {
                    COSEAlgorithm(rawValue: $0.alg)
                },
            acceptedAttestationTypes: acceptedAttestationTypes, extensions: extensions,
            attestation: options.attestation,
            excludedCredentials: options.excludeCredentials.filter { $0.type == "public-key" }
                .map(\.id))
    }
}
