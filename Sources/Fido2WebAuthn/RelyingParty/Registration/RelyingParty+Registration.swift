import Fido2CBOR
import Fido2Crypto
import Fido2Encoding
@_spi(Fido2Internals) import Fido2WebAuthnWire

extension RelyingParty {
    /// Verifies a registration (WebAuthn Level 3 §7.1) and returns the new credential.
    ///
    /// The steps run in the order of `VerificationStep.registrationSteps`, each failing with
    /// its number in `WebAuthnError.step` and one of the codes that table lists for it. The
    /// cheap checks of the credential ID and extensions run before the attestation's signatures
    /// and certificates: the outcome is the same, and forged input is turned away before the
    /// costly work. What the ``profile`` or a relaxation tolerated is listed in
    /// ``VerifiedRegistration/deviations``.
    ///
    /// With no trust anchors for the statement's format, the statement's signatures and rules
    /// are still verified in full, ``VerifiedRegistration/trustPath`` is
    /// ``TrustPathEvaluation/notEvaluated(reason:)`` and ``VerifiedRegistration/attestationTrust``
    /// is ``AttestationTrust/unverified``: trusting such a credential is the caller's decision,
    /// unless `expected.acceptedAttestationTypes` leaves out both self and none attestation
    /// (the caller wants proven attestation), when it fails step 24. Checking that the credential ID is not registered yet (step 26) is
    /// the caller's too.
    ///
    /// - Throws: `WebAuthnError` naming the failed step.
    public func verifyRegistration(
        _ credential: RegistrationResponseJSON, expecting expected: RegistrationExpectations
    ) throws -> VerifiedRegistration {
        typealias Step = CeremonyStep.Registration
        let response = credential.response
        var deviations: [ToleratedDeviation] = []
        // §7.1 steps 5–11: client data parsed; type webauthn.create; challenge; origin,
        // crossOrigin, topOrigin.
        let (clientDataJSON, origin) = try checkClientData(
            response.clientDataJSON, type: .create, challenge: expected.challenge,
            steps: (
                Step.clientData, Step.type, Step.challenge, Step.origin, Step.crossOrigin,
                Step.topOrigin
            ), deviations: &deviations)
        // §7.1 step 12: hash, the SHA-256 of clientDataJSON.
        let clientDataHash = DigestAlgorithm.sha256.hash(clientDataJSON.bytes)
        // §7.1 step 13: fmt, authData and attStmt from the attestation object. The decoder
        // enforces step 17 (BS only with BE) and the length rule of step 25, and reads the
        // credential key (step 20 for an algorithm it cannot verify); those failures name
        // their own steps, as do attStmt syntax errors (step 22).
        let object = try decodeAttestationObject(
            response.attestationObject, deviations: &deviations)
        let authData = object.authenticatorData
        guard let attested = authData.attestedCredentialData else {
            throw WebAuthnError.failed(
                .attestedCredentialDataFlagMismatch,
                "a registration's authenticator data carries attested credential data (AT)",
                field: "attestationObject.authData.flags", step: Step.decoding)
        }
        // The response's convenience members, when sent, say what the attestation object says.
        try Self.checkConvenienceMembers(response, authData: authData, attested: attested)
        // §7.1 step 14: rpIdHash is SHA-256 of an expected RP ID.
        let relyingPartyID = try relyingPartyID(matching: authData.rpIdHash, step: Step.rpIdHash)
        // §7.1 step 15: UP is set (unless conditional creation is knowingly accepted).
        if !authData.flags.contains(.userPresent) {
            let relaxation = VerificationRelaxations.allowsRegistrationWithoutUserPresence
            guard relaxations.contains(relaxation) else {
                throw WebAuthnError.failed(
                    .userPresenceMissing,
                    "the UP flag is clear\(VerificationRelaxations.hint(relaxation))",
                    field: "attestationObject.authData.flags", step: Step.userPresence)
            }
            deviations.append(
                ToleratedDeviation(
                    kind: .relaxedCheck, field: "attestationObject.authData.flags",
                    detail: "the UP flag is clear", relaxation: relaxation))
        }
        // §7.1 step 16: UV is set when user verification is required.
        guard authData.flags.contains(.userVerified) || !expected.requiresUserVerification else {
            throw WebAuthnError.failed(
                .userVerificationMissing, "user verification is required but the UV flag is clear",
                field: "attestationObject.authData.flags", step: Step.userVerification)
        }
        // §7.1 step 17: BS only with BE — enforced by the decoder (step 13), reported as 17.
        // §7.1 steps 18–19: BE and BS are returned for the caller's policies.
        // §7.1 step 20: the credential's algorithm is one of pubKeyCredParams.
        let algorithm = attested.credentialPublicKey.algorithm
        guard expected.allowedAlgorithms.contains(algorithm) else {
            throw WebAuthnError.failed(
                .algorithmNotAllowed,
                "the credential's algorithm \(algorithm) is not among pubKeyCredParams (a relying party that accepts it lists it in RegistrationExpectations.allowedAlgorithms; command line: --allow-algorithm \(algorithm))",
                field: "attestationObject.authData.attestedCredentialData.credentialPublicKey",
                step: Step.algorithm)
        }
        // §7.1 step 25: the credential ID is at most 1023 bytes (enforced by the decoder) and
        // is the one the response names.
        guard attested.credentialId.elementsEqual(credential.rawId) else {
            throw WebAuthnError.failed(
                .credentialIdMismatch, "rawId is not the attested credential ID",
                field: "rawId", step: Step.credentialId)
        }
        // §7.1 step 26 (the part the options carry): the credential is not one the options
        // excluded. That it is not registered to anyone at all is the caller's database.
        if expected.excludedCredentials.contains(where: { $0.elementsEqual(attested.credentialId) })
        {
            throw WebAuthnError.failed(
                .credentialExcluded,
                "the credential is one excludeCredentials listed: it is registered already",
                field: "rawId", step: Step.notRegistered)
        }
        // §7.1 step 28: the extension outputs are as expected.
        if let refused = expected.extensions.refused(authData.extensions) {
            throw WebAuthnError.failed(
                .extensionNotAllowed, "the extension output \(quotedInput(refused)) is not allowed",
                field: "attestationObject.authData.extensions", step: Step.extensions)
        }
        // §7.1 step 21: fmt is a format this library verifies.
        guard let verifier = attestationFormats.verifier(for: object.format) else {
            throw WebAuthnError.failed(
                .attestationFormatUnsupported,
                "the attestation statement format \(quotedInput(object.format)) is not supported",
                field: "attestationObject.fmt", step: Step.format)
        }
        // §7.1 step 22: the format's verification procedure (step 24's trust path inside).
        var context = AttestationVerificationContext(
            authenticatorData: authData, clientDataHash: clientDataHash,
            credentialPublicKey: attested.credentialPublicKey,
            policy: try effectiveTrustPolicy(requesting: expected.attestation), profile: profile)
        context.formats = attestationFormats
        var attestation: AttestationVerificationResult
        do {
            attestation = try verifier.verify(object.statement, in: context)
        } catch {
            let error = WebAuthnError(wrapping: error)
            let step =
                switch error.code {
                case .attestationTrustPathInvalid, .attestationCertificateRevoked,
                    .attestationRevocationStatusUnknown, .authenticatorNotInMetadata,
                    .authenticatorStatusRefused:
                    Step.trust
                // A compound entry of a format not verified here, as step 21 for `fmt`.
                case .attestationFormatUnsupported: Step.format
                default: Step.statement
                }
            throw error.attributedToCeremony(step: step).prefixingField("attestationObject")
        }
        if let metadata = context.policy.metadata, case .verified = attestation.trustPath {
            attestation.metadataEntry = metadata.entry(
                aaguid: attested.aaguid, chain: attestation.certificates)
        }
        // §7.1 steps 23–24: the attestation type is acceptable (the trust path was judged
        // against the anchors of step 23 by the verifier).
        guard expected.acceptedAttestationTypes.contains(attestation.type) else {
            throw WebAuthnError.failed(
                .attestationTypeNotAccepted,
                "\(attestation.type) attestation is not accepted by the relying party's policy",
                field: "attestationObject.attStmt", step: Step.trust)
        }
        // §7.1 step 24: a chain that reached no anchor proves nothing about the authenticator;
        // a relying party that accepts neither self nor none attestation wants proof.
        let trust = AttestationTrust.of(
            attestation, wellKnownRoots: WellKnownAttestationRoots.shippedCertificates)
        if trust == .unverified,
            !expected.acceptedAttestationTypes.contains(.selfAttestation),
            !expected.acceptedAttestationTypes.contains(.none)
        {
            throw WebAuthnError.failed(
                .attestationTrustPathInvalid,
                "the \(attestation.format) certificate chain reaches no trust anchor (none is configured for \(attestation.format)), so its \(attestation.type) attestation is claimed, not proven; the relying party accepts only proven attestation (acceptedAttestationTypes leaves out self and none): configure anchors for \(attestation.format) (AttestationTrustPolicy.trusting) or metadata",
                field: "attestationObject.attStmt.x5c", step: Step.trust)
        }
        deviations += Self.certificateDeviations(attestation)
        deviations += attestation.deviations.map { $0.prefixingField("attestationObject") }
        return VerifiedRegistration(
            credentialId: Array(attested.credentialId),
            credentialPublicKey: attested.credentialPublicKey,
            credentialPublicKeyBytes: Array(attested.credentialPublicKeyBytes),
            signCount: authData.signCount, flags: authData.flags, aaguid: attested.aaguid,
            attestation: attestation, attestationTrust: trust,
            transports: response.transports ?? [],
            extensions: authData.extensions,
            clientExtensionResults: credential.clientExtensionResults, origin: origin,
            relyingPartyID: relyingPartyID, deviations: deviations,
            attestationObject: response.attestationObject,
            clientDataJSON: response.clientDataJSON)
    }

