/// Where a verification failed: a numbered step of WebAuthn Level 3 §7.1 (registering a new
/// credential) or §7.2 (verifying an authentication assertion), as the current editor's draft
/// numbers them, or the section of an attestation statement format (§8.2 …) whose rule a
/// statement broke when its verifier is called on its own.
///
/// Compare steps by value (`error.step == .registration(13)`); a string literal such as
/// `"§7.1 step 13"` is read as the step it spells. The tables ``registrationSteps`` and
/// ``authenticationSteps`` say, once and in code, which check each step makes and which
/// ``WebAuthnError/Code-swift.struct``s it fails with; the documentation renders them.
public struct VerificationStep: Hashable, Sendable, CustomStringConvertible,
    ExpressibleByStringLiteral
{
    /// The section, without the `§`: `7.1`, `7.2`, `8.3.1`.
    public let section: String
    /// The step within the section (§7.1 and §7.2), or nil for a whole section.
    public let number: Int?

    /// The step `number` of `section` (or the whole section).
    public init(section: String, number: Int? = nil) {
        self.section = section
        self.number = number
    }

    /// Step `number` of §7.1, registration.
    public static func registration(_ number: Int) -> VerificationStep {
        VerificationStep(section: "7.1", number: number)
    }

    /// Step `number` of §7.2, authentication.
    public static func authentication(_ number: Int) -> VerificationStep {
        VerificationStep(section: "7.2", number: number)
    }

    /// Reads `§7.1 step 13` (or `§8.3.1`); text in another shape becomes a section of that
    /// name, so a literal never traps.
    public init(stringLiteral text: String) {
        var rest = Substring(text)
        if rest.hasPrefix("§") { rest = rest.dropFirst() }
        let parts = rest.split(separator: " ")
        if parts.count == 3, parts[1] == "step", let number = Int(parts[2]) {
            self.init(section: String(parts[0]), number: number)
        } else {
            self.init(section: String(rest))
        }
    }

    /// Whether this is a step of a ceremony (§7.1 or §7.2), not a format's section.
    public var isCeremonyStep: Bool { section == "7.1" || section == "7.2" }

    /// `§7.1 step 13`, or `§8.3.1` for a section.
    public var description: String {
        number.map { "§\(section) step \($0)" } ?? "§\(section)"
    }

    /// One row of the step tables: a step, what it checks, and the codes it fails with.
    public struct Check: Sendable, Hashable {
        /// The step (or, where the specification runs several as one, the first of them).
        public let step: VerificationStep
        /// Where several steps run as one, the last of them.
        public let lastStep: VerificationStep?
        /// What the step checks, in words.
        public let summary: String
        /// The codes a failure of the step carries.
        public let codes: [WebAuthnError.Code]
    }

    /// The steps of §7.1 that can fail, in the order `RelyingParty` runs them (the credential
    /// ID and extension checks run before the costly attestation statement; the outcome is the
    /// same). Step 1 is the ceremony state of `RelyingParty.finishRegistration(responseJSON:state:)`;
    /// of step 26 (the credential ID is not registered yet) the library checks the IDs the
    /// options excluded and the caller checks its database.
    public static let registrationSteps: [Check] =
        [
            stateCheck(CeremonyStep.Registration.state),
            Check(
                step: CeremonyStep.Registration.response, lastStep: nil,
                summary: "the response is a RegistrationResponseJSON",
                codes: [
                    .malformedJSON, .missingMember, .wrongType, .invalidBase64URL, .invalidValue,
                ]),
            Check(
                step: CeremonyStep.Registration.clientData, lastStep: nil,
                summary:
                    "clientDataJSON parses; under the strict profile, a legacy `tokenBinding` object has status `present` or `supported`",
                codes: [.malformedJSON, .missingMember, .wrongType, .invalidValue]),
        ]
        + clientDataChecks(
            type: CeremonyStep.Registration.type, named: "webauthn.create",
            challenge: CeremonyStep.Registration.challenge,
            origin: CeremonyStep.Registration.origin,
            crossOrigin: CeremonyStep.Registration.crossOrigin,
            topOrigin: CeremonyStep.Registration.topOrigin)
        + [
            Check(
                step: CeremonyStep.Registration.decoding, lastStep: nil,
                summary:
                    "the attestation object decodes; its `publicKey` and `authenticatorData` members, when sent, agree with it",
                codes: [
                    .malformedCBOR, .truncated, .trailingBytes, .invalidAttestationObject,
                    .invalidCredentialPublicKey, .attestedCredentialDataFlagMismatch,
                    .extensionDataFlagMismatch, .invalidExtensions, .inconsistentResponse,
                ])
        ]
        + flagChecks(
            rpIdHash: CeremonyStep.Registration.rpIdHash,
            userPresence: CeremonyStep.Registration.userPresence,
            userVerification: CeremonyStep.Registration.userVerification,
            backupState: CeremonyStep.Registration.backupState)
        + [
            Check(
                step: CeremonyStep.Registration.algorithm, lastStep: nil,
                summary: "the key's algorithm is in `pubKeyCredParams`",
                codes: [.algorithmNotAllowed, .unsupportedAlgorithm, .inconsistentResponse]),
            Check(
                step: CeremonyStep.Registration.credentialId, lastStep: nil,
                summary: "credential ID ≤ 1023 bytes and equal to `rawId`",
                codes: [.invalidCredentialIdLength, .credentialIdMismatch]),
            Check(
                step: CeremonyStep.Registration.notRegistered, lastStep: nil,
                summary: "the credential ID is not one `excludeCredentials` listed",
                codes: [.credentialExcluded]),
            extensionsCheck(CeremonyStep.Registration.extensions),
            Check(
                step: CeremonyStep.Registration.format, lastStep: nil,
                summary: "the format is supported",
                codes: [.attestationFormatUnsupported]),
            Check(
                step: CeremonyStep.Registration.statement, lastStep: nil,
                summary:
                    "the format's verification procedure (its own section, such as `§8.3`, leads the reason)",
                codes: [
                    .invalidAttestationStatement, .attestationSignatureInvalid,
                    .attestationAlgorithmMismatch, .attestationCertificateInvalid,
                    .attestationAAGUIDMismatch, .attestationKeyMismatch, .attestationNonceMismatch,
                    .attestationIntegrityVerdictFailed, .attestationTimestampOutOfRange,
                    .invalidTPMStructure, .invalidJWS, .unsupportedAlgorithm,
                ]),
            Check(
                step: CeremonyStep.Registration.trust, lastStep: nil,
                summary:
                    "attestation type acceptable; trust path (and revocation, when the policy asks; the metadata entry and its status, when the policy has metadata)",
                codes: [
                    .attestationTypeNotAccepted, .attestationTrustPathInvalid,
                    .attestationCertificateRevoked, .attestationRevocationStatusUnknown,
                    .authenticatorNotInMetadata, .authenticatorStatusRefused,
                ]),
        ]

    /// The steps of §7.2 that can fail, in the order `RelyingParty` runs them. Step 1 is the
    /// ceremony state of `RelyingParty.finishAuthentication(responseJSON:state:credential:)`.
    public static let authenticationSteps: [Check] =
        [
            stateCheck(CeremonyStep.Authentication.state),
            Check(
                step: CeremonyStep.Authentication.response, lastStep: nil,
                summary: "the response is an AuthenticationResponseJSON",
                codes: [
                    .malformedJSON, .missingMember, .wrongType, .invalidBase64URL, .invalidValue,
                ]),
            Check(
                step: CeremonyStep.Authentication.allowCredentials, lastStep: nil,
                summary: "the credential is in `allowCredentials`", codes: [.credentialNotAllowed]),
            Check(
                step: CeremonyStep.Authentication.credentialRecord, lastStep: nil,
                summary: "the record is the credential's; `userHandle` is its user's",
                codes: [.credentialNotAllowed, .userHandleMismatch]),
            Check(
                step: CeremonyStep.Authentication.authenticatorData, lastStep: nil,
                summary: "authenticatorData parses",
                codes: [
                    .truncated, .trailingBytes, .malformedCBOR, .invalidExtensions,
                    .extensionDataFlagMismatch, .attestedCredentialDataFlagMismatch,
                ]),
            Check(
                step: CeremonyStep.Authentication.clientData, lastStep: nil,
                summary: "clientDataJSON parses",
                codes: [.malformedJSON, .missingMember, .wrongType, .invalidValue]),
        ]
        + clientDataChecks(
            type: CeremonyStep.Authentication.type, named: "webauthn.get",
            challenge: CeremonyStep.Authentication.challenge,
            origin: CeremonyStep.Authentication.origin,
            crossOrigin: CeremonyStep.Authentication.crossOrigin,
            topOrigin: CeremonyStep.Authentication.topOrigin)
        + flagChecks(
            rpIdHash: CeremonyStep.Authentication.rpIdHash,
            rpIdHashSummary: "rpIdHash (of the AppID when appid was requested and used)",
            rpIdHashCodes: [.rpIdHashMismatch, .extensionNotAllowed],
            userPresence: CeremonyStep.Authentication.userPresence,
            userVerification: CeremonyStep.Authentication.userVerification,
            backupState: CeremonyStep.Authentication.backupState)
        + [
            Check(
                step: CeremonyStep.Authentication.backupEligibility, lastStep: nil,
                summary: "BE as recorded (unless the relying party accepts a change)",
                codes: [.backupEligibilityChanged]),
            Check(
                step: CeremonyStep.Authentication.signature, lastStep: nil,
                summary: "signature with the record's key, any supported algorithm",
                codes: [.signatureInvalid, .unsupportedAlgorithm, .invalidCredentialPublicKey]),
            Check(
                step: CeremonyStep.Authentication.signCount, lastStep: nil,
                summary:
                    "the counter advanced or keeps 0 (a regression fails unless `sign-count-regression` accepts it)",
                codes: [.signCountRegressed]),
            extensionsCheck(CeremonyStep.Authentication.extensions),
        ]

    // The rows §7.1 and §7.2 share, each ceremony with its own step numbers: written once here.

    /// Step 1 of either ceremony: the options at the beginning, the state at the end.
    private static func stateCheck(_ step: VerificationStep) -> Check {
        Check(
            step: step, lastStep: nil,
            summary:
                "begin: the options are usable; finish: the ceremony state is this relying party's and has not expired",
            codes: [
                .invalidValue, .invalidRelyingPartyID, .randomGenerationFailed, .ceremonyExpired,
                .ceremonyStateMismatch,
            ])
    }

    /// The client data's `type`, `challenge`, `origin`, `crossOrigin` and `topOrigin`.
    private static func clientDataChecks(
        type: VerificationStep, named typeName: String, challenge: VerificationStep,
        origin: VerificationStep, crossOrigin: VerificationStep, topOrigin: VerificationStep
    ) -> [Check] {
        [
            Check(
                step: type, lastStep: nil, summary: "`type` is `\(typeName)`",
                codes: [.clientDataTypeMismatch]),
            Check(
                step: challenge, lastStep: nil, summary: "`challenge` (constant time)",
                codes: [.challengeMismatch]),
            Check(
                step: origin, lastStep: nil, summary: "`origin` in the allow-list (exact match)",
                codes: [.originNotAllowed]),
            Check(
                step: crossOrigin, lastStep: topOrigin, summary: "`crossOrigin`, `topOrigin`",
                codes: [.crossOriginNotAllowed]),
        ]
    }

    /// The authenticator data's `rpIdHash` and its UP, UV and BS flags.
    private static func flagChecks(
        rpIdHash: VerificationStep, rpIdHashSummary: String = "rpIdHash",
        rpIdHashCodes: [WebAuthnError.Code] = [.rpIdHashMismatch], userPresence: VerificationStep,
        userVerification: VerificationStep, backupState: VerificationStep
    ) -> [Check] {
        [
            Check(step: rpIdHash, lastStep: nil, summary: rpIdHashSummary, codes: rpIdHashCodes),
            Check(step: userPresence, lastStep: nil, summary: "UP", codes: [.userPresenceMissing]),
            Check(
                step: userVerification, lastStep: nil, summary: "UV when required",
                codes: [.userVerificationMissing]),
            Check(
                step: backupState, lastStep: nil, summary: "BS only with BE",
                codes: [.backupStateWithoutEligibility]),
        ]
    }

    /// The extension outputs, the last step of either ceremony.
    private static func extensionsCheck(_ step: VerificationStep) -> Check {
        Check(
            step: step, lastStep: nil, summary: "extension outputs allowed",
            codes: [.extensionNotAllowed])
    }

    /// `checks` as a Markdown table (`| §7.1 | check | code |`), as the documentation shows it.
    public static func markdownTable(_ checks: [Check]) -> String {
        let section = checks.first?.step.section ?? ""
        var lines = ["| §\(section) | check | codes |", "|---|---|---|"]
        for check in checks {
            let steps =
                check.lastStep?.number.map { "\(check.step.number ?? 0)–\($0)" }
                ?? "\(check.step.number ?? 0)"
            let codes = check.codes.map { "`\($0)`" }.joined(separator: ", ")
            lines.append("| \(steps) | \(check.summary) | \(codes) |")
        }
        return lines.joined(separator: "\n")
    }
}
