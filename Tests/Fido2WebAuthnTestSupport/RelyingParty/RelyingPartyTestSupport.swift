import Fido2CBOR
@_spi(Fido2Internals) import Fido2Crypto
import Fido2Encoding
import Fido2TestSupport
import Fido2Vectors
import Fido2WebAuthn
import Fido2WebAuthnWire
import Testing

/// 2025-06-01T00:00:00Z: inside the W3C vectors' certificate validity (2024–3024).
package let w3cValidationTime: Int64 = 1_748_736_000

extension W3CVector {
    /// The attestation root of the W3C vectors.
    package static func attestationRoot() throws -> Certificate {
        let document = try sharedVectorJSON("webauthn-l3-test-vectors.json")
        return try Certificate(
            derEncoded: try document.hexBytes("attestation_root.values.attestation_ca_cert"))
    }

    /// The registration as a client hands it over.
    package func registrationResponse() throws -> RegistrationResponseJSON {
        RegistrationResponseJSON(
            rawId: try registrationBytes("credential_id"),
            response: AuthenticatorAttestationResponseJSON(
                clientDataJSON: try registrationBytes("clientDataJSON"),
                attestationObject: try registrationBytes("attestationObject")))
    }

    /// The assertion as a client hands it over.
    package func authenticationResponse() throws -> AuthenticationResponseJSON {
        AuthenticationResponseJSON(
            rawId: try registrationBytes("credential_id"),
            response: AuthenticatorAssertionResponseJSON(
                clientDataJSON: try authenticationBytes("clientDataJSON"),
                authenticatorData: try authenticationBytes("authenticatorData"),
                signature: try authenticationBytes("signature")))
    }

    /// The relying party of the vectors (`example.org`), trusting the attestation root for
    /// every format at ``w3cValidationTime``, framed in `https://example.com` when the case
    /// was made cross-origin.
    package func relyingParty(relaxations: VerificationRelaxations = []) throws -> RelyingParty {
        let root = try Self.attestationRoot()
        var anchors: [String: [Certificate]] = [:]
        for format in ["packed", "fido-u2f", "tpm", "android-key", "apple"] {
            anchors[format] = [root]
        }
        let crossOrigin = json["derived"]?["cross_origin"]?.boolValue ?? false
        var policy = AttestationTrustPolicy(anchors: anchors, validationTime: w3cValidationTime)
        // The vector's key description has empty authorization lists (no origin, no purpose):
        // the android-key verifier accepts that only when told to.
        policy.androidKey.acceptsMissingOriginAndPurpose = format == "android-key"
        return RelyingParty(
            id: rpID, origins: [try json.string("derived.origin")],
            crossOrigin: crossOrigin ? .allowed(topOrigins: ["https://example.com"]) : .forbidden,
            trustPolicy: policy, relaxations: relaxations)
    }

    /// The strictest expectations the registration meets: UV required when it carries UV.
    package func registrationExpectations() throws -> RegistrationExpectations {
        RegistrationExpectations(
            challenge: try registrationBytes("challenge"),
            requiresUserVerification: try registrationFlags().contains(.userVerified))
    }

    /// The credential record the registration makes.
    package func credentialRecord() throws -> CredentialRecord {
        try CredentialRecord(
            id: try registrationBytes("credential_id"),
            publicKeyBytes: Hex.bytes(try json.string("derived.credential_public_key_cose")),
            signCount: 0, backupEligible: try registrationFlags().contains(.backupEligible))
    }

    /// The strictest expectations the assertion meets.
    package func authenticationExpectations() throws -> AuthenticationExpectations {
        let credentialId = try registrationBytes("credential_id")
        return AuthenticationExpectations(
            challenge: try authenticationBytes("challenge"), credential: try credentialRecord(),
            allowCredentials: [credentialId],
            requiresUserVerification: try assertionFlags().contains(.userVerified))
    }
}

