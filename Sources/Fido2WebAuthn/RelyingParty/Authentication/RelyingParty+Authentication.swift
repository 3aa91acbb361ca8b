import Fido2Crypto
import Fido2Encoding
@_spi(Fido2Internals) import Fido2WebAuthnWire

extension RelyingParty {
    /// Verifies an assertion (WebAuthn Level 3 §7.2) made with `expected.credential`.
    ///
    /// The steps run in the order of `VerificationStep.authenticationSteps`, each failing with
    /// its number in `WebAuthnError.step` and one of the codes that table lists for it; the
    /// signature counter fails the ceremony when it did not advance (unless the relaxation
    /// `VerificationRelaxations.acceptsSignCountRegression` is on; the verdict then says
    /// ``SignCountVerdict/possibleClone(stored:received:)``). What the ``profile`` or a relaxation tolerated is listed in
    /// ``VerifiedAuthentication/deviations``.
    ///
    /// The signature is checked over authenticatorData and SHA-256(clientDataJSON) as two
    /// pieces, never concatenated, with the record's key and algorithm (any this library
    /// supports).
    ///
    /// - Throws: `WebAuthnError` naming the failed step.
    public func verifyAuthentication(
        _ credential: AuthenticationResponseJSON, expecting expected: AuthenticationExpectations
    ) throws -> VerifiedAuthentication {
        typealias Step = CeremonyStep.Authentication
        let response = credential.response
        let record = expected.credential
        var deviations: [ToleratedDeviation] = []
        // §7.2 step 5: the credential is one of allowCredentials, when the options listed any.
        guard
            expected.allowCredentials.isEmpty
                || expected.allowCredentials.contains(where: { $0 == credential.rawId })
        else {
            throw WebAuthnError.failed(
                .credentialNotAllowed, "the credential is not in allowCredentials", field: "rawId",
                step: Step.allowCredentials)
        }
        // §7.2 step 6: the credential record is the one of rawId, and userHandle is its user's.
        guard record.id == credential.rawId else {
            throw WebAuthnError.failed(
                .credentialNotAllowed, "rawId is not the credential record's ID", field: "rawId",
                step: Step.credentialRecord)
        }
        try Self.checkUserHandle(response.userHandle, of: record, expected.userIdentification)
        // §7.2 step 7: authData, parsed (the decoder enforces step 18, BS only with BE).
        let authData = try decodeAuthenticatorData(
            response.authenticatorData, deviations: &deviations)
        // §7.2 steps 8–14: client data parsed; type webauthn.get; challenge; origin,
        // crossOrigin, topOrigin.
        let (clientDataJSON, origin) = try checkClientData(
            response.clientDataJSON, type: .get, challenge: expected.challenge,
            steps: (
                Step.clientData, Step.type, Step.challenge, Step.origin, Step.crossOrigin,
                Step.topOrigin
            ), deviations: &deviations)
        // §7.2 step 15: rpIdHash is SHA-256 of an expected RP ID, or of the AppID when the
        // options asked for appid and the client reports it used it (§10.1.1).
        let relyingPartyID = try relyingPartyID(
            matching: authData.rpIdHash, appID: expected.appID,
            used: credential.clientExtensionResults["appid"])
        // §7.2 step 16: UP is set.
        guard authData.flags.contains(.userPresent) else {
            throw WebAuthnError.failed(
                .userPresenceMissing, "the UP flag is clear", field: "authenticatorData.flags",
                step: Step.userPresence)
        }
        // §7.2 step 17: UV is set when user verification is required.
        guard authData.flags.contains(.userVerified) || !expected.requiresUserVerification else {
            throw WebAuthnError.failed(
                .userVerificationMissing, "user verification is required but the UV flag is clear",
                field: "authenticatorData.flags", step: Step.userVerification)
        }
        // §7.2 step 18: BS only with BE — enforced by the decoder (step 7), reported as 18.
        // §7.2 step 19: BE against the one recorded ("apply Relying Party policy"). Platforms
        // that sync a credential after making it flip BE from 0 to 1: the compatible profile
        // accepts that, reports it and stores the new BE. BE going from 1 to 0 (and, under the
        // strict profile, either change) fails unless the relying party names the relaxation.
        let backupEligible = authData.flags.contains(.backupEligible)
        if backupEligible != record.backupEligible {
            let relaxation = VerificationRelaxations.acceptsBackupEligibilityChange
            let reason =
                "BE is \(backupEligible), the credential was registered with \(record.backupEligible)"
            if relaxations.contains(relaxation) {
                deviations.append(
                    ToleratedDeviation(
                        kind: .relaxedCheck, field: "authenticatorData.flags", detail: reason,
                        relaxation: relaxation))
            } else if backupEligible, profile == .compatible {
                deviations.append(
                    ToleratedDeviation(
                        kind: .backupEligibilityGained, field: "authenticatorData.flags",
                        detail: reason + " (a credential that became eligible for backup)"))
            } else {
                throw WebAuthnError.failed(
                    .backupEligibilityChanged, reason + VerificationRelaxations.hint(relaxation),
                    field: "authenticatorData.flags", step: Step.backupEligibility)
            }
        }
        // §7.2 steps 20–21: sig over authData ‖ SHA-256(cData) with the record's key.
        try Self.checkSignature(
            response.signature, authenticatorData: authData.bytes,
            clientDataJSON: clientDataJSON.bytes, key: record.publicKey)
        // §7.2 step 22: the signature counter. A counter that did not advance (while either is
        // non-zero) fails unless the relying party knowingly accepts it.
        let verdict = SignCountVerdict(stored: record.signCount, received: authData.signCount)
        if case .possibleClone = verdict {
            let relaxation = VerificationRelaxations.acceptsSignCountRegression
            let reason =
                "the signature counter \(authData.signCount) is not greater than the stored \(record.signCount)"
            guard relaxations.contains(relaxation) else {
                throw WebAuthnError.failed(
                    .signCountRegressed, reason + VerificationRelaxations.hint(relaxation),
                    field: "authenticatorData.signCount", step: Step.signCount)
            }
            deviations.append(
                ToleratedDeviation(
                    kind: .relaxedCheck, field: "authenticatorData.signCount", detail: reason,
                    relaxation: relaxation))
        }
        // §7.2 step 23: the extension outputs are as expected.
        if let refused = expected.extensions.refused(authData.extensions) {
            throw WebAuthnError.failed(
                .extensionNotAllowed, "the extension output \(quotedInput(refused)) is not allowed",
                field: "authenticatorData.extensions", step: Step.extensions)
        }
        return VerifiedAuthentication(
            credentialId: credential.rawId, signCount: authData.signCount,
            signCountVerdict: verdict, flags: authData.flags, userHandle: response.userHandle,
            extensions: authData.extensions,
            clientExtensionResults: credential.clientExtensionResults, origin: origin,
            relyingPartyID: relyingPartyID, deviations: deviations,
            updatedRecord: Self.updating(record, with: authData))
    }

