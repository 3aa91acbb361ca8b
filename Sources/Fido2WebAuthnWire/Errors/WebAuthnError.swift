/// The one error type of the WebAuthn structures (`Fido2WebAuthnWire`) and the relying party
/// (`Fido2WebAuthn`): malformed WebAuthn JSON and client data, authenticator data and
/// attestation objects and statements, and the failures of the registration and authentication
/// ceremonies. The software authenticator and its credential stores have an error type of their
/// own (`AuthenticatorError`, in `Fido2Authenticator`), which carries this one when the
/// structures refuse its input.
///
/// Every error names where it happened: ``field`` is a path into the input
/// (`response.clientDataJSON`, `pubKeyCredParams[2].alg`), ``step`` a procedure step (for
/// example `§7.1 step 11`), ``offset`` a byte offset. Compare errors by ``code``; ``reason`` is
/// prose for people and may change.
public struct WebAuthnError: Error, Sendable, Hashable, CustomStringConvertible {
    /// What kind of failure this is. New codes are added as the module grows, so switch over
    /// codes with a `default` branch.
    public struct Code: Sendable, Hashable, CustomStringConvertible {
        /// Add new codes here, one group per concern, each with a `static let` below.
        private enum Kind: String, Sendable, Hashable {
            // MARK: JSON forms and client data
            case malformedJSON
            case missingMember
            case wrongType
            case invalidBase64URL
            case invalidValue
            // MARK: Authenticator data, attestation objects and statements
            case truncated
            case trailingBytes
            case attestedCredentialDataFlagMismatch
            case extensionDataFlagMismatch
            case backupStateWithoutEligibility
            case invalidCredentialIdLength
            case invalidCredentialPublicKey
            case unsupportedAlgorithm
            case invalidExtensions
            case malformedCBOR
            case invalidAttestationObject
            case invalidAttestationStatement
            case invalidTPMStructure
            case invalidJWS
            case signingFailed
            // MARK: Relying party: registration and authentication ceremonies (§7.1, §7.2)
            case invalidRelyingPartyID
            case credentialExcluded
            case credentialExists
            case credentialNotFound
            case clientDataTypeMismatch
            case challengeMismatch
            case originNotAllowed
            case crossOriginNotAllowed
            case rpIdHashMismatch
            case userPresenceMissing
            case userVerificationMissing
            case backupEligibilityChanged
            case algorithmNotAllowed
            case credentialNotAllowed
            case userHandleMismatch
            case credentialIdMismatch
            case inconsistentResponse
            case signatureInvalid
            case signCountRegressed
            case extensionNotAllowed
            case attestationTypeNotAccepted
            case ceremonyExpired
            case ceremonyStateMismatch
            case randomGenerationFailed
            // MARK: Relying party: attestation statements (§8)
            case attestationFormatUnsupported
            case attestationSignatureInvalid
            case attestationAlgorithmMismatch
            case attestationCertificateInvalid
            case attestationAAGUIDMismatch
            case attestationKeyMismatch
            case attestationNonceMismatch
            case attestationTrustPathInvalid
            case attestationCertificateRevoked
            case attestationRevocationStatusUnknown
            case attestationIntegrityVerdictFailed
            case attestationTimestampOutOfRange
            // MARK: FIDO Metadata Service (MDS3)
            case metadataInvalid
            case metadataSignatureInvalid
            case metadataTrustPathInvalid
            case metadataStale
            case metadataRollback
            case authenticatorNotInMetadata
            case authenticatorStatusRefused
            case relatedOriginsLimitExceeded
            case emptyAcceptedCredentialList
        }

        private let kind: Kind

        private init(_ kind: Kind) { self.kind = kind }

        /// The input is not well-formed JSON (or breaks the reader's limits); ``offset`` points
        /// at the problem.
        public static let malformedJSON = Code(.malformedJSON)
        /// A required member is absent; ``field`` names it.
        public static let missingMember = Code(.missingMember)
        /// A member has the wrong JSON type (a number where a string belongs, say).
        public static let wrongType = Code(.wrongType)
        /// A member that must hold unpadded base64url does not.
        public static let invalidBase64URL = Code(.invalidBase64URL)
        /// A member has the right type but a value that is not allowed (a credential `type`
        /// other than `public-key`, an `id` that does not match `rawId`, an integer out of
        /// range, a reserved or repeated client data member name).
        public static let invalidValue = Code(.invalidValue)