/// Builds registrations and assertions for `example.org` with every part adjustable, so each
/// failure path can be reached from an otherwise valid ceremony.
package struct SyntheticCeremony {
    package enum Attestation {
        case none
        case packedSelf(algorithm: COSEAlgorithm? = nil)
        case packedFull(key: PrivateKey, certificates: [[UInt8]], algorithm: COSEAlgorithm? = nil)
        case fidoU2F(key: PrivateKey, certificates: [[UInt8]])
        case raw(format: String, statement: [UInt8])
    }

    package static let rpID = "example.org"
    package static let origin = "https://example.org"
    package static let challenge: [UInt8] = Array(0..<32)
    package static let aaguid = AAGUID(bytes: Array(repeating: 0xa5, count: 16))!

    package var credentialKey: PrivateKey
    package var algorithm: COSEAlgorithm = .es256
    package var type: ClientDataType = .create
    package var challenge = SyntheticCeremony.challenge
    package var origin = SyntheticCeremony.origin
    package var crossOrigin = false
    package var topOrigin: String? = nil
    package var tokenBinding: TokenBinding? = nil
    package var rpID = SyntheticCeremony.rpID
    package var flags: AuthenticatorDataFlags = [.userPresent, .userVerified]
    package var signCount: UInt32 = 0
    package var aaguid = SyntheticCeremony.aaguid
    package var credentialId: [UInt8] = Array(repeating: 0x42, count: 16)
    package var rawId: [UInt8]? = nil
    package var extensions: AuthenticatorExtensionOutputs? = nil
    package var attestation: Attestation = .none
    package var userHandle: [UInt8]? = nil

    package init(credentialKey: PrivateKey, algorithm: COSEAlgorithm = .es256) {
        self.credentialKey = credentialKey
        self.algorithm = algorithm
    }

    /// A ceremony with a fresh P-256 credential key.
    package static func p256() throws -> SyntheticCeremony {
        SyntheticCeremony(credentialKey: try PrivateKey(generating: .p256))
    }

    package var clientDataJSON: [UInt8] {
        get throws {
            ClientDataJSON(
                try CollectedClientData(
                    type: type, challenge: challenge, origin: origin, crossOrigin: crossOrigin,
                    topOrigin: topOrigin, tokenBinding: tokenBinding)
            ).bytes
        }
    }

    package var credentialPublicKey: COSEKey {
        get throws { try COSEKey(publicKey: credentialKey.publicKey, algorithm: algorithm) }
    }

    /// Registration authenticator data.
    package func registrationAuthenticatorData() throws -> AuthenticatorData {
        try AuthenticatorData(
            relyingPartyID: rpID, flags: flags, signCount: signCount,
            attestedCredentialData: AttestedCredentialData(
                aaguid: aaguid, credentialId: credentialId,
                credentialPublicKey: credentialPublicKey),
            extensions: extensions)
    }

    /// The attestation object for `authData` (built, or raw when `authDataBytes` is given).
    package func attestationObject(authDataBytes: [UInt8]? = nil) throws -> [UInt8] {
        let clientDataHash = DigestAlgorithm.sha256.hash(try clientDataJSON)
        if let authDataBytes {
            guard case .raw(let format, let statement) = attestation else {
                return Self.encodeAttestationObject(
                    format: "none", statement: [0xa0], authData: authDataBytes)
            }
            return Self.encodeAttestationObject(
                format: format, statement: statement, authData: authDataBytes)
        }
        let authData = try registrationAuthenticatorData()
        let statement: AttestationStatement
        switch attestation {
        case .none:
            statement = .none
        case .packedSelf(let algorithm):
            statement = .packed(
                try PackedAttestationStatement.selfAttestation(
                    authenticatorData: authData, clientDataHash: clientDataHash,
                    credentialKey: credentialKey, algorithm: self.algorithm
                ).withAlgorithm(algorithm))
        case .packedFull(let key, let certificates, let algorithm):
            statement = .packed(
                try PackedAttestationStatement.fullAttestation(
                    authenticatorData: authData, clientDataHash: clientDataHash,
                    attestationKey: key, certificates: certificates, algorithm: algorithm))
        case .fidoU2F(let key, let certificates):
            let signed = try FIDOU2FAttestationStatement.signing(
                authenticatorData: authData, clientDataHash: clientDataHash,
                attestationKey: key, certificate: certificates[0])
            statement = .fidoU2F(
                FIDOU2FAttestationStatement(
                    signature: Array(signed.signature), certificates: certificates))
        case .raw(let format, let encoded):
            return Self.encodeAttestationObject(
                format: format, statement: encoded, authData: Array(authData.bytes))
        }
        return Array(AttestationObject(authenticatorData: authData, statement: statement).bytes)
    }

    /// A registration response.
    package func registration(authDataBytes: [UInt8]? = nil) throws -> RegistrationResponseJSON {
        RegistrationResponseJSON(
            rawId: rawId ?? credentialId,
            response: AuthenticatorAttestationResponseJSON(
                clientDataJSON: try clientDataJSON, transports: [.usb, .nfc],
                attestationObject: try attestationObject(authDataBytes: authDataBytes)))
    }

    /// An assertion response, signed by the credential key (over `authDataBytes` when given).
    package func assertion(authDataBytes: [UInt8]? = nil) throws -> AuthenticationResponseJSON {
        let authData =
            try authDataBytes
            ?? Array(
                AuthenticatorData(
                    relyingPartyID: rpID, flags: flags, signCount: signCount,
                    extensions: extensions
                ).bytes)
        let clientData = try clientDataJSON
        let signature = try credentialKey.signature(
            for: authData, DigestAlgorithm.sha256.hash(clientData), algorithm: algorithm)
        return AuthenticationResponseJSON(
            rawId: rawId ?? credentialId,
            response: AuthenticatorAssertionResponseJSON(
                clientDataJSON: clientData, authenticatorData: authData, signature: signature,
                userHandle: userHandle))
    }

    /// The record of this credential.
    package func record(
        signCount: UInt32 = 0, backupEligible: Bool = false, userHandle: [UInt8]? = nil
    )
        throws -> CredentialRecord
    {
        try CredentialRecord(
            id: credentialId, publicKey: try credentialPublicKey, signCount: signCount,
            backupEligible: backupEligible, userHandle: userHandle)
    }

    /// `{"fmt": format, "attStmt": statement, "authData": authData}` in canonical order.
    package static func encodeAttestationObject(
        format: String, statement: [UInt8], authData: [UInt8]
    ) -> [UInt8] {
        var writer = CBORWriter()
        writer.writeMapHeader(count: 3)
        writer.writeTextString("fmt")
        writer.writeTextString(format)
        writer.writeTextString("attStmt")
        writer.writeEncodedItem(statement[...])
        writer.writeTextString("authData")
        writer.writeByteString(authData)
        return writer.bytes
    }

    /// The relying party of these ceremonies.
    package static func relyingParty(
        crossOrigin: OriginPolicy.CrossOrigin = .forbidden,
        trustPolicy: AttestationTrustPolicy = AttestationTrustPolicy(),
        profile: VerificationProfile = .compatible, relaxations: VerificationRelaxations = []
    ) -> RelyingParty {
        RelyingParty(
            id: rpID, origins: [origin], crossOrigin: crossOrigin, trustPolicy: trustPolicy,
            profile: profile, relaxations: relaxations)
    }
}

