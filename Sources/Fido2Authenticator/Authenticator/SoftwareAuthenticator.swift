import Fido2Crypto
import Fido2Encoding
import Fido2WebAuthnWire

/// A software WebAuthn authenticator together with the client (browser) part of the
/// ceremonies: it takes the relying party's options JSON and an origin, and answers with the
/// `RegistrationResponseJSON` or `AuthenticationResponseJSON` a browser would hand back. It can
/// stand in for a phone or a security key in tests and CI.
///
/// What it does, per ceremony:
/// - **Registration** (``makeCredential(options:origin:topOrigin:)``): checks the RP ID
///   against the origin (``RelyingPartyIDPolicy``), picks the first algorithm of the relying
///   party's `pubKeyCredParams` that ``AuthenticatorConfiguration/supportedAlgorithms``
///   contains (ES256 and RS256 when the list is empty, as clients do), refuses when it holds a
///   credential of `excludeCredentials` for the RP ID, honours `userVerification` and
///   `residentKey`/`requireResidentKey`, makes the key and a random credential ID, writes the
///   authenticator data (UP, UV, BE, BS as configured), the clientDataJSON, the attestation
///   (none, packed self, packed full, or fido-u2f) and stores the credential. The credProps
///   client extension is answered when asked for.
/// - **Authentication** (``getAssertion(options:origin:topOrigin:)``): finds the first
///   credential of `allowCredentials` it holds for the RP ID, or with an empty list the first
///   discoverable credential for it (in the store's order), advances its signature counter
///   and commits it to the store in one atomic read-modify-write (unless it uses none, as
///   synced passkeys), signs authenticatorData ‖ SHA-256(clientDataJSON), and answers with the
///   user handle.
///
/// Every failure it makes is an ``AuthenticatorError``; the store's errors reach the caller as
/// the store throws them (``AuthenticatorError`` for the stores of this module). A registration stores nothing until every signature
/// has been made. An assertion commits its counter before it signs, so that concurrent
/// assertions never hand out one value twice: a failure after the commit (the signature, or the
/// caller's delivery of the response) leaves a gap in the counter, which relying parties
/// accept, never a repeat, which they take for a cloned authenticator.
public struct SoftwareAuthenticator: Sendable {
    /// How it behaves.
    public let configuration: AuthenticatorConfiguration
    /// Where its credentials live.
    public let store: any CredentialStore
    /// The last origin and RP ID accepted (shared by copies of this value).
    private let relyingParties = RelyingPartyMemo()

    /// An authenticator with `configuration` keeping credentials in `store`.
    public init(configuration: AuthenticatorConfiguration = .init(), store: any CredentialStore) {
        self.configuration = configuration
        self.store = store
    }

    // MARK: Registration

    /// Creates a credential from creation options JSON (`PublicKeyCredentialCreationOptionsJSON`).
    ///
    /// - Throws: ``AuthenticatorError``: ``AuthenticatorError/Code/invalidOptions`` carrying
    ///   the JSON form's `WebAuthnError`; then as ``makeCredential(options:origin:topOrigin:)``.
    public func makeCredential(
        optionsJSON: [UInt8], origin: String, topOrigin: String? = nil
    )
        throws -> RegistrationResponseJSON
    {
        let options = try buildingStructures {
            try PublicKeyCredentialCreationOptionsJSON(jsonBytes: optionsJSON)
        }
        return try makeCredential(options: options, origin: origin, topOrigin: topOrigin)
    }

