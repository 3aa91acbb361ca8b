import Fido2Crypto
import Fido2Encoding
import Fido2WebAuthn
import Fido2WebAuthnWire

extension ProjectVectorGenerator {
    /// The parts of a packed self-attested ES256 registration, as a genuine authenticator and
    /// client make them unless a negative case changes one.
    struct RegistrationParts {
        var clientChallenge: [UInt8]
        var expectedChallenge: [UInt8]
        var origin = ProjectVectors.origin
        var rpID = ProjectVectors.relyingPartyID
        /// UP | UV | AT.
        var flags: UInt8 = 0x45
        var keyEncoding = CeremonyForgery.KeyEncoding.canonical
        var droppedTrailingBytes = 0
        var appendedBytes: [UInt8] = []
        var flipsSignatureBit = false
        var requiresUserVerification = false
        /// Whether the relying party reads with the strict profile (for encodings the
        /// compatible profile accepts and reports).
        var strictProfile = false
    }

    /// The parts of an ES256 assertion (same convention).
    struct AssertionParts {
        var clientChallenge: [UInt8]
        var expectedChallenge: [UInt8]
        var origin = ProjectVectors.origin
        var rpID = ProjectVectors.relyingPartyID
        /// UP | UV.
        var flags: UInt8 = 0x05
        var signCount: UInt32 = 1
        var storedSignCount: UInt32 = 0
        var droppedTrailingBytes = 0
        var appendedBytes: [UInt8] = []
        var flipsSignatureBit = false
        var requiresUserVerification = false
    }

    static let otherOrigin = "https://example.net"
    static let otherRPID = "example.net"

    static var negativeRegistrationCases: [NegativeCase<RegistrationParts>] {
        [
            NegativeCase(
                id: "reg-neg-challenge", title: "The response answers another ceremony's challenge",
                mutation: "clientDataJSON.challenge is not relying_party.challenge",
                step: "§7.1 step 8", check: "C.challenge equals the options' challenge",
                code: "challengeMismatch"
            ) { $0.clientChallenge = $0.clientChallenge.map { $0 ^ 0xff } },
            NegativeCase(
                id: "reg-neg-origin", title: "The ceremony ran in an origin the RP does not serve",
                mutation: "clientDataJSON.origin is \(otherOrigin)", step: "§7.1 step 9",
                check: "C.origin is an origin the RP expects", code: "originNotAllowed"
            ) { $0.origin = otherOrigin },
            NegativeCase(
                id: "reg-neg-rp-id", title: "The credential is scoped to another RP ID",
                mutation: "authData.rpIdHash is SHA-256(\"\(otherRPID)\")", step: "§7.1 step 14",
                check: "rpIdHash is the SHA-256 of the RP ID", code: "rpIdHashMismatch"
            ) { $0.rpID = otherRPID },
            NegativeCase(
                id: "reg-neg-signature-bit", title: "The attestation signature has one bit flipped",
                mutation: "bit 0 of the middle byte of attStmt.sig is flipped",
                step: "§7.1 step 22",
                check: "the packed statement's signature verifies with the credential key",
                code: "attestationSignatureInvalid"
            ) { $0.flipsSignatureBit = true },
            NegativeCase(
                id: "reg-neg-uv-required", title: "User verification is required but was not done",
                mutation: "flags are UP | AT (UV clear); the RP requires user verification",
                step: "§7.1 step 16", check: "UV is set when user verification is required",
                code: "userVerificationMissing"
            ) {
                $0.flags = 0x41
                $0.requiresUserVerification = true
            },
            NegativeCase(
                id: "reg-neg-bs-without-be", title: "Backup state without backup eligibility",
                mutation: "flags are UP | UV | BS | AT (BS set, BE clear)", step: "§7.1 step 17",
                check: "BS is set only when BE is set", code: "backupStateWithoutEligibility"
            ) { $0.flags = 0x55 },
            NegativeCase(
                id: "reg-neg-truncated-authdata",
                title: "Authenticator data cut short inside the credential public key",
                mutation:
                    "the last byte of authData (of the COSE key's y coordinate) is missing; the "
                    + "signature covers the shortened bytes",
                step: "§7.1 step 13", check: "authData decodes (attested credential data complete)",
                code: "truncated"
            ) { $0.droppedTrailingBytes = 1 },
            NegativeCase(
                id: "reg-neg-noncanonical-cose-key",
                title: "Credential public key not in CTAP2 canonical CBOR, strict profile",
                mutation: "the COSE_Key writes alg (3) before kty (1)", step: "§7.1 step 13",
                check:
                    "authData decodes under CTAP2 canonical CBOR (keys in canonical order): the "
                    + "strict profile refuses it; the compatible one reads it and reports it",
                code: "malformedCBOR"
            ) {
                $0.keyEncoding = .algorithmFirst
                $0.strictProfile = true
            },
            NegativeCase(
                id: "reg-neg-duplicate-cbor-key",
                title: "Credential public key with a duplicate map key",
                mutation: "the COSE_Key holds alg (3) twice, with the same value",
                step: "§7.1 step 13",
                check: "authData decodes (no duplicate map keys)", code: "malformedCBOR"
            ) { $0.keyEncoding = .duplicateAlgorithm },
            NegativeCase(
                id: "reg-neg-trailing-bytes", title: "Bytes after the attested credential data",
                mutation:
                    "one 0x00 byte follows the COSE key in authData (ED clear); the signature "
                    + "covers it",
                step: "§7.1 step 13", check: "authData has no bytes after its last part",
                code: "trailingBytes"
            ) { $0.appendedBytes = [0x00] },
        ]
    }

