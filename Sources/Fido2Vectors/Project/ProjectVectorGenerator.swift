import Fido2Authenticator
@_spi(Fido2Internals) import Fido2Crypto
import Fido2Encoding
import Fido2WebAuthn
import Fido2WebAuthnWire

/// Writes fido2kit's own vector suite (`docs/vectors.md`): registrations and authentications
/// made by the software authenticator for every algorithm × attestation, negative cases that
/// each break one verification step, and Belvo-shaped cases.
///
/// Everything is deterministic: keys, credential IDs and challenges come from seeded draws
/// (``ProjectVectors/seed(_:)``, one label per case), ECDSA nonces are RFC 6979, PSS salts are
/// derived from key and message, certificates have fixed validity and serial numbers, and the
/// files are printed by ``VectorJSONPrinter``. A rerun writes the same bytes.
package struct ProjectVectorGenerator {
    /// A credential a registration case made, for the authentication cases that use it.
    struct Credential {
        let registrationID: String
        let algorithm: VectorAlgorithm
        let authenticator: SoftwareAuthenticator
        let id: [UInt8]
        let publicKey: [UInt8]
        let privateKey: PrivateKey
        let userHandle: [UInt8]
        let backupEligible: Bool
        let backupState: Bool
    }

    let pki: VectorTestPKI

    /// A generator with the suite's test CA.
    ///
    /// - Throws: when the test CA cannot be made.
    package init() throws { pki = try VectorTestPKI() }

    /// The suite's files: name and bytes.
    package func files() throws -> [(name: String, bytes: [UInt8])] {
        var registrations: [JSONValue] = []
        var credentials: [Credential] = []
        for algorithm in VectorAlgorithm.allCases {
            for attestation in VectorAttestation.allCases {
                if attestation == .fidoU2F && algorithm != .es256 { continue }
                let (entry, credential) = try registration(algorithm, attestation)
                registrations.append(entry)
                credentials.append(credential)
            }
        }
        registrations += try negativeRegistrations()
        var authentications: [JSONValue] = []
        for credential in credentials {
            authentications.append(try authentication(credential))
        }
        guard let base = credentials.first(where: { $0.registrationID == "reg-es256-none" }) else {
            throw VectorDataError("the ES256 none registration is missing")
        }
        authentications += try negativeAuthentications(base)
        let belvo = try BelvoVectorCases(pki: pki).cases()
        return [
            (
                "registrations.json",
                document("registrations", Self.registrationsText, registrations)
            ),
            (
                "authentications.json",
                document("authentications", Self.authenticationsText, authentications)
            ),
            ("belvo.json", document("belvo", Self.belvoText, belvo)),
        ]
    }

    static let registrationsText =
        "Registrations (WebAuthn Level 3 §7.1) made by fido2kit's software authenticator for "
        + "ES256, ES384, ES512, RS256, PS256 and EdDSA with attestation none, packed self, "
        + "packed with a chain from the generated test CA, and fido-u2f (ES256), followed by "
        + "negative cases that each break one verification step."
    static let authenticationsText =
        "Authentications (WebAuthn Level 3 §7.2): one assertion by every credential of "
        + "registrations.json, followed by negative cases that each break one verification step."
    static let belvoText =
        "Belvo Biometric Pix: the confirm-enrollment and authorize-payment request bodies a "
        + "phone running Belvo's SDK sends, with the WebAuthn response inside each body."

    /// A suite file around `cases`.
    private func document(_ suite: String, _ description: String, _ cases: [JSONValue]) -> [UInt8] {
        let root = pki.root.certificate
        let anchor: JSONValue = [
            "name": .string(ProjectVectors.testRootName),
            "formats": ["packed", "fido-u2f"],
            "certificate": .base64URL(root.derEncoded),
            "subject": .string(root.subject.description),
        ]
        let value: JSONValue = [
            "format": .string(ProjectVectors.format),
            "suite": .string(suite),
            "description": .string(description),
            "generator": "fido2kit vectors generate (docs/vectors.md)",
            "steps":
                "WebAuthn Level 3 (editor's draft) §7.1 Registering a New Credential and §7.2 Verifying an Authentication Assertion",
            "validation_time": .string(ISO8601Time.text(ProjectVectors.validationTime)),
            "trust_anchors": [anchor],
            "cases": .array(cases),
        ]
        return VectorJSONPrinter.bytes(value)
    }

    // MARK: Positive cases

    /// A user handle for a case (16 bytes).
    static func userHandle(_ label: String) throws -> [UInt8] {
        try ProjectVectors.draw("user handle: \(label)", count: 16)
    }

    /// A challenge for a case (32 bytes).
    static func challenge(_ label: String) throws -> [UInt8] {
        try ProjectVectors.draw("challenge: \(label)", count: 32)
    }

    private func registration(
        _ algorithm: VectorAlgorithm, _ attestation: VectorAttestation
    ) throws -> (JSONValue, Credential) {
        let id = "reg-\(algorithm.label)-\(attestation.rawValue)"
        var base = AuthenticatorConfiguration()
        base.supportedAlgorithms = [algorithm.cose]
        base.attestation = pki.attestation(attestation)
        if attestation == .fidoU2F {
            base.transports = [.usb]
            base.attachment = .crossPlatform
        } else {
            base.aaguid = ProjectVectors.aaguid
        }
        let configuration = try AuthenticatorConfiguration.deterministic(
            seed: ProjectVectors.seed("authenticator: \(id)"), base: base)
        let authenticator = SoftwareAuthenticator(
            configuration: configuration, store: InMemoryCredentialStore())
        let challenge = try Self.challenge(id)
        let userHandle = try Self.userHandle(id)
        let options = PublicKeyCredentialCreationOptionsJSON(
            rp: PublicKeyCredentialRpEntity(
                name: "fido2kit vectors", id: ProjectVectors.relyingPartyID),
            user: PublicKeyCredentialUserEntityJSON(
                id: userHandle, name: "\(id)@example.org", displayName: id),
            challenge: challenge,
            pubKeyCredParams: [PublicKeyCredentialParameters(alg: algorithm.cose.rawValue)],
            authenticatorSelection: AuthenticatorSelectionCriteria(
                residentKey: .preferred, userVerification: .preferred),
            attestation: attestation.conveyance)
        let response = try authenticator.makeCredential(
            options: options, origin: ProjectVectors.origin)
        let object = try AttestationObject(bytes: response.response.attestationObject)
        guard let attested = object.authenticatorData.attestedCredentialData,
            let stored = try authenticator.store.credential(id: response.rawId)
        else { throw VectorDataError("\(id): the authenticator kept no credential") }
        let flags = object.authenticatorData.flags
        let credential = Credential(
            registrationID: id, algorithm: algorithm, authenticator: authenticator,
            id: response.rawId, publicKey: Array(attested.credentialPublicKeyBytes),
            privateKey: stored.privateKey, userHandle: userHandle,
            backupEligible: flags.contains(.backupEligible),
            backupState: flags.contains(.backupState))
        let entry: JSONValue = [
            "id": .string(id),
            "ceremony": "registration",
            "title": .string(
                "\(algorithm.rawValue) credential, attestation \(attestation.rawValue)"),
            "algorithm": .string(algorithm.rawValue),
            "attestation": .string(attestation.rawValue),
            "relying_party": Self.registrationParty(challenge: challenge, algorithms: [algorithm]),
            "response": try JSONValue(parsing: response.jsonBytes()),
            "expected": [
                "result": "ok",
                "fmt": .string(attestation.format),
                "attestation_type": .string(attestation.attestationType),
                "trust_path": .string(attestation.trustPath),
                "credential_id": .base64URL(response.rawId),
                "credential_public_key": .base64URL(attested.credentialPublicKeyBytes),
                "alg": .integer(algorithm.cose.rawValue),
                "aaguid": .string(attested.aaguid.description),
                "sign_count": .integer(object.authenticatorData.signCount),
                "flags": .integer(flags.rawValue),
            ],
        ]
        return (entry, credential)
    }

    /// The relying party of a registration at example.org; `profile` appears only for the
    /// strict profile (the compatible one is the default).
    static func registrationParty(
        challenge: [UInt8], algorithms: [VectorAlgorithm], requireUserVerification: Bool = false,
        strictProfile: Bool = false
    ) -> JSONValue {
        var party: JSONObject = [
            "rp_id": .string(ProjectVectors.relyingPartyID),
            "origins": [.string(ProjectVectors.origin)],
            "challenge": .base64URL(challenge),
            "require_user_verification": .bool(requireUserVerification),
            "pub_key_cred_params": .array(algorithms.map { .integer($0.cose.rawValue) }),
        ]
        if strictProfile { party.append("profile", "strict") }
        return .object(party)
    }

    private func authentication(_ credential: Credential) throws -> JSONValue {
        let id = "auth-" + credential.registrationID.dropFirst("reg-".count)
        let challenge = try Self.challenge(id)
        let options = PublicKeyCredentialRequestOptionsJSON(
            challenge: challenge, rpId: ProjectVectors.relyingPartyID,
            allowCredentials: [PublicKeyCredentialDescriptorJSON(id: credential.id)],
            userVerification: .preferred)
        let response = try credential.authenticator.getAssertion(
            options: options, origin: ProjectVectors.origin)
        let authData = try AuthenticatorData(bytes: response.response.authenticatorData)
        return [
            "id": .string(id),
            "ceremony": "authentication",
            "title": .string(
                "An assertion by the \(credential.algorithm.rawValue) credential of \(credential.registrationID)"
            ),
            "algorithm": .string(credential.algorithm.rawValue),
            "credential": Self.record(credential, signCount: 0),
            "relying_party": Self.authenticationParty(challenge: challenge, credential: credential),
            "response": try JSONValue(parsing: response.jsonBytes()),
            "expected": [
                "result": "ok",
                "sign_count": .integer(authData.signCount),
                "flags": .integer(authData.flags.rawValue),
                "user_verified": .bool(authData.flags.contains(.userVerified)),
                "backup_state": .bool(authData.flags.contains(.backupState)),
            ],
        ]
    }

    /// The credential record a relying party stored for `credential`.
    static func record(_ credential: Credential, signCount: UInt32) -> JSONValue {
        [
            "registration": .string(credential.registrationID),
            "id": .base64URL(credential.id),
            "public_key": .base64URL(credential.publicKey),
            "alg": .integer(credential.algorithm.cose.rawValue),
            "sign_count": .integer(signCount),
            "backup_eligible": .bool(credential.backupEligible),
            "backup_state": .bool(credential.backupState),
            "user_handle": .base64URL(credential.userHandle),
        ]
    }

    /// The relying party of an authentication at example.org, allowing `credential`.
    static func authenticationParty(
        challenge: [UInt8], credential: Credential, requireUserVerification: Bool = false
    ) -> JSONValue {
        [
            "rp_id": .string(ProjectVectors.relyingPartyID),
            "origins": [.string(ProjectVectors.origin)],
            "challenge": .base64URL(challenge),
            "require_user_verification": .bool(requireUserVerification),
            "allow_credentials": [.base64URL(credential.id)],
            "reject_sign_count_regression": true,
        ]
    }
}
