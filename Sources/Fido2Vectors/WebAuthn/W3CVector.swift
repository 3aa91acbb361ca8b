import Fido2Crypto
import Fido2Encoding
import Fido2WebAuthn
import Fido2WebAuthnWire

/// One credential of the W3C WebAuthn Level 3 test vectors, with its keys built from the spec's
/// values, and the checks ``W3CWebAuthnSuite`` runs on it. The tests read the cases through
/// this type too (``all()``), so there is one loader.
package struct W3CVector: Sendable {
    /// The case's `id`.
    package let id: String
    /// The case as the file gives it.
    package let json: JSONValue
    /// The attestation statement format.
    package let format: String
    /// The credential's algorithm.
    package let algorithm: COSEAlgorithm
    /// The credential private key, from the spec's values.
    package let credentialKey: PrivateKey
    /// The attestation private key, when the case has one.
    package let attestationKey: PrivateKey?
    /// The RP ID.
    package let rpID: String
    /// The origin in clientDataJSON.
    package let origin: String
    /// `topOrigin` in clientDataJSON (only the case that has one).
    package let topOrigin: String?
    /// Whether the ceremony ran in a cross-origin iframe.
    package let crossOrigin: Bool
    /// The page the relying party allows framing (the file's `common.top_origin`).
    package let allowedTopOrigin: String?

    /// Every case of `webauthn-l3-test-vectors.json`, given as `document`.
    ///
    /// - Throws: ``VectorDataError`` when the file is not a list of cases or a case lacks its
    ///   values.
    package static func all(_ document: JSONValue) throws -> [W3CVector] {
        guard let cases = document["cases"]?.arrayValue else {
            throw VectorDataError("no cases")
        }
        return try cases.map { try W3CVector($0, common: document["common"]) }
    }

    /// The case read from `json`, with the file's `common` values.
    ///
    /// - Throws: ``VectorDataError`` when a value the case needs is missing.
    package init(_ json: JSONValue, common: JSONValue?) throws {
        self.json = json
        guard let id = json["id"]?.stringValue, let derived = json["derived"],
            let format = derived["attestation_format"]?.stringValue,
            let alg = derived["credential_cose_alg"]?.int64Value,
            let rpID = derived["rp_id"]?.stringValue, let origin = derived["origin"]?.stringValue
        else { throw VectorDataError("id or derived values missing") }
        self.id = id
        self.format = format
        self.rpID = rpID
        self.origin = origin
        topOrigin = derived["top_origin"]?.stringValue
        crossOrigin = derived["cross_origin"]?.boolValue ?? false
        allowedTopOrigin = common?["top_origin"]?.stringValue
        algorithm = COSEAlgorithm(rawValue: Int(alg))
        let values = json["registration"]?["values"]
        if let scalar = values?["credential_private_key"]?.stringValue {
            let kind: KeyKind =
                switch algorithm {
                case .es256: .p256
                case .es384: .p384
                default: .p521
                }
            credentialKey = try PrivateKey(rawScalar: Self.hex(scalar), kind: kind)
        } else if let raw = values?["private_key"]?.stringValue {
            let bytes = try Self.hex(raw)
            credentialKey = try PrivateKey(
                rawEdDSAPrivateKey: bytes, kind: bytes.count == 32 ? .ed25519 : .ed448)
        } else if let p = values?["private_key_p"]?.stringValue,
            let q = values?["private_key_q"]?.stringValue
        {
            credentialKey = try PrivateKey(
                rsaPrimeP: Self.hex(p), primeQ: Self.hex(q), publicExponent: [0x01, 0x00, 0x01])
        } else {
            throw VectorDataError("no credential private key")
        }
        attestationKey = try values?["attestation_private_key"]?.stringValue.map {
            try PrivateKey(rawScalar: Self.hex($0), kind: .p256)
        }
    }

    static func hex(_ text: String) throws -> [UInt8] { try Hex.decode(text) }

    /// The hex value `name` of `ceremony` (`registration` or `authentication`).
    package func bytes(_ ceremony: String, _ name: String) throws -> [UInt8] {
        guard let text = json[ceremony]?["values"]?[name]?.stringValue else {
            throw VectorDataError("\(ceremony).values.\(name) missing")
        }
        return try Self.hex(text)
    }

    /// Registration flags: UP | AT, plus UV/BE/BS of `auth_data_UV_BE_BS` with BS only under
    /// BE; fido-u2f is exactly UP | AT.
    package func registrationFlags() throws -> AuthenticatorDataFlags {
        guard format != "fido-u2f" else { return [.userPresent, .attestedCredentialData] }
        var bits = (try bytes("registration", "auth_data_UV_BE_BS").first ?? 0) & 0x1c
        if bits & 0x08 == 0 { bits &= ~0x10 }
        return AuthenticatorDataFlags(rawValue: 0x41 | bits)
    }

    /// Assertion flags: UP, BE as registered, UV/BS of `auth_data_UV_BS` with BS only under BE.
    package func assertionFlags() throws -> AuthenticatorDataFlags {
        let backupEligible = try registrationFlags().contains(.backupEligible)
        var bits = (try bytes("authentication", "auth_data_UV_BS").first ?? 0) & 0x14
        if !backupEligible { bits &= ~0x10 }
        return AuthenticatorDataFlags(rawValue: 0x01 | bits | (backupEligible ? 0x08 : 0))
    }

    /// The client data rebuilt from the spec's inputs (with the `extraData` member when bit 0
    /// of `client_data_gen_flags` is set).
    package func clientData(registration: Bool) throws -> CollectedClientData {
        let ceremony = registration ? "registration" : "authentication"
        var extra = JSONObject()
        if let flags = try bytes(ceremony, "client_data_gen_flags").first, flags & 0x01 != 0 {
            extra.append(
                "extraData",
                .string(
                    "clientDataJSON may be extended with additional fields in the future, "
                        + "such as this: "
                        + Base64URL.encode(try bytes(ceremony, "extraData_random"))))
        }
        return try CollectedClientData(
            type: registration ? .create : .get, challenge: try bytes(ceremony, "challenge"),
            origin: origin, crossOrigin: crossOrigin, topOrigin: topOrigin, extraMembers: extra)
    }

    /// The bytes of ``clientData(registration:)``.
    func clientDataJSON(registration: Bool) throws -> [UInt8] {
        try clientData(registration: registration).jsonBytes()
    }

    // MARK: Registration

    /// Rebuilds the registration, verifies it, and returns the credential record.
    func verifyRegistration(root: Certificate, relaxAndroidKey: Bool) throws -> CredentialRecord {
        let published = try bytes("registration", "attestationObject")
        let clientData = try bytes("registration", "clientDataJSON")
        let coseKey = try COSEKey(publicKey: credentialKey.publicKey, algorithm: algorithm)
        guard let derivedKey = json["derived"]?["credential_public_key_cose"]?.stringValue,
            try coseKey.cborEncoded == Self.hex(derivedKey)
        else { throw VectorDataError("the private key's COSE key is not the derived one") }
        guard try clientDataJSON(registration: true) == clientData else {
            throw VectorDataError("rebuilt clientDataJSON differs from the published bytes")
        }
        let object = try AttestationObject(bytes: published)
        guard let aaguid = AAGUID(bytes: try bytes("registration", "aaguid")) else {
            throw VectorDataError("aaguid is not 16 bytes")
        }
        let credentialId = try bytes("registration", "credential_id")
        let authenticatorData = try AuthenticatorData(
            relyingPartyID: rpID, flags: try registrationFlags(), signCount: 0,
            attestedCredentialData: AttestedCredentialData(
                aaguid: aaguid, credentialId: credentialId, credentialPublicKey: coseKey))
        guard authenticatorData.bytes.elementsEqual(object.authenticatorData.bytes) else {
            throw VectorDataError("rebuilt authenticator data differs from the published bytes")
        }
        if let statement = try rebuiltStatement(object, authenticatorData, clientData) {
            let rebuilt = AttestationObject(
                authenticatorData: authenticatorData, statement: statement)
            guard rebuilt.bytes.elementsEqual(published) else {
                throw VectorDataError("rebuilt attestation object differs from the published bytes")
            }
        }

        var policy = AttestationTrustPolicy(validationTime: W3CWebAuthnSuite.validationTime)
        for format in ["packed", "fido-u2f", "tpm", "android-key", "apple"] {
            policy = policy.trusting([root], for: format)
        }
        policy.androidKey.acceptsMissingOriginAndPurpose = relaxAndroidKey
        let relyingParty = relyingParty(policy)
        let flags = try registrationFlags()
        let result = try relyingParty.verifyRegistration(
            RegistrationResponseJSON(
                rawId: credentialId,
                response: AuthenticatorAttestationResponseJSON(
                    clientDataJSON: clientData, attestationObject: published)),
            expecting: RegistrationExpectations(
                challenge: try bytes("registration", "challenge"),
                requiresUserVerification: flags.contains(.userVerified)))
        var expectedType: AttestationType =
            switch format {
            case "none": .none
            case "tpm": .attestationCA
            case "apple": .anonymizationCA
            default: .basic
            }
        if case .packed(let packed) = object.statement, packed.certificates == nil {
            expectedType = .selfAttestation
        }
        let checks: [(String, Bool)] = [
            ("credential ID", result.credentialId == credentialId),
            ("credential public key", result.credentialPublicKeyBytes == (try coseKey.cborEncoded)),
            ("algorithm", result.algorithm == algorithm),
            ("flags", result.flags == flags),
            ("AAGUID", result.aaguid == aaguid),
            ("format", result.format == format),
            ("attestation type \(result.attestationType)", result.attestationType == expectedType),
            ("trust path", Self.trustPathIsRight(result.trustPath, type: expectedType, root: root)),
        ]
        if let wrong = checks.first(where: { !$0.1 }) {
            throw VectorDataError("verified, but the \(wrong.0) is not the vector's")
        }
        return result.credentialRecord()
    }

    private static func trustPathIsRight(
        _ trustPath: TrustPathEvaluation, type: AttestationType, root: Certificate
    ) -> Bool {
        switch (trustPath, type) {
        case (.notApplicable, .none), (.notApplicable, .selfAttestation): true
        case (.verified(let path), _): path.last == root
        default: false
        }
    }

    /// The statement rebuilt from the spec's keys for the formats fido2kit can make (nil for
    /// the others): the certificates are inputs, taken from the published statement.
    private func rebuiltStatement(
        _ object: AttestationObject, _ authenticatorData: AuthenticatorData,
        _ clientData: [UInt8]
    ) throws -> AttestationStatement? {
        let clientDataHash = DigestAlgorithm.sha256.hash(clientData)
        switch object.statement {
        case .none:
            return AttestationStatement.none
        case .packed(let packed) where packed.certificates == nil:
            return .packed(
                try .selfAttestation(
                    authenticatorData: authenticatorData, clientDataHash: clientDataHash,
                    credentialKey: credentialKey, algorithm: algorithm, nonce: .deterministic))
        case .packed(let packed):
            guard let attestationKey, let certificates = packed.certificates else {
                throw VectorDataError("packed full attestation without its key")
            }
            return .packed(
                try .fullAttestation(
                    authenticatorData: authenticatorData, clientDataHash: clientDataHash,
                    attestationKey: attestationKey, certificates: certificates.map { Array($0) },
                    nonce: .deterministic))
        case .fidoU2F(let u2f):
            guard let attestationKey, let certificate = u2f.certificates.first else {
                throw VectorDataError("fido-u2f attestation without its key")
            }
            return .fidoU2F(
                try .signing(
                    authenticatorData: authenticatorData, clientDataHash: clientDataHash,
                    attestationKey: attestationKey, certificate: Array(certificate),
                    nonce: .deterministic))
        default:
            return nil
        }
    }

    private func relyingParty(_ policy: AttestationTrustPolicy) -> RelyingParty {
        RelyingParty(
            id: rpID, origins: [origin],
            crossOrigin: crossOrigin
                ? .allowed(topOrigins: allowedTopOrigin.map { [$0] } ?? []) : .forbidden,
            trustPolicy: policy)
    }

    // MARK: Authentication

    /// Rebuilds the assertion and verifies it against `record`.
    func verifyAuthentication(record: CredentialRecord, root: Certificate) throws {
        let clientData = try bytes("authentication", "clientDataJSON")
        let authenticatorData = try bytes("authentication", "authenticatorData")
        let signature = try bytes("authentication", "signature")
        guard try clientDataJSON(registration: false) == clientData else {
            throw VectorDataError("rebuilt clientDataJSON differs from the published bytes")
        }
        let flags = try assertionFlags()
        let rebuilt = try AuthenticatorData(relyingPartyID: rpID, flags: flags, signCount: 0)
        guard rebuilt.bytes.elementsEqual(authenticatorData) else {
            throw VectorDataError("rebuilt authenticator data differs from the published bytes")
        }
        let resigned = try credentialKey.signature(
            for: rebuilt.bytes, DigestAlgorithm.sha256.hash(clientData), algorithm: algorithm,
            nonce: .deterministic)
        guard resigned == signature else {
            throw VectorDataError("re-signing does not reproduce the published signature")
        }
        let result = try relyingParty(AttestationTrustPolicy()).verifyAuthentication(
            AuthenticationResponseJSON(
                rawId: record.id,
                response: AuthenticatorAssertionResponseJSON(
                    clientDataJSON: clientData, authenticatorData: authenticatorData,
                    signature: signature)),
            expecting: AuthenticationExpectations(
                challenge: try bytes("authentication", "challenge"), credential: record,
                allowCredentials: [record.id],
                requiresUserVerification: flags.contains(.userVerified)))
        guard result.flags == flags, result.signCount == 0, result.signCountVerdict == .notUsed
        else { throw VectorDataError("verified, but flags or counter are not the vector's") }
    }
}