    /// Reads a `RegistrationResponseJSON` from UTF-8 JSON and verifies it; see
    /// ``verifyRegistration(_:expecting:)``.
    ///
    /// - Throws: `WebAuthnError` with step `§7.1 step 3` when the JSON is not a registration
    ///   response; otherwise as ``verifyRegistration(_:expecting:)``.
    public func verifyRegistration(
        jsonBytes: [UInt8], expecting expected: RegistrationExpectations
    ) throws -> VerifiedRegistration {
        let credential = try atStep(CeremonyStep.Registration.response) {
            () throws in try RegistrationResponseJSON(jsonBytes: jsonBytes)
        }
        return try verifyRegistration(credential, expecting: expected)
    }

    /// §7.1 step 13, with the decoder's errors attributed to the step whose rule they break;
    /// the CBOR deviations this relying party tolerates are appended to `deviations`.
    private func decodeAttestationObject(
        _ bytes: [UInt8], deviations: inout [ToleratedDeviation]
    ) throws(WebAuthnError) -> AttestationObject {
        typealias Step = CeremonyStep.Registration
        do {
            return try AttestationObject(
                bytes: bytes[...], options: .strict, tolerating: toleratedCBORChecks,
                deviations: &deviations)
        } catch {
            let hinted = compatibleProfileHint(for: error, bytes: bytes)
            // The object's own top-level failures already name it.
            let located =
                hinted.field == "attestationObject"
                ? hinted : hinted.prefixingField("attestationObject")
            let step: VerificationStep
            switch error.code {
            case .backupStateWithoutEligibility: step = Step.backupState
            case .invalidCredentialIdLength: step = Step.credentialId
            case .unsupportedAlgorithm: step = Step.algorithm
            default:
                step = (error.field ?? "").hasPrefix("attStmt") ? Step.statement : Step.decoding
            }
            throw located.attributed(to: step)
        }
    }

