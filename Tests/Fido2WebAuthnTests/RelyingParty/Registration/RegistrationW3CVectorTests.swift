import Fido2Authenticator
@_spi(Fido2Internals) import Fido2Crypto
import Fido2Encoding
import Fido2TestSupport
import Fido2Vectors
import Fido2WebAuthn
import Fido2WebAuthnTestSupport
import Fido2WebAuthnWire
import Testing

/// The 15 registrations of the W3C WebAuthn Level 3 test vectors, verified through every step
/// of §7.1 with the vectors' attestation root as trust anchor, at a pinned time, with every
/// format verifier (core and device).
@Suite struct RegistrationW3CVectorTests {
    static let vectors: [W3CVector] = (try? W3CVector.all()) ?? []

    @Test func coversEveryCase() { #expect(Self.vectors.count == 15) }

    @Test(arguments: vectors)
    func verifiesTheRegistration(_ vector: W3CVector) throws {
        let result = try vector.relyingParty().verifyRegistration(
            try vector.registrationResponse(), expecting: try vector.registrationExpectations())
        #expect(result.credentialId == (try vector.registrationBytes("credential_id")))
        #expect(
            Hex.encode(result.credentialPublicKeyBytes)
                == (try vector.json.string("derived.credential_public_key_cose")))
        #expect(result.algorithm == vector.algorithm)
        #expect(result.signCount == 0)
        #expect(result.flags == (try vector.registrationFlags()))
        #expect(result.aaguid.bytes == (try vector.registrationBytes("aaguid")))
        #expect(result.format == vector.format)
        #expect(result.relyingPartyID == "example.org")
        #expect(result.origin == "https://example.org")
        switch vector.format {
        case "none":
            #expect(result.attestationType == .none)
            #expect(result.trustPath == .notApplicable)
        case "packed" where vector.id == "packed-self-es256":
            #expect(result.attestationType == .selfAttestation)
            #expect(result.trustPath == .notApplicable)
        default:
            // tpm attests through an attestation CA, apple through an anonymization CA.
            let types: [String: AttestationType] = [
                "tpm": .attestationCA, "apple": .anonymizationCA,
            ]
            #expect(result.attestationType == types[vector.format] ?? .basic)
            guard case .verified(let path) = result.trustPath else {
                Issue.record("\(vector.id): trust path \(result.trustPath)")
                return
            }
            #expect(path.last == (try W3CVector.attestationRoot()))
            #expect(path.first == result.attestation.certificates.first)
        }
    }

    /// Without its relaxation, the android-key vector's empty authorization lists fail the
    /// statement (step 22).
    @Test func androidKeyVectorNeedsItsNamedRelaxation() throws {
        let vector = try W3CVector.named("android-key-es256")
        var relyingParty = try vector.relyingParty()
        relyingParty.trustPolicy.androidKey.acceptsMissingOriginAndPurpose = false
        let response = try vector.registrationResponse()
        let expectations = try vector.registrationExpectations()
        let error = webAuthnError { () throws in
            try relyingParty.verifyRegistration(response, expecting: expectations)
        }
        #expect(error?.step == "§7.1 step 22")
        // The verifier's own section stays in the reason.
        #expect(error?.reason.hasPrefix("§8.4: ") == true, "\(String(describing: error))")
        // The relying party's named relaxation reaches the verifier, and what it let through
        // is reported under its name, at the path of the response.
        relyingParty.relaxations = .acceptsAndroidKeyMissingOriginAndPurpose
        let result = try relyingParty.verifyRegistration(response, expecting: expectations)
        #expect(
            result.deviations.map(\.field) == [
                "attestationObject.attStmt.x5c[0].keyDescription.teeEnforced.origin",
                "attestationObject.attStmt.x5c[0].keyDescription.teeEnforced.purpose",
            ])
        #expect(
            result.deviations.allSatisfy {
                $0.relaxation == .acceptsAndroidKeyMissingOriginAndPurpose
            })
    }

    /// A device format's chain that leads to no configured anchor fails the trust step.
    @Test(arguments: ["tpm-es256", "android-key-es256", "apple-es256", "fido-u2f-es256"])
    func rejectsAChainToAnotherAnchor(_ id: String) throws {
        let vector = try W3CVector.named(id)
        var relyingParty = try vector.relyingParty()
        let other = try TestAttestationPKI().root.certificate
        relyingParty.trustPolicy.anchors = [vector.format: [other]]
        let response = try vector.registrationResponse()
        let expectations = try vector.registrationExpectations()
        expectFailure(.attestationTrustPathInvalid, step: "§7.1 step 24") {
            () throws in
            try relyingParty.verifyRegistration(response, expecting: expectations)
        }
    }

    @Test(arguments: vectors.filter { $0.format == "packed" && $0.id != "packed-self-es256" })
    func reportsAnUnevaluatedTrustPathWithoutAnchors(_ vector: W3CVector) throws {
        var relyingParty = try vector.relyingParty()
        relyingParty.trustPolicy = AttestationTrustPolicy()
        let result = try relyingParty.verifyRegistration(
            try vector.registrationResponse(), expecting: try vector.registrationExpectations())
        guard case .notEvaluated = result.trustPath else {
            Issue.record("\(vector.id): \(result.trustPath)")
            return
        }
        #expect(result.attestationType == .basic)
    }

    @Test func verifiesFromJSONBytes() throws {
        let vector = try W3CVector.named("packed-es256")
        let json = try vector.registrationResponse().jsonBytes()
        let result = try vector.relyingParty().verifyRegistration(
            jsonBytes: json, expecting: try vector.registrationExpectations())
        #expect(result.format == "packed")
    }
}