    /// §7.2 step 24: `record` with the state `authData` brings: the counter, BS, BE (when step
    /// 19 accepted a change) and `uvInitialized`. The counter never goes down: a regression the relying party accepted
    /// (`VerificationRelaxations.acceptsSignCountRegression`) is reported and leaves the
    /// stored counter as it was, so that the next assertion is still compared with the
    /// highest value seen and clone detection stays on.
    private static func updating(
        _ record: CredentialRecord, with authData: AuthenticatorData
    ) -> CredentialRecord {
        var updated = record
        updated.signCount = max(record.signCount, authData.signCount)
        updated.backupState = authData.flags.contains(.backupState)
        updated.backupEligible = authData.flags.contains(.backupEligible)
        if authData.flags.contains(.userVerified) { updated.uvInitialized = true }
        return updated
    }

    /// Reads an `AuthenticationResponseJSON` from UTF-8 JSON and verifies it; see
    /// ``verifyAuthentication(_:expecting:)``.
    ///
    /// - Throws: `WebAuthnError` with step `§7.2 step 3` when the JSON is not an
    ///   authentication response; otherwise as ``verifyAuthentication(_:expecting:)``.
    public func verifyAuthentication(
        jsonBytes: [UInt8], expecting expected: AuthenticationExpectations
    ) throws -> VerifiedAuthentication {
        let credential = try atStep(CeremonyStep.Authentication.response) {
            () throws in try AuthenticationResponseJSON(jsonBytes: jsonBytes)
        }
        return try verifyAuthentication(credential, expecting: expected)
    }

