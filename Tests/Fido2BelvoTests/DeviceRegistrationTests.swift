import Fido2Authenticator
import Fido2BelvoDevice
import Fido2Crypto
import Fido2Encoding
import Fido2Vectors
import Fido2WebAuthn
import Fido2WebAuthnWire
import Testing

@testable import Fido2Belvo

/// `startRegistration` answers Belvo's registration options the way an iPhone running the SDK
/// does, and the confirm body built from it is exactly the documented one.
@Suite struct DeviceRegistrationTests {
    private let sampleUserID = "a5bd0ef9-f8ab-41a2-b968-489761a91de6"

    /// The parts of an attestation the tests look at.
    private struct Decoded {
        let attestationObject: AttestationObject
        let clientData: CollectedClientData
    }

    private func decode(_ attestation: AttestationResponse) throws -> Decoded {
        let attestationObject = try AttestationObject(
            bytes: Base64URL.decode(attestation.encodedAttestationObject))
        let clientData = try ClientDataJSON(
            bytes: Base64URL.decode(attestation.encodedClientDataJSON)
        ).clientData
        return Decoded(attestationObject: attestationObject, clientData: clientData)
    }

    @Test func documentedSampleRegistersAnES256CredentialForBelvoCom() throws {
        let temporary = try TemporaryStore()
        let device = BelvoDevice(store: temporary.store)
        let attestation = try device.startRegistration(
            fidoOptions: BelvoGuideSamples.registrationOptions)
        let decoded = try decode(attestation)

        #expect(attestation.encodedId == attestation.rawId)
        #expect(decoded.attestationObject.format == "none")
        let authenticatorData = decoded.attestationObject.authenticatorData
        #expect(
            Array(authenticatorData.rpIdHash)
                == DigestAlgorithm.sha256.hash(Array("belvo.com".utf8)))
        #expect(authenticatorData.flags.contains(.userPresent))
        #expect(authenticatorData.flags.contains(.userVerified))
        #expect(authenticatorData.signCount == 0)
        let credential = try #require(authenticatorData.attestedCredentialData)
        // Belvo lists RS256 first; an iOS platform authenticator only makes ES256.
        #expect(credential.credentialPublicKey.algorithm == .es256)
        #expect(Base64URL.encode(Array(credential.credentialId)) == attestation.encodedId)

        #expect(decoded.clientData.type == .create)
        #expect(decoded.clientData.challenge == (try Base64URL.decode("R3dsT2REOE5oZ25JbVE")))
        #expect(decoded.clientData.origin == "https://belvo.com")
        #expect(decoded.clientData.crossOrigin == false)

