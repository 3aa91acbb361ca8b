import Fido2CBOR
import Fido2Crypto
@_spi(Fido2Internals) import Fido2WebAuthnWire

/// A WebAuthn relying party: a server's passkeys in two calls per ceremony.
///
/// **Registration**: ``beginRegistration(user:excludeCredentials:options:)`` gives the creation
/// options for the browser and a ``RegistrationState`` to keep server-side;
/// ``finishRegistration(responseBytes:state:)`` verifies the browser's response and returns the
/// ``CredentialRecord`` to store. **Sign-in**: ``beginAuthentication(allowCredentials:options:)``,
/// then ``credentialReference(responseBytes:)`` to find the record and
/// ``finishAuthentication(_:state:credential:)-(CredentialReference,_,_)`` to verify, reading
/// the body once. The value also holds the relying party's identity, the origins it serves, the
/// attestation trust it applies (``trustPolicy``), how literally it reads what authenticators
/// send (``profile``) and the relaxations it knowingly accepts (``relaxations``).
///
/// Underneath, and for callers that keep their own state (the advanced layer),
/// ``verifyRegistration(_:expecting:)`` (WebAuthn Level 3 §7.1) and
/// ``verifyAuthentication(_:expecting:)`` (§7.2) run every step of the procedures, in order, as
/// one call or guard; a failed step throws a `WebAuthnError` whose `step` is the step's number
/// (`§7.1 step 8`) and whose `code` says what failed. The ``VerificationProfile/compatible``
/// profile (the default) reads what deployed authenticators write and reports each deviation
/// it tolerates in the result; no security check is relaxed unless ``relaxations`` says so.
/// Two steps are the caller's, since they need its database: that a new credential ID is not
/// registered yet (§7.1 step 26) and finding the credential record (§7.2 step 6).
///
/// A value is immutable and `Sendable`: build one at start-up and share it.
public struct RelyingParty: Sendable {
    /// The name shown to the user when a credential is created (`rp.name` in the creation
    /// options), such as `Example Bank`.
    public var name: String
    /// The RP IDs whose credentials this relying party accepts: usually one, the registrable
    /// domain given as `rp.id` in the options.
    public var identifiers: [String]
    /// The origins accepted in client data, and the cross-origin policy.
    public var origins: OriginPolicy
    /// The attestation trust anchors, per format, and the validation time.
    public var trustPolicy: AttestationTrustPolicy
    /// How literally responses are read: ``VerificationProfile/compatible`` (the default) or
    /// ``VerificationProfile/strict``.
    public var profile: VerificationProfile
    /// The relaxations knowingly accepted (none by default).
    public var relaxations: VerificationRelaxations
    /// The attestation statement formats verified (every one fido2kit verifies by default).
    public var attestationFormats: AttestationFormatRegistry = .standard

    /// A relying party with RP ID `id`, serving `origins`.
    ///
    /// ```swift
    /// let rp = RelyingParty(
    ///     id: "bank.example.com.br", name: "Example Bank",
    ///     origins: ["https://bank.example.com.br"])
    /// ```
    ///
    /// - Parameters:
    ///   - id: the RP ID: the registrable domain (or a parent domain) of the origins.
    ///   - name: the name shown to users when they create a credential; `id` when nil.
    ///   - origins: the exact origins (`https://bank.example.com.br`) whose client data is
    ///     accepted, compared byte for byte (no wildcards); see ``OriginPolicy`` for native
    ///     apps. Origins on other domains are related origins (WebAuthn Level 3 §5.11): they
    ///     are accepted with this one RP ID, and ``relatedOriginsDocument()`` lists them for
    ///     `/.well-known/webauthn`.
    ///   - crossOrigin: whether a ceremony may run in a cross-origin iframe (forbidden by
    ///     default), and under which top-level origins.
    ///   - trustPolicy: the attestation trust anchors; a ceremony that requests attestation
    ///     also trusts ``WellKnownAttestationRoots`` for their formats unless the policy
    ///     excludes them (``AttestationTrustPolicy/excludingWellKnownRoots()``).
    ///   - profile: how literally responses are read (``VerificationProfile/compatible``).
    ///   - relaxations: the relaxations knowingly accepted (none).
    public init(
        id: String, name: String? = nil, origins: [String],
        crossOrigin: OriginPolicy.CrossOrigin = .forbidden,
        trustPolicy: AttestationTrustPolicy = AttestationTrustPolicy(),
        profile: VerificationProfile = .compatible, relaxations: VerificationRelaxations = []
    ) {
        self.init(
            identifiers: [id], name: name,
            origins: OriginPolicy(allowedOrigins: origins, crossOrigin: crossOrigin),
            trustPolicy: trustPolicy, profile: profile, relaxations: relaxations)
    }