    static var negativeAuthenticationCases: [NegativeCase<AssertionParts>] {
        [
            NegativeCase(
                id: "auth-neg-challenge",
                title: "The assertion answers another ceremony's challenge",
                mutation: "clientDataJSON.challenge is not relying_party.challenge",
                step: "§7.2 step 11", check: "C.challenge equals the options' challenge",
                code: "challengeMismatch"
            ) { $0.clientChallenge = $0.clientChallenge.map { $0 ^ 0xff } },
            NegativeCase(
                id: "auth-neg-origin", title: "The ceremony ran in an origin the RP does not serve",
                mutation: "clientDataJSON.origin is \(otherOrigin)", step: "§7.2 step 12",
                check: "C.origin is an origin the RP expects", code: "originNotAllowed"
            ) { $0.origin = otherOrigin },
            NegativeCase(
                id: "auth-neg-rp-id", title: "The assertion is for another RP ID",
                mutation: "authenticatorData.rpIdHash is SHA-256(\"\(otherRPID)\")",
                step: "§7.2 step 15", check: "rpIdHash is the SHA-256 of the RP ID",
                code: "rpIdHashMismatch"
            ) { $0.rpID = otherRPID },
            NegativeCase(
                id: "auth-neg-signature-bit", title: "The assertion signature has one bit flipped",
                mutation: "bit 0 of the middle byte of the signature is flipped",
                step: "§7.2 step 21",
                check: "the signature verifies with the stored public key", code: "signatureInvalid"
            ) { $0.flipsSignatureBit = true },
            NegativeCase(
                id: "auth-neg-sign-count-regression", title: "The signature counter went backwards",
                mutation: "signCount is 5; the stored counter is 9", step: "§7.2 step 22",
                check: "the counter is greater than the stored one (the RP rejects regressions)",
                code: "signCountRegressed"
            ) {
                $0.signCount = 5
                $0.storedSignCount = 9
            },
            NegativeCase(
                id: "auth-neg-uv-required", title: "User verification is required but was not done",
                mutation: "flags are UP (UV clear); the RP requires user verification",
                step: "§7.2 step 17", check: "UV is set when user verification is required",
                code: "userVerificationMissing"
            ) {
                $0.flags = 0x01
                $0.requiresUserVerification = true
            },
            NegativeCase(
                id: "auth-neg-bs-without-be", title: "Backup state without backup eligibility",
                mutation: "flags are UP | UV | BS (BS set, BE clear)", step: "§7.2 step 18",
                check: "BS is set only when BE is set", code: "backupStateWithoutEligibility"
            ) { $0.flags = 0x15 },
            NegativeCase(
                id: "auth-neg-truncated-authdata", title: "Authenticator data of 36 bytes",
                mutation: "the last byte of authenticatorData (of signCount) is missing; the "
                    + "signature covers the shortened bytes",
                step: "§7.2 step 7", check: "authData decodes (37 bytes at least)",
                code: "truncated"
            ) { $0.droppedTrailingBytes = 1 },
            NegativeCase(
                id: "auth-neg-trailing-bytes",
                title: "Bytes after the authenticator data's last part",
                mutation:
                    "one 0x00 byte follows signCount (AT and ED clear); the signature covers it",
                step: "§7.2 step 7", check: "authData has no bytes after its last part",
                code: "trailingBytes"
            ) { $0.appendedBytes = [0x00] },
        ]
    }