        // MARK: Authenticator data, attestation objects and statements

        /// A binary structure (authenticator data, a TPM structure) ends before a part it
        /// announces; ``field`` names the part, ``offset`` where it should have started.
        public static let truncated = Code(.truncated)
        /// Bytes follow the last part of a binary structure.
        public static let trailingBytes = Code(.trailingBytes)
        /// The AT flag says attested credential data follows, but none does.
        public static let attestedCredentialDataFlagMismatch = Code(
            .attestedCredentialDataFlagMismatch)
        /// The ED flag says an extensions map follows, but none does.
        public static let extensionDataFlagMismatch = Code(.extensionDataFlagMismatch)
        /// The BS (backup state) flag is set while BE (backup eligible) is clear.
        public static let backupStateWithoutEligibility = Code(.backupStateWithoutEligibility)
        /// A credential ID is empty or longer than 1023 bytes.
        public static let invalidCredentialIdLength = Code(.invalidCredentialIdLength)
        /// The credential public key is not a valid COSE_Key (malformed, non-canonical CBOR,
        /// inconsistent members, a point off the curve).
        public static let invalidCredentialPublicKey = Code(.invalidCredentialPublicKey)
        /// A COSE algorithm this library does not implement (ML-DSA, …), in a credential public
        /// key or where a signature must be made.
        public static let unsupportedAlgorithm = Code(.unsupportedAlgorithm)
        /// The authenticator extension outputs are not a map of text keys, or a known
        /// extension's output has the wrong type, or an identifier repeats.
        public static let invalidExtensions = Code(.invalidExtensions)
        /// CBOR that is not well-formed, or breaks the strict (CTAP2 canonical) profile;
        /// ``offset`` points into the CBOR.
        public static let malformedCBOR = Code(.malformedCBOR)
        /// An attestation object that is not a map of `fmt`, `attStmt` and `authData` with
        /// the right types.
        public static let invalidAttestationObject = Code(.invalidAttestationObject)
        /// An attestation statement with a missing, unexpected or mistyped member.
        public static let invalidAttestationStatement = Code(.invalidAttestationStatement)
        /// A TPM `certInfo` or `pubArea` whose content does not parse (an unknown key type,
        /// a size that does not fit).
        public static let invalidTPMStructure = Code(.invalidTPMStructure)
        /// An Android SafetyNet response that is not a compact JWS with JSON header and payload.
        public static let invalidJWS = Code(.invalidJWS)
        /// Making a signature failed (the key does not fit the algorithm, OpenSSL failed).
        public static let signingFailed = Code(.signingFailed)

        // MARK: Relying party: registration and authentication ceremonies (§7.1, §7.2)

        /// The RP ID a ceremony's options name is not one of the relying party's identifiers,
        /// or the relying party has none.
        public static let invalidRelyingPartyID = Code(.invalidRelyingPartyID)
        /// The new credential is one the registration options listed in `excludeCredentials`
        /// (§7.1 step 26).
        public static let credentialExcluded = Code(.credentialExcluded)
        /// The new credential's ID is registered already: the part of §7.1 step 26 a server
        /// checks against its own database.
        public static let credentialExists = Code(.credentialExists)
        /// No credential with the response's ID is registered: the look-up of §7.2 step 6 a
        /// server makes in its own database.
        public static let credentialNotFound = Code(.credentialNotFound)