    /// A relying party accepting credentials of any of `identifiers`; the first is the RP ID
    /// its ceremonies put in the options they begin.
    public init(
        identifiers: [String], name: String? = nil, origins: OriginPolicy,
        trustPolicy: AttestationTrustPolicy = AttestationTrustPolicy(),
        profile: VerificationProfile = .compatible, relaxations: VerificationRelaxations = []
    ) {
        self.name = name ?? identifiers.first ?? ""
        self.identifiers = identifiers
        self.origins = origins
        self.trustPolicy = trustPolicy
        self.profile = profile
        self.relaxations = relaxations
    }

    /// The CBOR encoding checks this relying party reports rather than enforces.
    var toleratedCBORChecks: CBORDecodingOptions.Checks {
        profile.toleratedCBORChecks(relaxations)
    }

    /// The trust policy the format verifiers see: ``trustPolicy`` with the format options that
    /// ``relaxations`` turn on and, when the options asked for attestation and the policy
    /// includes them (``AttestationTrustPolicy/includesWellKnownRoots``), the
    /// ``WellKnownAttestationRoots`` of each format beside the caller's anchors for it. An
    /// anchor the caller adds for one format never drops the shipped roots of another.
    func effectiveTrustPolicy(
        requesting attestation: AttestationConveyancePreference
    ) throws(WebAuthnError) -> AttestationTrustPolicy {
        var policy = trustPolicy
        if attestation != .none, policy.includesWellKnownRoots {
            switch WellKnownAttestationRoots.anchorsByFormat {
            case .success(let shipped):
                for (format, roots) in shipped {
                    let configured = policy.anchors[format] ?? []
                    policy.anchors[format] =
                        configured
                        + roots.filter { root in
                            !configured.contains { $0.derEncoded == root.derEncoded }
                        }
                }
            case .failure(let error):
                throw WebAuthnError(
                    crypto: error, .attestationTrustPathInvalid,
                    field: "trustPolicy.anchors"
                ).attributed(to: CeremonyStep.Registration.trust)
            }
        }
        if relaxations.contains(.skipsSafetyNetTimestampCheck) {
            policy.androidSafetyNet.skipsTimestampCheck = true
        }
        if relaxations.contains(.acceptsSafetyNetCTSProfileMismatch) {
            policy.androidSafetyNet.acceptsCTSProfileMismatch = true
        }
        if relaxations.contains(.acceptsAndroidKeyMissingOriginAndPurpose) {
            policy.androidKey.acceptsMissingOriginAndPurpose = true
        }
        if relaxations.contains(.acceptsAndroidKeySoftwareEnforcedAuthorizations) {
            policy.androidKey.acceptsSoftwareEnforcedAuthorizations = true
        }
        return policy
    }

    // MARK: Steps both ceremonies share

    /// The client-data steps both ceremonies share (§7.1 steps 5–11, §7.2 steps 8–14): parse
    /// clientDataJSON, refuse a bad token binding, check the type and (in constant time) the
    /// challenge, then the origins. Returns the parsed client data and the matched origin.
    func checkClientData(
        _ bytes: [UInt8], type: ClientDataType, challenge: [UInt8],
        steps: (
            clientData: VerificationStep, type: VerificationStep, challenge: VerificationStep,
            origin: VerificationStep, cross: VerificationStep, top: VerificationStep
        ),
        deviations: inout [ToleratedDeviation]
    ) throws(WebAuthnError) -> (clientDataJSON: ClientDataJSON, origin: String) {
        let clientDataJSON = try atStep(steps.clientData) { () throws in
            try ClientDataJSON(bytes: bytes)
        }
        let clientData = clientDataJSON.clientData
        switch profile {
        case .strict: try Self.checkTokenBinding(clientData, step: steps.clientData)
        case .compatible:
            if let deviation = Self.ignoredTokenBinding(clientData) { deviations.append(deviation) }
        }
        guard clientData.type.rawValue.utf8.elementsEqual(type.rawValue.utf8) else {
            throw WebAuthnError.failed(
                .clientDataTypeMismatch,
                "type is \(quotedInput(clientData.type.rawValue)), expected \"\(type.rawValue)\"",
                field: "clientDataJSON.type", step: steps.type)
        }
        guard ConstantTime.equals(clientData.challenge, challenge) else {
            throw WebAuthnError.failed(
                .challengeMismatch, "the challenge is not the one the relying party issued",
                field: "clientDataJSON.challenge", step: steps.challenge)
        }
        let origin = try checkOrigins(
            clientData, steps: (steps.origin, steps.cross, steps.top))
        return (clientDataJSON, origin)
    }

