@_spi(Fido2Internals) import Fido2WebAuthnWire

extension RelyingParty {
    /// Begins a registration ceremony: creation options for the browser, with a fresh
    /// challenge, and the state to finish it with.
    ///
    /// ```swift
    /// let registration = try rp.beginRegistration(
    ///     user: PublicKeyCredentialUserEntityJSON(id: userHandle, name: "alice", displayName: "Alice"),
    ///     excludeCredentials: recordsOfThisUser)
    /// // send registration.optionsJSON, keep registration.state
    /// ```
    ///
    /// - Parameters:
    ///   - user: the account; its `id` (the user handle: 1 to 64 random bytes, never an e-mail
    ///     address or a name) becomes the record's ``CredentialRecord/userHandle``.
    ///   - excludeCredentials: the account's existing credentials, so that an authenticator
    ///     already holding one does not make a second (their transports go with them); a
    ///     response creating one of them fails.
    ///   - options: everything else; the defaults suit passkeys (``RegistrationOptions``).
    /// - Returns: the options (``PendingRegistration/optionsJSON``) and the state.
    /// - Throws: `WebAuthnError` with step `§7.1 step 1`: `invalidValue` for a user handle
    ///   of the wrong length, no algorithms or a zero timeout; `invalidRelyingPartyID` for an
    ///   ``RegistrationOptions/relyingPartyID`` not among ``identifiers``;
    ///   `randomGenerationFailed` when the system cannot produce random bytes.
    public func beginRegistration(
        user: PublicKeyCredentialUserEntityJSON, excludeCredentials: [CredentialRecord] = [],
        options: RegistrationOptions = RegistrationOptions()
    ) throws -> PendingRegistration {
        let step = CeremonyStep.Registration.state
        guard (1...64).contains(user.id.count) else {
            throw WebAuthnError.failed(
                .invalidValue, "a user handle has 1 to 64 bytes, this one \(user.id.count)",
                field: "user.id", step: step)
        }
        guard !options.algorithms.isEmpty else {
            throw WebAuthnError.failed(
                .invalidValue, "no algorithm is offered", field: "options.algorithms", step: step)
        }
        guard options.timeout > 0 else {
            throw WebAuthnError.failed(
                .invalidValue, "the timeout is 0 ms", field: "options.timeout", step: step)
        }
        let relyingPartyID = try optionsRelyingPartyID(options.relyingPartyID, step: step)
        let challenge = try CeremonySupport.newChallenge(step: step)
        let excluded = excludeCredentials.map(\.descriptor)
        let creation = PublicKeyCredentialCreationOptionsJSON(
            rp: PublicKeyCredentialRpEntity(name: name, id: relyingPartyID), user: user,
            challenge: challenge,
            pubKeyCredParams: options.algorithms.map {
                PublicKeyCredentialParameters(algorithm: $0)
            },
            timeout: options.timeout, excludeCredentials: excluded,
            authenticatorSelection: AuthenticatorSelectionCriteria(
                authenticatorAttachment: options.authenticatorAttachment,
                residentKey: options.residentKey,
                requireResidentKey: options.residentKey == .required,
                userVerification: options.userVerification),
            hints: options.hints, attestation: options.attestation,
            attestationFormats: options.attestationFormats, extensions: options.extensions)
        let state = RegistrationState(
            challenge: challenge, relyingPartyID: relyingPartyID, user: user,
            userVerification: options.userVerification, algorithms: options.algorithms,
            attestation: options.attestation, excludedCredentials: excluded.map(\.id),
            acceptedAttestationTypes: options.acceptedAttestationTypes,
            extensionPolicy: options.extensionPolicy,
            expiresAt: CeremonySupport.expiry(timeout: options.timeout))
        return PendingRegistration(options: creation, state: state)
    }