        /// `clientData.type` is not `webauthn.create` (registration) or `webauthn.get`
        /// (authentication) as the ceremony requires.
        public static let clientDataTypeMismatch = Code(.clientDataTypeMismatch)
        /// `clientData.challenge` differs from the challenge the relying party issued
        /// (compared in constant time).
        public static let challengeMismatch = Code(.challengeMismatch)
        /// `clientData.origin` is not one the relying party allows.
        public static let originNotAllowed = Code(.originNotAllowed)
        /// `crossOrigin` is true, or `topOrigin` is present or not allowed, while the relying
        /// party's policy forbids it.
        public static let crossOriginNotAllowed = Code(.crossOriginNotAllowed)
        /// `rpIdHash` is not the SHA-256 of the expected RP ID.
        public static let rpIdHashMismatch = Code(.rpIdHashMismatch)
        /// The UP flag is clear while user presence is required.
        public static let userPresenceMissing = Code(.userPresenceMissing)
        /// The UV flag is clear while user verification is required.
        public static let userVerificationMissing = Code(.userVerificationMissing)
        /// The BE flag of an assertion differs from the one recorded at registration.
        public static let backupEligibilityChanged = Code(.backupEligibilityChanged)
        /// The credential's algorithm is not among those the relying party allows.
        public static let algorithmNotAllowed = Code(.algorithmNotAllowed)
        /// The credential is not in `allowCredentials`, or is not the stored one.
        public static let credentialNotAllowed = Code(.credentialNotAllowed)
        /// The `userHandle` does not belong to the credential's user.
        public static let userHandleMismatch = Code(.userHandleMismatch)
        /// Credential identifiers disagree (`id`/`rawId`, or the attested credential ID).
        public static let credentialIdMismatch = Code(.credentialIdMismatch)
        /// A convenience member of a registration response (`publicKey`,
        /// `publicKeyAlgorithm`, `authenticatorData`) contradicts the attestation object.
        public static let inconsistentResponse = Code(.inconsistentResponse)
        /// The assertion signature does not verify with the stored credential public key.
        public static let signatureInvalid = Code(.signatureInvalid)
        /// The signature counter did not advance while the stored or received one is non-zero
        /// (a possible cloned authenticator), and the relying party does not accept it
        /// (``VerificationRelaxations/acceptsSignCountRegression``).
        public static let signCountRegressed = Code(.signCountRegressed)
        /// The authenticator returned an extension output the relying party's policy does not
        /// allow.
        public static let extensionNotAllowed = Code(.extensionNotAllowed)
        /// The attestation statement verified, but its attestation type (none, self, basic, …)
        /// is not one the relying party accepts.
        public static let attestationTypeNotAccepted = Code(.attestationTypeNotAccepted)
        /// The ceremony's state (`RegistrationState`, `AuthenticationState`) expired: the
        /// response came after the timeout its options gave the user.
        public static let ceremonyExpired = Code(.ceremonyExpired)
        /// The ceremony's state does not belong here: another relying party's RP ID, or a state
        /// of the other ceremony.
        public static let ceremonyStateMismatch = Code(.ceremonyStateMismatch)
        /// The system's random source failed to produce a challenge.
        public static let randomGenerationFailed = Code(.randomGenerationFailed)

        // MARK: Relying party: attestation statements (§8)

        /// An attestation statement format this verifier does not implement.
        public static let attestationFormatUnsupported = Code(.attestationFormatUnsupported)
        /// The attestation signature does not verify.
        public static let attestationSignatureInvalid = Code(.attestationSignatureInvalid)
        /// The statement's `alg` does not fit its key (self attestation: the credential key).
        public static let attestationAlgorithmMismatch = Code(.attestationAlgorithmMismatch)
        /// An attestation certificate breaks the format's requirements (§8.2.1, §8.3.1, …).
        public static let attestationCertificateInvalid = Code(.attestationCertificateInvalid)
        /// The attestation certificate's AAGUID extension differs from the authenticator
        /// data's AAGUID.
        public static let attestationAAGUIDMismatch = Code(.attestationAAGUIDMismatch)
        /// A key in the statement (certificate, TPM `pubArea`) is not the credential public key.
        public static let attestationKeyMismatch = Code(.attestationKeyMismatch)
        /// A nonce, challenge or `extraData` in the statement does not bind this
        /// authenticator data and client data.
        public static let attestationNonceMismatch = Code(.attestationNonceMismatch)
        /// The certificate chain does not verify to a configured trust anchor at the
        /// validation time.
        public static let attestationTrustPathInvalid = Code(.attestationTrustPathInvalid)
        /// A certificate of the attestation chain is revoked by a CRL the trust policy
        /// supplies (`AttestationTrustPolicy.revocation`).
        public static let attestationCertificateRevoked = Code(.attestationCertificateRevoked)
        /// The trust policy asks for revocation checking, but no usable CRL vouches for a
        /// certificate of the attestation chain (none from its issuer, or one that is expired,
        /// not yet valid or wrongly signed).
        public static let attestationRevocationStatusUnknown = Code(
            .attestationRevocationStatusUnknown)
        /// A platform integrity verdict in the statement is negative (Android SafetyNet
        /// `ctsProfileMatch` or `basicIntegrity` false) under a policy that requires it.
        public static let attestationIntegrityVerdictFailed = Code(
            .attestationIntegrityVerdictFailed)
        /// A timestamp in the statement (Android SafetyNet `timestampMs`) lies outside the
        /// window the policy allows around the validation time.
        public static let attestationTimestampOutOfRange = Code(.attestationTimestampOutOfRange)
        /// A metadata BLOB is not a compact JWS, or its header or payload breaks the MDS3
        /// format (a member missing or mistyped, a certificate that does not parse); ``field``
        /// names the part.
        public static let metadataInvalid = Code(.metadataInvalid)
        /// A metadata BLOB's JWS signature does not verify with its signing certificate (a
        /// tampered payload, a wrong key), or its algorithm is not one MDS3 allows.
        public static let metadataSignatureInvalid = Code(.metadataSignatureInvalid)
        /// A metadata BLOB's signing chain (`x5c`) does not verify to the trust anchor at the
        /// validation time (another root, an expired certificate), or a CRL revokes or cannot
        /// vouch for one of its certificates.
        public static let metadataTrustPathInvalid = Code(.metadataTrustPathInvalid)
        /// A metadata BLOB's `nextUpdate` has passed at the validation time.
        public static let metadataStale = Code(.metadataStale)
        /// A refreshed metadata BLOB's `no` is not greater than the one already in use.
        public static let metadataRollback = Code(.metadataRollback)
        /// The trust policy requires metadata (strict mode) and the metadata BLOB has no entry
        /// for the attested authenticator (by AAGUID or attestation certificate key identifier).
        public static let authenticatorNotInMetadata = Code(.authenticatorNotInMetadata)
        /// The attested authenticator's metadata entry carries a status the trust policy
        /// refuses (REVOKED, a compromise, …) or a certification level below the minimum.
        public static let authenticatorStatusRefused = Code(.authenticatorStatusRefused)