    /// `C.origin`, `C.crossOrigin` and `C.topOrigin` (§7.1 steps 9–11, §7.2 steps 12–14).
    /// Returns the matched origin.
    func checkOrigins(
        _ clientData: CollectedClientData,
        steps: (origin: VerificationStep, cross: VerificationStep, top: VerificationStep)
    ) throws(WebAuthnError) -> String {
        // §7.1 step 9 / §7.2 step 12: the origin is one the relying party expects.
        guard let origin = origins.match(clientData.origin) else {
            throw WebAuthnError.failed(
                .originNotAllowed,
                "origin \(quotedInput(clientData.origin)) is not an allowed origin",
                field: "clientDataJSON.origin", step: steps.origin)
        }
        // §7.1 step 10 / §7.2 step 13: a cross-origin iframe only where one is expected.
        guard !clientData.crossOrigin || origins.allowsCrossOrigin else {
            throw WebAuthnError.failed(
                .crossOriginNotAllowed, "crossOrigin is true; cross-origin iframes are forbidden",
                field: "clientDataJSON.crossOrigin", step: steps.cross)
        }
        // §7.1 step 11 / §7.2 step 14: topOrigin, when present, is an expected embedding page.
        if let topOrigin = clientData.topOrigin, !origins.allowsTopOrigin(topOrigin) {
            throw WebAuthnError.failed(
                .crossOriginNotAllowed,
                origins.allowsCrossOrigin
                    ? "topOrigin \(quotedInput(topOrigin)) is not an allowed top-level origin"
                    : "topOrigin \(quotedInput(topOrigin)) is present; cross-origin iframes are forbidden",
                field: "clientDataJSON.topOrigin", step: steps.top)
        }
        return origin
    }

    /// The RP ID whose SHA-256 is `rpIdHash` (§7.1 step 14, §7.2 step 15).
    func relyingPartyID(
        matching rpIdHash: ArraySlice<UInt8>, step: VerificationStep
    ) throws(WebAuthnError) -> String {
        for identifier in identifiers {
            let matches = DigestAlgorithm.sha256.withHash(of: identifier.utf8) {
                $0.elementsEqual(rpIdHash)
            }
            if matches { return identifier }
        }
        throw WebAuthnError.failed(
            .rpIdHashMismatch,
            "rpIdHash is not the SHA-256 of \(identifiers.map { "\"\($0)\"" }.joined(separator: " or "))",
            field: "authenticatorData.rpIdHash", step: step)
    }

    /// The strict profile's check of a Level 1 or 2 client's `tokenBinding`: when sent as an
    /// object, it must carry a `TokenBindingStatus` (`present` or `supported`). Part of
    /// reading C (§7.1 step 6, §7.2 step 9). Level 3 keeps the member reserved and checks it
    /// no more; the compatible profile ignores it (``ignoredTokenBinding(_:)``).
    static func checkTokenBinding(
        _ clientData: CollectedClientData, step: VerificationStep
    ) throws(WebAuthnError) {
        guard let tokenBinding = clientData.tokenBinding else { return }
        let status = tokenBinding.status
        guard
            status.utf8.elementsEqual("present".utf8) || status.utf8.elementsEqual("supported".utf8)
        else {
            throw WebAuthnError.failed(
                .invalidValue,
                "tokenBinding.status \(quotedInput(status)) is not a TokenBindingStatus (present, supported)",
                field: "clientDataJSON.tokenBinding.status", step: step)
        }
    }

    /// The compatible profile ignores `tokenBinding` whatever its status, as Level 3 does (it
    /// keeps the member name reserved); a status other than `present` or `supported` (an
    /// early Edge's `not-supported`) is reported, so that the strict profile's refusal is
    /// never silently skipped. Returns nil for an absent member or a Level 2 status.
    static func ignoredTokenBinding(_ clientData: CollectedClientData) -> ToleratedDeviation? {
        guard let status = clientData.tokenBinding?.status else { return nil }
        if status.utf8.elementsEqual("present".utf8) || status.utf8.elementsEqual("supported".utf8)
        {
            return nil
        }
        return ToleratedDeviation(
            kind: .tokenBindingIgnored, field: "clientDataJSON.tokenBinding.status",
            detail:
                "tokenBinding.status \(quotedInput(status)) is not a TokenBindingStatus (present, supported); Level 3 ignores Token Binding"
        )
    }
}