    /// The expected outcome of a negative case.
    static func expectedFailure<Parts>(_ spec: NegativeCase<Parts>) -> JSONValue {
        [
            "result": "error", "step": .string(spec.step), "check": .string(spec.check),
            "fido2kit_code": .string(spec.code),
        ]
    }

    func negativeRegistrations() throws -> [JSONValue] {
        let key = try PrivateKey(
            generating: .p256,
            using: DeterministicRandomSource(
                seed: ProjectVectors.seed("negative registration key")))
        let credentialId = try ProjectVectors.draw("negative registration credential id", count: 32)
        return try Self.negativeRegistrationCases.map { spec in
            let challenge = try Self.challenge(spec.id)
            var parts = RegistrationParts(clientChallenge: challenge, expectedChallenge: challenge)
            spec.change(&parts)
            let coseKey = try CeremonyForgery.es256Key(key.publicKey, parts.keyEncoding)
            var authData = try CeremonyForgery.authenticatorData(
                rpID: parts.rpID, flags: parts.flags, signCount: 0,
                attested: (ProjectVectors.aaguid, credentialId, coseKey))
            authData.removeLast(parts.droppedTrailingBytes)
            authData += parts.appendedBytes
            let clientDataJSON = try CollectedClientData(
                type: .create, challenge: parts.clientChallenge, origin: parts.origin
            ).jsonBytes()
            let attestationObject = try CeremonyForgery.packedSelfAttestationObject(
                authenticatorData: authData, clientDataJSON: clientDataJSON, key: key,
                algorithm: .es256, flipSignatureBit: parts.flipsSignatureBit)
            let response = RegistrationResponseJSON(
                rawId: credentialId,
                response: AuthenticatorAttestationResponseJSON(
                    clientDataJSON: clientDataJSON, authenticatorData: authData,
                    transports: [.internal], publicKey: try key.publicKey.spkiDER,
                    publicKeyAlgorithm: COSEAlgorithm.es256.rawValue,
                    attestationObject: attestationObject),
                authenticatorAttachment: .platform, clientExtensionResults: JSONObject())
            return [
                "id": .string(spec.id),
                "ceremony": "registration",
                "title": .string(spec.title),
                "algorithm": "ES256",
                "attestation": "packed-self",
                "mutation": .string(spec.mutation),
                "relying_party": Self.registrationParty(
                    challenge: parts.expectedChallenge, algorithms: [.es256],
                    requireUserVerification: parts.requiresUserVerification,
                    strictProfile: parts.strictProfile),
                "response": try JSONValue(parsing: response.jsonBytes()),
                "expected": Self.expectedFailure(spec),
            ]
        }
    }

    func negativeAuthentications(_ credential: Credential) throws -> [JSONValue] {
        try Self.negativeAuthenticationCases.map { spec in
            let challenge = try Self.challenge(spec.id)
            var parts = AssertionParts(clientChallenge: challenge, expectedChallenge: challenge)
            spec.change(&parts)
            var authData = try CeremonyForgery.authenticatorData(
                rpID: parts.rpID, flags: parts.flags, signCount: parts.signCount)
            authData.removeLast(parts.droppedTrailingBytes)
            authData += parts.appendedBytes
            let clientDataJSON = try CollectedClientData(
                type: .get, challenge: parts.clientChallenge, origin: parts.origin
            ).jsonBytes()
            let signature = try CeremonyForgery.assertionSignature(
                authenticatorData: authData, clientDataJSON: clientDataJSON,
                key: credential.privateKey, algorithm: credential.algorithm.cose,
                flipSignatureBit: parts.flipsSignatureBit)
            let response = AuthenticationResponseJSON(
                rawId: credential.id,
                response: AuthenticatorAssertionResponseJSON(
                    clientDataJSON: clientDataJSON, authenticatorData: authData,
                    signature: signature, userHandle: credential.userHandle),
                authenticatorAttachment: .platform, clientExtensionResults: JSONObject())
            return [
                "id": .string(spec.id),
                "ceremony": "authentication",
                "title": .string(spec.title),
                "algorithm": .string(credential.algorithm.rawValue),
                "mutation": .string(spec.mutation),
                "credential": Self.record(credential, signCount: parts.storedSignCount),
                "relying_party": Self.authenticationParty(
                    challenge: parts.expectedChallenge, credential: credential,
                    requireUserVerification: parts.requiresUserVerification),
                "response": try JSONValue(parsing: response.jsonBytes()),
                "expected": Self.expectedFailure(spec),
            ]
        }
    }
}