    /// §7.2 step 15 with the AppID extension (§10.1.1): the AppID's SHA-256 stands in for the
    /// RP ID's only when the options requested `appid` (`appID`) and the client's output says
    /// it used it (`used` is `true`); an output of `true` for options that did not request it
    /// fails. Returns the RP ID or AppID matched.
    private func relyingPartyID(
        matching rpIdHash: ArraySlice<UInt8>, appID: String?, used: JSONValue?
    ) throws(WebAuthnError) -> String {
        let step = CeremonyStep.Authentication.rpIdHash
        guard case .bool(true)? = used else {
            return try relyingPartyID(matching: rpIdHash, step: step)
        }
        guard let appID else {
            throw WebAuthnError.failed(
                .extensionNotAllowed,
                "the client reports appid used, but the options did not request the appid extension",
                field: "clientExtensionResults.appid", step: step)
        }
        let matches = DigestAlgorithm.sha256.withHash(of: appID.utf8) {
            $0.elementsEqual(rpIdHash)
        }
        guard matches else {
            throw WebAuthnError.failed(
                .rpIdHashMismatch,
                "rpIdHash is not the SHA-256 of the AppID \(quotedInput(appID)), which the client reports it used",
                field: "authenticatorData.rpIdHash", step: step)
        }
        return appID
    }

    /// §7.2 step 6: the user handle, against the record's user.
    private static func checkUserHandle(
        _ userHandle: [UInt8]?, of record: CredentialRecord,
        _ identification: AuthenticationExpectations.UserIdentification
    ) throws(WebAuthnError) {
        func mismatch(_ reason: String) -> WebAuthnError {
            .failed(
                .userHandleMismatch, reason, field: "userHandle",
                step: CeremonyStep.Authentication.credentialRecord)
        }
        guard let userHandle else {
            if identification == .beforeCeremony { return }
            throw mismatch(
                "the user was not identified before the ceremony and the response has no userHandle"
            )
        }
        // A discoverable sign-in picks the account from userHandle: with no owner in the
        // record, nothing confirms the claim, and the caller would sign the credential's holder
        // into whichever account the response names.
        guard let owner = record.userHandle else {
            if identification == .beforeCeremony { return }
            throw mismatch(
                "the credential record keeps no user handle, so the response's userHandle cannot be confirmed in a sign-in that identifies the user by it (store CredentialRecord.userHandle)"
            )
        }
        guard owner == userHandle else { throw mismatch("userHandle is not the credential's user") }
    }

    /// §7.2 step 7, with BS-without-BE attributed to step 18; the CBOR deviations this relying
    /// party tolerates in the extensions map are appended to `deviations`.
    private func decodeAuthenticatorData(
        _ bytes: [UInt8], deviations: inout [ToleratedDeviation]
    ) throws(WebAuthnError) -> AuthenticatorData {
        do {
            var found: [ToleratedDeviation] = []
            let authData = try AuthenticatorData(
                bytes: bytes[...], options: .strict, tolerating: toleratedCBORChecks,
                deviations: &found)
            deviations += found.map { $0.prefixingField("authenticatorData") }
            return authData
        } catch {
            let step =
                error.code == .backupStateWithoutEligibility
                ? CeremonyStep.Authentication.backupState
                : CeremonyStep.Authentication.authenticatorData
            throw error.prefixingField("authenticatorData").attributed(to: step)
        }
    }

    /// §7.2 steps 20–21: hashes cData into a stack buffer and verifies sig over
    /// authData ‖ hash with `key`.
    private static func checkSignature(
        _ signature: [UInt8], authenticatorData: ArraySlice<UInt8>, clientDataJSON: [UInt8],
        key: COSEKey
    ) throws(WebAuthnError) {
        let step = CeremonyStep.Authentication.signature
        let valid: Bool
        do {
            valid = try DigestAlgorithm.sha256.withHash(of: clientDataJSON) {
                (hash) throws in
                try key.publicKey.isValidSignature(
                    signature, for: authenticatorData, hash, algorithm: key.algorithm)
            }
        } catch {
            throw WebAuthnError(crypto: error, .signatureInvalid, field: "signature")
                .attributed(to: step)
        }
        guard valid else {
            throw WebAuthnError.failed(
                .signatureInvalid,
                "the signature does not verify with the credential's \(key.algorithm) key",
                field: "signature", step: step)
        }
    }
}