    /// Creates a credential.
    ///
    /// - Parameters:
    ///   - options: the relying party's creation options: its RP ID (the origin's host when
    ///     absent), the algorithms it accepts, the credentials to exclude and the authenticator
    ///     selection (user verification, resident key).
    ///   - origin: the caller's origin, written into clientDataJSON.
    ///   - topOrigin: for a call from a cross-origin iframe, the top-level origin
    ///     (`crossOrigin` is then true).
    /// - Throws: ``AuthenticatorError``: `invalidOrigin`; `invalidRelyingPartyID`;
    ///   `noSupportedAlgorithm`; `credentialExcluded`; `userVerificationUnavailable`;
    ///   `residentKeyUnavailable`; `keyGenerationFailed`; `signingFailed`; `invalidOptions`
    ///   when a structure built from the options breaks the WebAuthn rules; the store's errors
    ///   (`credentialExists`, `storageFailure`).
    public func makeCredential(
        options: PublicKeyCredentialCreationOptionsJSON, origin: String, topOrigin: String? = nil
    ) throws -> RegistrationResponseJSON {
        let relyingParty = try relyingParties.resolve(origin: origin, requestedID: options.rp.id)
        let relyingPartyID = relyingParty.relyingPartyID
        let (algorithm, kind) = try chooseAlgorithm(options.pubKeyCredParams)
        for descriptor in options.excludeCredentials where descriptor.type == "public-key" {
            if let held = try store.credential(id: descriptor.id),
                held.relyingPartyID == relyingPartyID
            {
                throw AuthenticatorError(
                    .credentialExcluded,
                    "the authenticator holds excluded credential \(Base64URL.encode(descriptor.id))",
                    field: "excludeCredentials")
            }
        }
        let selection = options.authenticatorSelection ?? AuthenticatorSelectionCriteria()
        let userVerified = try userVerification(selection.userVerification)
        let discoverable = try discoverability(selection)

        var flags: AuthenticatorDataFlags = [.userPresent]
        var backupEligible = configuration.backupEligible
        var backupState = configuration.backupEligible && configuration.backupState
        if case .fidoU2F = configuration.attestation {
            backupEligible = false
            backupState = false
        } else {
            if userVerified { flags.insert(.userVerified) }
            if backupEligible { flags.insert(.backupEligible) }
            if backupState { flags.insert(.backupState) }
        }

        let privateKey = try CredentialKeyFactory.generate(kind, random: configuration.random)
        let coseKey: COSEKey
        let encoded: (cose: [UInt8], spki: [UInt8])
        do {
            coseKey = try COSEKey(publicKey: try privateKey.publicKey, algorithm: algorithm)
            encoded = try CredentialPublicKeyEncoding.encode(coseKey)
        } catch {
            throw AuthenticatorError(crypto: error, .keyGenerationFailed)
        }
        let credentialId = try CredentialKeyFactory.randomBytes(
            configuration.credentialIdLength, random: configuration.random)
        let (authenticatorData, clientDataJSON, statement) = try buildingStructures {
            let attested = try AttestedCredentialData(
                aaguid: configuration.aaguid, credentialId: credentialId, key: coseKey,
                encoded: encoded.cose)
            let authenticatorData = try AuthenticatorData(
                rpIdHash: relyingParty.rpIdHash, flags: flags, signCount: 0,
                attestedCredentialData: attested)
            let clientDataJSON = try CollectedClientData(
                type: .create, challenge: options.challenge,
                origin: relyingParty.webOrigin.serialized, crossOrigin: topOrigin != nil,
                topOrigin: topOrigin
            ).jsonBytes()
            let statement = try attestationStatement(
                authenticatorData, Self.sha256(clientDataJSON), privateKey, algorithm)
            return (authenticatorData, clientDataJSON, statement)
        }
        let attestationObject = AttestationObject(
            authenticatorData: authenticatorData, statement: statement)
        try store.add(
            StoredCredential(
                id: credentialId, relyingPartyID: relyingPartyID, userHandle: options.user.id,
                userName: options.user.name, userDisplayName: options.user.displayName,
                privateKey: privateKey, algorithm: algorithm, signCount: 0,
                isDiscoverable: discoverable, backupEligible: backupEligible,
                backupState: backupState, usesSignCounter: configuration.usesSignCounter))

        var extensionResults = JSONObject()
        if options.extensions?["credProps"]?.boolValue == true {
            extensionResults.append("credProps", .object(["rk": .bool(discoverable)]))
        }
        return RegistrationResponseJSON(
            rawId: credentialId,
            response: AuthenticatorAttestationResponseJSON(
                clientDataJSON: clientDataJSON, authenticatorData: Array(authenticatorData.bytes),
                transports: configuration.transports, publicKey: encoded.spki,
                publicKeyAlgorithm: algorithm.rawValue,
                attestationObject: Array(attestationObject.bytes)),
            authenticatorAttachment: configuration.attachment,
            clientExtensionResults: extensionResults)
    }