    /// Finishes a registration ceremony: verifies the browser's `RegistrationResponseJSON`
    /// against the state (WebAuthn Level 3 §7.1) and returns the credential record to store.
    ///
    /// Before storing the record, check that no account has its ID yet (§7.1 step 26: the
    /// library checks only the IDs the options excluded). Delete the state whatever the
    /// outcome. To see the attestation and the deviations the ``profile`` tolerated, call
    /// ``verifyRegistration(responseJSON:state:)`` instead.
    ///
    /// - Parameters:
    ///   - responseJSON: what `PublicKeyCredential.toJSON()` gave the browser.
    ///   - state: ``PendingRegistration/state`` of the ceremony.
    /// - Returns: the record, with the state's user handle.
    /// - Throws: `WebAuthnError` naming the failed step (`VerificationStep.registrationSteps`):
    ///   `ceremonyExpired` or `ceremonyStateMismatch` at step 1, `credentialExcluded` at step
    ///   26, and the failures of ``verifyRegistration(_:expecting:)``.
    public func finishRegistration(
        responseJSON: String, state: RegistrationState
    ) throws -> CredentialRecord {
        try verifyRegistration(responseJSON: responseJSON, state: state)
            .credentialRecord(userHandle: state.user.id)
    }

    /// Finishes a registration ceremony with the request body as bytes, as a server receives
    /// it, read once; see ``finishRegistration(responseJSON:state:)``.
    ///
    /// - Throws: `WebAuthnError` as ``finishRegistration(responseJSON:state:)``.
    public func finishRegistration(
        responseBytes: [UInt8], state: RegistrationState
    ) throws -> CredentialRecord {
        try verifyRegistration(responseBytes: responseBytes, state: state)
            .credentialRecord(userHandle: state.user.id)
    }

    /// Finishes a registration ceremony with a response already read (by `JSONDecoder`, say);
    /// see ``finishRegistration(responseJSON:state:)``.
    ///
    /// - Throws: `WebAuthnError` as ``finishRegistration(responseJSON:state:)``.
    public func finishRegistration(
        _ response: RegistrationResponseJSON, state: RegistrationState
    ) throws -> CredentialRecord {
        try verifyRegistration(response, state: state).credentialRecord(userHandle: state.user.id)
    }

    /// Verifies a registration response against a ceremony state, as
    /// ``finishRegistration(responseJSON:state:)`` does, and returns everything the
    /// verification established: the attestation, its trust path, the deviations tolerated;
    /// ``VerifiedRegistration/credentialRecord(userHandle:)`` with the state's `user.id` is the
    /// record to store.
    ///
    /// - Throws: `WebAuthnError` as ``finishRegistration(responseJSON:state:)``.
    public func verifyRegistration(
        responseJSON: String, state: RegistrationState
    ) throws -> VerifiedRegistration {
        try verifyRegistration(responseBytes: Array(responseJSON.utf8), state: state)
    }

    /// Verifies a registration response given as the request body's bytes against a ceremony
    /// state; see ``verifyRegistration(responseJSON:state:)``.
    ///
    /// - Throws: `WebAuthnError` as ``finishRegistration(responseJSON:state:)``.
    public func verifyRegistration(
        responseBytes: [UInt8], state: RegistrationState
    ) throws -> VerifiedRegistration {
        let relyingParty = try accepting(state, step: CeremonyStep.Registration.state)
        let response = try atStep(CeremonyStep.Registration.response) { () throws in
            try RegistrationResponseJSON(jsonBytes: responseBytes)
        }
        return try relyingParty.verifyRegistration(response, expecting: state.expectations)
    }

    /// Verifies a registration response already read against a ceremony state; see
    /// ``verifyRegistration(responseJSON:state:)``.
    ///
    /// - Throws: `WebAuthnError` as ``finishRegistration(responseJSON:state:)``.
    public func verifyRegistration(
        _ response: RegistrationResponseJSON, state: RegistrationState
    ) throws -> VerifiedRegistration {
        let relyingParty = try accepting(state, step: CeremonyStep.Registration.state)
        return try relyingParty.verifyRegistration(response, expecting: state.expectations)
    }
}

extension CredentialRecord {
    /// The record as an entry of `excludeCredentials` or `allowCredentials`.
    var descriptor: PublicKeyCredentialDescriptorJSON {
        PublicKeyCredentialDescriptorJSON(
            type: type, id: id, transports: transports.isEmpty ? nil : transports)
    }
}
