@_spi(Fido2Internals) import Fido2WebAuthnWire

extension RelyingParty {
    /// Begins an authentication ceremony: request options for the browser, with a fresh
    /// challenge, and the state to finish it with.
    ///
    /// ```swift
    /// // A known user: their credentials. A discoverable sign-in (passkey autofill): none.
    /// let authentication = try rp.beginAuthentication(allowCredentials: records)
    /// // send authentication.optionsJSON, keep authentication.state
    /// ```
    ///
    /// - Parameters:
    ///   - allowCredentials: the credentials that may answer, with their transports; empty
    ///     (the default) lets the user pick any discoverable credential for the RP ID, and the
    ///     response's `userHandle` then names the account.
    ///   - options: everything else (``AuthenticationOptions``).
    /// - Returns: the options (``PendingAuthentication/optionsJSON``) and the state.
    /// - Throws: `WebAuthnError` with step `§7.2 step 1`: `invalidValue` for a zero timeout,
    ///   `invalidRelyingPartyID` for an ``AuthenticationOptions/relyingPartyID`` not among
    ///   ``identifiers``, `randomGenerationFailed` when the system cannot produce random bytes.
    public func beginAuthentication(
        allowCredentials: [CredentialRecord] = [],
        options: AuthenticationOptions = AuthenticationOptions()
    ) throws -> PendingAuthentication {
        let step = CeremonyStep.Authentication.state
        guard options.timeout > 0 else {
            throw WebAuthnError.failed(
                .invalidValue, "the timeout is 0 ms", field: "options.timeout", step: step)
        }
        let relyingPartyID = try optionsRelyingPartyID(options.relyingPartyID, step: step)
        let challenge = try CeremonySupport.newChallenge(step: step)
        let allowed = allowCredentials.map(\.descriptor)
        let request = PublicKeyCredentialRequestOptionsJSON(
            challenge: challenge, timeout: options.timeout, rpId: relyingPartyID,
            allowCredentials: allowed, userVerification: options.userVerification,
            hints: options.hints, extensions: options.extensions)
        let state = AuthenticationState(
            challenge: challenge, relyingPartyID: relyingPartyID,
            userVerification: options.userVerification, allowedCredentials: allowed.map(\.id),
            extensionPolicy: options.extensionPolicy,
            expiresAt: CeremonySupport.expiry(timeout: options.timeout),
            appID: AuthenticationExpectations.appID(in: options.extensions))
        return PendingAuthentication(options: request, state: state)
    }

    /// Reads which credential an authentication response names, before verifying anything,
    /// so the server can look up its record: by ID, or (in a discoverable sign-in) by user
    /// handle and ID. The reference keeps the parsed response: pass it to
    /// ``finishAuthentication(_:state:credential:)-(CredentialReference,_,_)`` and the body is
    /// read once.
    ///
    /// ```swift
    /// let reference = try rp.credentialReference(responseBytes: body)
    /// guard let record = try store.record(id: reference.credentialId) else { … }
    /// let verified = try rp.finishAuthentication(reference, state: state, credential: record)
    /// ```
    ///
    /// - Parameter responseBytes: the request body, the UTF-8 JSON of
    ///   `PublicKeyCredential.toJSON()`.
    /// - Throws: `WebAuthnError` with step `§7.2 step 3` when the bytes are not an
    ///   `AuthenticationResponseJSON`.
    public func credentialReference(responseBytes: [UInt8]) throws -> CredentialReference {
        CredentialReference(
            response: try atStep(CeremonyStep.Authentication.response) { () throws in
                try AuthenticationResponseJSON(jsonBytes: responseBytes)
            })
    }

    /// Reads which credential an authentication response given as text names; see
    /// ``credentialReference(responseBytes:)``.
    ///
    /// - Throws: `WebAuthnError` with step `§7.2 step 3` when the text is not an
    ///   `AuthenticationResponseJSON`.
    public func credentialReference(responseJSON: String) throws -> CredentialReference {
        try credentialReference(responseBytes: Array(responseJSON.utf8))
    }