    /// The first requested algorithm this authenticator supports, and its key kind.
    private func chooseAlgorithm(
        _ parameters: [PublicKeyCredentialParameters]
    )
        throws(AuthenticatorError) -> (COSEAlgorithm, KeyKind)
    {
        let requested =
            parameters.isEmpty
            ? [COSEAlgorithm.es256, .rs256]
            : parameters.filter { $0.type == "public-key" }.map { COSEAlgorithm(rawValue: $0.alg) }
        var supported = configuration.supportedAlgorithms
        if case .fidoU2F = configuration.attestation {
            supported = supported.filter { $0 == .es256 }
        }
        for algorithm in requested where supported.contains(algorithm) {
            if let kind = CredentialKeyFactory.kind(
                for: algorithm, rsaModulusBits: configuration.rsaModulusBits)
            {
                return (algorithm, kind)
            }
        }
        throw AuthenticatorError(
            .noSupportedAlgorithm,
            "none of \(requested.map(\.description)) is supported (\(supported.map(\.description)))",
            field: "pubKeyCredParams")
    }

    /// Whether to set UV for `requirement`.
    private func userVerification(
        _ requirement: UserVerificationRequirement
    )
        throws(AuthenticatorError) -> Bool
    {
        switch requirement {
        case .required:
            guard configuration.supportsUserVerification else {
                throw AuthenticatorError(
                    .userVerificationUnavailable,
                    "user verification is required; this authenticator has none",
                    field: "userVerification")
            }
            return true
        case .discouraged: return false
        default: return configuration.supportsUserVerification
        }
    }

    /// Whether the new credential is discoverable.
    private func discoverability(
        _ selection: AuthenticatorSelectionCriteria
    )
        throws(AuthenticatorError) -> Bool
    {
        let requirement =
            selection.residentKey ?? (selection.requireResidentKey ? .required : .discouraged)
        switch requirement {
        case .required:
            guard configuration.supportsDiscoverableCredentials else {
                throw AuthenticatorError(
                    .residentKeyUnavailable,
                    "a discoverable credential is required; this authenticator makes none",
                    field: "authenticatorSelection.residentKey")
            }
            return true
        case .preferred: return configuration.supportsDiscoverableCredentials
        default: return false
        }
    }

    /// The attestation statement the configuration asks for.
    ///
    /// - Throws: the structures' `WebAuthnError` (`signingFailed`, `invalidValue`), which
    ///   ``buildingStructures(_:)`` reports as ``AuthenticatorError``.
    private func attestationStatement(
        _ authenticatorData: AuthenticatorData, _ clientDataHash: [UInt8],
        _ credentialKey: PrivateKey, _ algorithm: COSEAlgorithm
    ) throws -> AttestationStatement {
        switch configuration.attestation {
        case .none:
            return .none
        case .packedSelf:
            return .packed(
                try .selfAttestation(
                    authenticatorData: authenticatorData, clientDataHash: clientDataHash,
                    credentialKey: credentialKey, algorithm: algorithm,
                    nonce: configuration.ecdsaNonce))
        case .packed(let attestationKey, let chain):
            return .packed(
                try .fullAttestation(
                    authenticatorData: authenticatorData, clientDataHash: clientDataHash,
                    attestationKey: attestationKey, certificates: chain,
                    nonce: configuration.ecdsaNonce))
        case .fidoU2F(let attestationKey, let certificate):
            return .fidoU2F(
                try .signing(
                    authenticatorData: authenticatorData, clientDataHash: clientDataHash,
                    attestationKey: attestationKey, certificate: certificate,
                    nonce: configuration.ecdsaNonce))
        }
    }

    // MARK: Authentication

    /// Makes an assertion from request options JSON (`PublicKeyCredentialRequestOptionsJSON`).
    ///
    /// - Throws: ``AuthenticatorError``: ``AuthenticatorError/Code/invalidOptions`` carrying
    ///   the JSON form's `WebAuthnError`; then as ``getAssertion(options:origin:topOrigin:)``.
    public func getAssertion(
        optionsJSON: [UInt8], origin: String, topOrigin: String? = nil
    )
        throws -> AuthenticationResponseJSON
    {
        let options = try buildingStructures {
            try PublicKeyCredentialRequestOptionsJSON(jsonBytes: optionsJSON)
        }
        return try getAssertion(options: options, origin: origin, topOrigin: topOrigin)
    }