extension PackedAttestationStatement {
    /// The same statement claiming `algorithm` instead (nil: unchanged).
    package func withAlgorithm(_ algorithm: COSEAlgorithm?) -> PackedAttestationStatement {
        PackedAttestationStatement(
            algorithm: algorithm ?? self.algorithm, signature: Array(signature),
            certificates: certificates?.map { Array($0) })
    }
}

/// A test PKI: a root CA (ES256) and packed attestation certificates it issues.
package struct TestAttestationPKI {
    package static let notBefore: Int64 = 1_704_067_200  // 2024-01-01
    package static let notAfter: Int64 = 4_102_444_800  // 2100-01-01

    package let root: TestCertificateAuthority
    package let attestationKey: PrivateKey

    package init() throws {
        root = try TestCertificateAuthority(
            privateKey: try PrivateKey(generating: .p256),
            subject: try DistinguishedName([.commonName("fido2kit test root")]),
            serialNumber: [1], notBefore: Self.notBefore, notAfter: Self.notAfter)
        attestationKey = try PrivateKey(generating: .p256)
    }

    /// A §8.2.1-conforming attestation certificate for `attestationKey`.
    package func packedCertificate(aaguid: [UInt8]? = nil) throws -> Certificate {
        try root.issuePackedAttestationCertificate(
            subjectKey: try attestationKey.publicKey, country: "SE", organization: "fido2kit",
            commonName: "attestation", aaguid: aaguid, serialNumber: [2],
            notBefore: Self.notBefore, notAfter: Self.notAfter)
    }

    /// A certificate for `key` with `subject`, adjusted by `adjust`.
    package func certificate(
        subject: DistinguishedName, key: PublicKey? = nil,
        _ adjust: (inout CertificateBuilder) -> Void = { _ in }
    ) throws -> Certificate {
        var builder = try root.builder(
            subject: subject, subjectKey: try key ?? attestationKey.publicKey, serialNumber: [3],
            notBefore: Self.notBefore, notAfter: Self.notAfter)
        builder.basicConstraints = BasicConstraints(isCertificateAuthority: false)
        adjust(&builder)
        return try builder.sign(with: root.privateKey)
    }

    /// The subject §8.2.1 asks for, with `organizationalUnit` as given.
    package static func subject(
        organizationalUnit: String = "Authenticator Attestation"
    ) throws
        -> DistinguishedName
    {
        try DistinguishedName([
            .country("SE"), .organization("fido2kit"), .organizationalUnit(organizationalUnit),
            .commonName("attestation"),
        ])
    }

    /// A trust policy trusting the root for `format`.
    package func policy(format: String = "packed") -> AttestationTrustPolicy {
        AttestationTrustPolicy(anchors: [format: [root.certificate]])
    }
}

extension SyntheticCeremony {
    /// A P-256 registration with packed full attestation by `pki`'s attestation key, whose
    /// certificate (serial 02, carrying the ceremony's AAGUID) `pki`'s root issued.
    package static func packedFull(_ pki: TestAttestationPKI) throws -> SyntheticCeremony {
        var ceremony = try SyntheticCeremony.p256()
        ceremony.attestation = .packedFull(
            key: pki.attestationKey,
            certificates: [
                try pki.packedCertificate(aaguid: SyntheticCeremony.aaguid.bytes).derEncoded
            ])
        return ceremony
    }
}