        let stored = try #require(
            try temporary.store.credential(id: Base64URL.decode(attestation.rawId)))
        #expect(stored.relyingPartyID == "belvo.com")
        #expect(stored.userHandle == Array(sampleUserID.utf8))
        #expect(stored.userName == "Ralph Bragg")
        #expect(stored.isDiscoverable)
        #expect(stored.algorithm == .es256)
    }

    @Test func configuredOriginIsReported() throws {
        let temporary = try TemporaryStore()
        let device = BelvoDevice(store: temporary.store, origin: "https://pix.belvo.com")
        let attestation = try device.startRegistration(
            fidoOptions: BelvoGuideSamples.registrationOptions)
        #expect(try decode(attestation).clientData.origin == "https://pix.belvo.com")
        #expect(device.origin(relyingPartyID: "belvo.com") == "https://pix.belvo.com")
        #expect(BelvoDevice.defaultOrigin(relyingPartyID: "belvo.com") == "https://belvo.com")
    }

    @Test func relyingPartyOrderDecidesAmongSupportedAlgorithms() throws {
        var configuration = BelvoDevice.iOSPlatformConfiguration
        configuration.supportedAlgorithms = [.es256, .rs256]
        let temporary = try TemporaryStore()
        let device = BelvoDevice(store: temporary.store, configuration: configuration)
        let attestation = try device.startRegistration(
            fidoOptions: BelvoGuideSamples.registrationOptions)
        let credential = try #require(
            try decode(attestation).attestationObject.authenticatorData.attestedCredentialData)
        #expect(credential.credentialPublicKey.algorithm == .rs256)
    }

    @Test func base64urlUserHandleMappingStoresTheDecodedBytes() throws {
        let temporary = try TemporaryStore()
        let device = BelvoDevice(store: temporary.store, userHandleMapping: .base64url)
        let attestation = try device.startRegistration(
            fidoOptions: BelvoGuideSamples.registrationOptions)
        let stored = try #require(
            try temporary.store.credential(id: Base64URL.decode(attestation.rawId)))
        #expect(stored.userHandle == (try Base64URL.decode(sampleUserID)))
        #expect(stored.userHandle.count == 27)
    }

    @Test func creationOptionsMapTheDocumentedSample() throws {
        let device = BelvoDevice(store: InMemoryCredentialStore())
        let options = device.creationOptions(
            for: try BelvoRegistrationOptions(
                json: Array(BelvoGuideSamples.registrationOptions.utf8)))
        #expect(options.rp.id == "belvo.com")
        #expect(options.rp.name == "Raidiam Mockbank - Pipeline NRJ")
        #expect(options.user.id == Array(sampleUserID.utf8))
        #expect(options.user.displayName == "Ralph Bragg")
        #expect(options.pubKeyCredParams.map(\.alg) == [-257, -7])
        #expect(options.pubKeyCredParams.allSatisfy { $0.type == "public-key" })
        #expect(options.extensions == nil)
        #expect(options.authenticatorSelection?.userVerification == .required)
        #expect(options.authenticatorSelection?.residentKey == .preferred)
        #expect(options.authenticatorSelection?.authenticatorAttachment == .platform)
        #expect(options.attestation == .none)
        #expect(options.timeout == nil)
    }

    @Test func creationOptionsKeepARequiredResidentKeyAndClampTheTimeout() throws {
        let json = BelvoGuideSamples.registrationOptions.replacingOccurrences(
            of: #""extensions": {"appid": "true"}"#,
            with:
                #""timeout": 99999999999, "attestation": "direct", "authenticatorSelection": {"residentKey": "required", "userVerification": "discouraged"}"#
        )
        let device = BelvoDevice(store: InMemoryCredentialStore())
        let options = device.creationOptions(
            for: try BelvoRegistrationOptions(json: Array(json.utf8)))
        #expect(options.timeout == UInt32.max)
        #expect(options.attestation == .direct)
        #expect(options.authenticatorSelection?.residentKey == .required)
        #expect(options.authenticatorSelection?.userVerification == .required)
    }

    @Test func confirmBodyFromStartRegistrationHasTheDocumentedMembers() throws {
        let temporary = try TemporaryStore()
        let device = BelvoDevice(store: temporary.store)
        let request = try device.confirmEnrollmentRequest(
            fidoOptions: Array(BelvoGuideSamples.registrationOptions.utf8))
        let attestation = request.attestation
        let expected: JSONValue = .object([
            "confirmation_data": .object([
                "authenticatorAttachment": .string("platform"),
                "id": .string(attestation.encodedId),
                "rawId": .string(attestation.rawId),
                "type": .string("public-key"),
                "response": .object([
                    "attestationObject": .string(attestation.encodedAttestationObject),
                    "clientDataJSON": .string(attestation.encodedClientDataJSON),
                ]),
            ])
        ])
        #expect(try JSONValue.parse(request.body) == expected)
        // What was sent is what the authenticator made: the body decodes back to it.
        let stored = try #require(
            try temporary.store.credential(id: Base64URL.decode(attestation.encodedId)))
        #expect(stored.relyingPartyID == "belvo.com")
    }

    @Test func deterministicDeviceWritesIdenticalBodies() throws {
        func body() throws -> [UInt8] {
            let configuration = try AuthenticatorConfiguration.deterministic(
                seed: Array("belvo-golden".utf8), base: BelvoDevice.iOSPlatformConfiguration)
            let device = BelvoDevice(store: InMemoryCredentialStore(), configuration: configuration)
            return try device.confirmEnrollmentRequest(
                fidoOptions: Array(BelvoGuideSamples.registrationOptions.utf8)
            ).body
        }
        let first = try body()
        #expect(try body() == first)
    }

    @Test func attestationResponseCarriesTheRegistrationResponseMembers() throws {
        let response = RegistrationResponseJSON(
            rawId: [0xfb, 0xff],
            response: AuthenticatorAttestationResponseJSON(
                clientDataJSON: Array("{}".utf8), attestationObject: [0xa0]),
            authenticatorAttachment: .platform, clientExtensionResults: [:])
        let attestation = AttestationResponse(response)
        #expect(attestation.encodedId == "-_8")
        #expect(attestation.rawId == "-_8")
        #expect(attestation.encodedAttestationObject == "oA")
        #expect(attestation.encodedClientDataJSON == "e30")
    }
}