    /// Finishes an authentication ceremony with the response a reference was read from
    /// (``credentialReference(responseBytes:)``), without reading the body again; see
    /// ``finishAuthentication(responseJSON:state:credential:)``.
    ///
    /// - Throws: `WebAuthnError` as ``finishAuthentication(responseJSON:state:credential:)``,
    ///   and `invalidValue` at step 3 for a reference made from its parts, which holds no
    ///   response.
    public func finishAuthentication(
        _ reference: CredentialReference, state: AuthenticationState,
        credential: CredentialRecord
    ) throws -> VerifiedAuthentication {
        let relyingParty = try accepting(state, step: CeremonyStep.Authentication.state)
        guard let response = reference.response else {
            throw WebAuthnError.failed(
                .invalidValue,
                "the credential reference was made from its parts and holds no response; read it with credentialReference(responseBytes:)",
                field: "reference", step: CeremonyStep.Authentication.response)
        }
        return try relyingParty.verifyAuthentication(
            response, expecting: state.expectations(credential: credential))
    }

    /// Finishes an authentication ceremony with the request body as bytes, as a server
    /// receives it; see ``finishAuthentication(responseJSON:state:credential:)``.
    ///
    /// - Throws: `WebAuthnError` as ``finishAuthentication(responseJSON:state:credential:)``.
    public func finishAuthentication(
        responseBytes: [UInt8], state: AuthenticationState, credential: CredentialRecord
    ) throws -> VerifiedAuthentication {
        let relyingParty = try accepting(state, step: CeremonyStep.Authentication.state)
        let response = try atStep(CeremonyStep.Authentication.response) { () throws in
            try AuthenticationResponseJSON(jsonBytes: responseBytes)
        }
        return try relyingParty.verifyAuthentication(
            response, expecting: state.expectations(credential: credential))
    }

    /// Finishes an authentication ceremony: verifies the browser's
    /// `AuthenticationResponseJSON` against the state and the credential's record (WebAuthn
    /// Level 3 §7.2).
    ///
    /// Store ``VerifiedAuthentication/updatedRecord`` in place of `credential` (its counter,
    /// backup state and `uvInitialized` moved on) and delete the state whatever the outcome.
    /// A counter that went backwards fails the ceremony (`VerificationRelaxations.acceptsSignCountRegression`
    /// accepts it); credentials that keep no counter (synced passkeys report 0) pass.
    ///
    /// - Parameters:
    ///   - responseJSON: what `PublicKeyCredential.toJSON()` gave the browser.
    ///   - state: ``PendingAuthentication/state`` of the ceremony.
    ///   - credential: the record of the credential the response names
    ///     (``credentialReference(responseJSON:)``).
    /// - Throws: `WebAuthnError` naming the failed step (`VerificationStep.authenticationSteps`):
    ///   `ceremonyExpired` or `ceremonyStateMismatch` at step 1, `credentialNotAllowed` at step
    ///   5 for a credential the options did not allow, and the failures of
    ///   ``verifyAuthentication(_:expecting:)``.
    public func finishAuthentication(
        responseJSON: String, state: AuthenticationState, credential: CredentialRecord
    ) throws -> VerifiedAuthentication {
        try finishAuthentication(
            responseBytes: Array(responseJSON.utf8), state: state, credential: credential)
    }

    /// Finishes an authentication ceremony with a response already read (by `JSONDecoder`,
    /// say); see ``finishAuthentication(responseJSON:state:credential:)``.
    ///
    /// - Throws: `WebAuthnError` as ``finishAuthentication(responseJSON:state:credential:)``.
    public func finishAuthentication(
        _ response: AuthenticationResponseJSON, state: AuthenticationState,
        credential: CredentialRecord
    ) throws -> VerifiedAuthentication {
        let relyingParty = try accepting(state, step: CeremonyStep.Authentication.state)
        return try relyingParty.verifyAuthentication(
            response, expecting: state.expectations(credential: credential))
    }
}