    /// What the profile tolerated in the statement's certificates, at their fields.
    private static func certificateDeviations(
        _ attestation: AttestationVerificationResult
    ) -> [ToleratedDeviation] {
        let chain =
            attestation.format == AndroidSafetyNetAttestationVerifier.format
            ? "attestationObject.attStmt.response.header.x5c" : "attestationObject.attStmt.x5c"
        return attestation.certificates.enumerated().flatMap { index, certificate in
            certificate.toleratedDeviations.map {
                ToleratedDeviation(
                    kind: .certificateEncoding, field: "\(chain)[\(index)]", detail: $0)
            }
        }
    }

    /// `error` with a hint when the compatible profile would have read `bytes`: a strict
    /// relying party refusing CBOR that deployed relying parties accept says how to accept it.
    private func compatibleProfileHint(
        for error: WebAuthnError, bytes: [UInt8]
    ) -> WebAuthnError {
        guard profile == .strict, error.code == .malformedCBOR else { return error }
        var ignored: [ToleratedDeviation] = []
        guard
            (try? AttestationObject(
                bytes: bytes[...], options: .strict,
                tolerating: VerificationProfile.compatible.toleratedCBORChecks([]),
                deviations: &ignored)) != nil
        else { return error }
        return WebAuthnError(
            error.code,
            "\(error.reason) (the compatible profile reads it: VerificationProfile.compatible; command line: without --strict)",
            field: error.field, step: error.step, offset: error.offset)
    }

    /// The convenience members `publicKey`, `publicKeyAlgorithm` and `authenticatorData` of
    /// an attestation response, when the client sent them, must agree with the attestation
    /// object: a server that reads them (as many do, to skip CBOR) must not be told another
    /// key than the one attested.
    private static func checkConvenienceMembers(
        _ response: AuthenticatorAttestationResponseJSON, authData: AuthenticatorData,
        attested: AttestedCredentialData
    ) throws(WebAuthnError) {
        typealias Step = CeremonyStep.Registration
        let key = attested.credentialPublicKey
        if let algorithm = response.publicKeyAlgorithm, algorithm != key.algorithm.rawValue {
            throw WebAuthnError.failed(
                .inconsistentResponse,
                "publicKeyAlgorithm \(COSEAlgorithm(rawValue: algorithm)) is not the attested credential's \(key.algorithm)",
                field: "response.publicKeyAlgorithm", step: Step.algorithm)
        }
        // The DER a browser sends is the canonical SubjectPublicKeyInfo, compared as bytes;
        // any other encoding is imported and compared as a key.
        if let spki = response.publicKey, (try? key.publicKey.spkiDER) != spki {
            guard let given = try? PublicKey(unsafeSPKIDER: spki), given == key.publicKey else {
                throw WebAuthnError.failed(
                    .inconsistentResponse,
                    "publicKey is not the SubjectPublicKeyInfo of the attested credential public key",
                    field: "response.publicKey", step: Step.algorithm)
            }
        }
        if let data = response.authenticatorData, !data.elementsEqual(authData.bytes) {
            throw WebAuthnError.failed(
                .inconsistentResponse,
                "authenticatorData is not the attestation object's authData",
                field: "response.authenticatorData", step: Step.decoding)
        }
    }
}