    /// Makes an assertion.
    ///
    /// - Throws: ``AuthenticatorError``: `invalidOrigin`; `invalidRelyingPartyID`;
    ///   `noMatchingCredential` (none of `allowCredentials` is held for the RP ID);
    ///   `noDiscoverableCredential` (empty `allowCredentials`, no discoverable credential);
    ///   `userVerificationUnavailable`; `signCountExhausted`; `signingFailed`; `invalidOptions`
    ///   when a structure built from the options breaks the WebAuthn rules; the store's errors
    ///   (`corruptCredential`, `storageFailure`).
    public func getAssertion(
        options: PublicKeyCredentialRequestOptionsJSON, origin: String, topOrigin: String? = nil
    ) throws -> AuthenticationResponseJSON {
        let relyingParty = try relyingParties.resolve(origin: origin, requestedID: options.rpId)
        let relyingPartyID = relyingParty.relyingPartyID
        var credential = try findCredential(options.allowCredentials, relyingPartyID)
        let userVerified = try userVerification(options.userVerification)
        let clientDataJSON = try buildingStructures {
            try CollectedClientData(
                type: .get, challenge: options.challenge,
                origin: relyingParty.webOrigin.serialized, crossOrigin: topOrigin != nil,
                topOrigin: topOrigin
            ).jsonBytes()
        }
        if credential.usesSignCounter {
            // One read-modify-write under the store's lock: the counter is read fresh, advanced
            // and committed before anything is signed, so assertions made at once never share a
            // value. A failure after this leaves a gap in the counters, never a repeat.
            credential = try store.update(id: credential.id) {
                (stored) throws(AuthenticatorError) in
                guard stored.signCount < UInt32.max else {
                    throw AuthenticatorError(
                        .signCountExhausted, "the signature counter is at its maximum",
                        field: "signCount")
                }
                stored.signCount += 1
            }
        }

        var flags: AuthenticatorDataFlags = [.userPresent]
        if userVerified { flags.insert(.userVerified) }
        if credential.backupEligible { flags.insert(.backupEligible) }
        if credential.backupEligible && credential.backupState { flags.insert(.backupState) }
        let signCount = credential.usesSignCounter ? credential.signCount : 0
        let authenticatorData = try buildingStructures {
            try AuthenticatorData(
                rpIdHash: relyingParty.rpIdHash, flags: flags, signCount: signCount)
        }
        let signature = try signWithClientDataHash(
            authenticatorData.bytes, clientDataJSON, key: credential.privateKey,
            algorithm: credential.algorithm)
        return AuthenticationResponseJSON(
            rawId: credential.id,
            response: AuthenticatorAssertionResponseJSON(
                clientDataJSON: clientDataJSON, authenticatorData: Array(authenticatorData.bytes),
                signature: signature, userHandle: credential.userHandle),
            authenticatorAttachment: configuration.attachment)
    }

    private func findCredential(
        _ allowed: [PublicKeyCredentialDescriptorJSON], _ relyingPartyID: String
    ) throws -> StoredCredential {
        if allowed.isEmpty {
            guard
                let credential = try store.credentials(relyingPartyID: relyingPartyID).first(
                    where: \.isDiscoverable)
            else {
                throw AuthenticatorError(
                    .noDiscoverableCredential,
                    "allowCredentials is empty and no discoverable credential is held for \(relyingPartyID)",
                    field: "allowCredentials")
            }
            return credential
        }
        for descriptor in allowed where descriptor.type == "public-key" {
            if let credential = try store.credential(id: descriptor.id),
                credential.relyingPartyID == relyingPartyID
            {
                return credential
            }
        }
        throw AuthenticatorError(
            .noMatchingCredential,
            "none of the \(allowed.count) allowed credentials is held for \(relyingPartyID)",
            field: "allowCredentials")
    }

    private static func sha256(_ bytes: [UInt8]) -> [UInt8] {
        DigestAlgorithm.sha256.hash(bytes)
    }

    /// The signature over `authenticatorData ‖ SHA-256(clientDataJSON)`, with the hash kept on
    /// the stack (an assertion needs it only for the signature).
    private func signWithClientDataHash(
        _ authenticatorData: ArraySlice<UInt8>, _ clientDataJSON: [UInt8], key: PrivateKey,
        algorithm: COSEAlgorithm
    ) throws(AuthenticatorError) -> [UInt8] {
        let nonce = configuration.ecdsaNonce
        do {
            return try DigestAlgorithm.sha256.withHash(of: clientDataJSON) {
                (clientDataHash) throws in
                try key.signature(
                    for: authenticatorData, clientDataHash, algorithm: algorithm, nonce: nonce)
            }
        } catch {
            throw AuthenticatorError(crypto: error, .signingFailed, field: "alg")
        }
    }
}
