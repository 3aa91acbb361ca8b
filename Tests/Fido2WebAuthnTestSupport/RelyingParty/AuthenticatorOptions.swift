import Fido2Authenticator
import Fido2Crypto
import Fido2Encoding
import Fido2WebAuthn
import Fido2WebAuthnWire
import Testing

/// Creation options for `example.org` with the given algorithms and selection.
public func creationOptions(
    algorithms: [Int] = [-7, -257, -8], residentKey: ResidentKeyRequirement? = .required,
    userVerification: UserVerificationRequirement = .preferred,
    exclude: [[UInt8]] = [], rpId: String? = "example.org", extensions: JSONObject? = nil
) -> PublicKeyCredentialCreationOptionsJSON {
    PublicKeyCredentialCreationOptionsJSON(
        rp: PublicKeyCredentialRpEntity(name: "Example", id: rpId),
        user: PublicKeyCredentialUserEntityJSON(
            id: Array("user-1".utf8), name: "alice", displayName: "Alice"),
        challenge: [UInt8](repeating: 0x11, count: 32),
        pubKeyCredParams: algorithms.map { PublicKeyCredentialParameters(alg: $0) },
        excludeCredentials: exclude.map { PublicKeyCredentialDescriptorJSON(id: $0) },
        authenticatorSelection: AuthenticatorSelectionCriteria(
            residentKey: residentKey, userVerification: userVerification),
        attestation: .direct, extensions: extensions)
}

/// Request options for `example.org`.
public func requestOptions(
    allow: [[UInt8]] = [], userVerification: UserVerificationRequirement = .preferred
)
    -> PublicKeyCredentialRequestOptionsJSON
{
    PublicKeyCredentialRequestOptionsJSON(
        challenge: [UInt8](repeating: 0x22, count: 32), rpId: "example.org",
        allowCredentials: allow.map { PublicKeyCredentialDescriptorJSON(id: $0) },
        userVerification: userVerification)
}

/// What a relying party would check of a registration, without the relying-party module:
/// returns the credential's COSE key.
@discardableResult
public func checkRegistration(
    _ response: RegistrationResponseJSON, origin: String = "https://example.org",
    rpId: String = "example.org", sourceLocation: SourceLocation = #_sourceLocation
) throws -> COSEKey {
    let object = try AttestationObject(bytes: response.response.attestationObject)
    let clientData = try ClientDataJSON(bytes: response.response.clientDataJSON).clientData
    #expect(clientData.type == .create, sourceLocation: sourceLocation)
    #expect(clientData.origin == origin, sourceLocation: sourceLocation)
    #expect(
        clientData.challenge == [UInt8](repeating: 0x11, count: 32), sourceLocation: sourceLocation)
    let authData = object.authenticatorData
    #expect(
        Array(authData.rpIdHash) == DigestAlgorithm.sha256.hash(rpId.utf8),
        sourceLocation: sourceLocation)
    #expect(authData.flags.contains(.userPresent), sourceLocation: sourceLocation)
    #expect(
        response.response.authenticatorData == Array(authData.bytes), sourceLocation: sourceLocation
    )
    let attested = try #require(authData.attestedCredentialData, sourceLocation: sourceLocation)
    #expect(Array(attested.credentialId) == response.rawId, sourceLocation: sourceLocation)
    let key = attested.credentialPublicKey
    #expect(
        response.response.publicKeyAlgorithm == key.algorithm.rawValue,
        sourceLocation: sourceLocation)
    #expect(
        response.response.publicKey == (try key.publicKey.spkiDER), sourceLocation: sourceLocation)
    let clientDataHash = DigestAlgorithm.sha256.hash(response.response.clientDataJSON)
    switch object.statement {
    case .none:
        break
    case .packed(let packed) where packed.certificates == nil:
        #expect(packed.algorithm == key.algorithm, sourceLocation: sourceLocation)
        #expect(
            try key.publicKey.isValidSignature(
                packed.signature, for: authData.bytes, clientDataHash, algorithm: packed.algorithm),
            sourceLocation: sourceLocation)
    default:
        break
    }
    // The JSON round-trips.
    #expect(
        try RegistrationResponseJSON(jsonBytes: response.jsonBytes()) == response,
        sourceLocation: sourceLocation)
    return key
}

/// Checks an assertion's signature and returns its authenticator data.
@discardableResult
public func checkAssertion(
    _ response: AuthenticationResponseJSON, key: COSEKey,
    sourceLocation: SourceLocation = #_sourceLocation
) throws -> AuthenticatorData {
    let authData = try AuthenticatorData(bytes: response.response.authenticatorData)
    let clientData = try ClientDataJSON(bytes: response.response.clientDataJSON).clientData
    #expect(clientData.type == .get, sourceLocation: sourceLocation)
    #expect(
        clientData.challenge == [UInt8](repeating: 0x22, count: 32), sourceLocation: sourceLocation)
    #expect(
        try key.publicKey.isValidSignature(
            response.response.signature, for: authData.bytes,
            DigestAlgorithm.sha256.hash(response.response.clientDataJSON), algorithm: key.algorithm),
        sourceLocation: sourceLocation)
    #expect(
        try AuthenticationResponseJSON(jsonBytes: response.jsonBytes()) == response,
        sourceLocation: sourceLocation)
    return authData
}