        // MARK: Relying party: related origins and signals

        /// The relying party's origins span more registrable-domain labels than the
        /// `/.well-known/webauthn` document may list (WebAuthn Level 3 §5.11: clients must
        /// support at least 5, and some stop there); ``field`` names the first origin over.
        public static let relatedOriginsLimitExceeded = Code(.relatedOriginsLimitExceeded)
        /// A `signalAllAcceptedCredentials` payload would list no credential, which tells the
        /// user's provider to hide every passkey of the account; it is built only when the
        /// caller allows an empty list explicitly.
        public static let emptyAcceptedCredentialList = Code(.emptyAcceptedCredentialList)

        /// The code's name, such as `missingMember`.
        public var description: String { kind.rawValue }
    }

    /// What kind of failure this is.
    public let code: Code
    /// A human-readable explanation.
    public let reason: String
    /// The path of the offending member in the input, such as `response.clientDataJSON`.
    public let field: String?
    /// The procedure step that failed, such as `§7.1 step 11` (``VerificationStep``).
    public let step: VerificationStep?
    /// A byte offset in the input (JSON text, binary structure) where the problem was found.
    public let offset: Int?

    /// An error with `code` and `reason`, naming where it happened: the structures and the
    /// relying party report their failures through it, and code outside the library may too (a
    /// server refusing a credential ID its database already holds reports `credentialExists`
    /// at §7.1 step 26, say).
    public init(
        _ code: Code, _ reason: String, field: String? = nil, step: VerificationStep? = nil,
        offset: Int? = nil
    ) {
        self.code = code
        self.reason = reason
        self.field = field
        self.step = step
        self.offset = offset
    }

    /// The same error seen from one level up: `component` (a member name or `[index]`) goes in
    /// front of ``field``. Readers of nested values add their part of the path only when an
    /// error passes through them, so successful reads never build path strings.
    package func prefixingField(_ component: String) -> WebAuthnError {
        guard !component.isEmpty else { return self }
        let path: String
        if let field {
            path = field.hasPrefix("[") ? component + field : component + "." + field
        } else {
            path = component
        }
        return WebAuthnError(code, reason, field: path, step: step, offset: offset)
    }

    /// `[step: ][field: ]reason[ at offset N]`, for example
    /// `response.clientDataJSON: expected a base64url string, found a number`.
    public var description: String {
        var text = ""
        if let step { text += "\(step): " }
        if let field { text += field + ": " }
        text += reason
        if let offset { text += " at offset \(offset)" }
        return text
    }
}
