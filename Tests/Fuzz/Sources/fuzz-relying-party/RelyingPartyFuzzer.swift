// Relying-party verification (WebAuthn Level 3 §7.1 registration, §7.2 authentication) on
// response JSON. Input: a two-byte big-endian length L, then L bytes of the stored COSE key
// (L = 0: a registration), then the response JSON.
// dictionary: json
// seeds: relying-party
import Fido2Crypto
import Fido2WebAuthn
import Fido2WebAuthnWire
import FuzzSupport

/// The relying party takes its expected challenge and origin from the response's own client
/// data (a client learns both), so fuzzed responses reach the later steps: RP ID hash, flags,
/// algorithms, attestation and signatures. Invariant: a ceremony that verifies is bound to its
/// challenge, so it fails once one bit of the expected challenge changes; nothing traps.
@main
enum RelyingPartyFuzzer: FuzzTarget {
    /// Every RP ID of the shared vectors.
    static let identifiers = [
        "example.org", "authress.io", "dev.dontneeda.pw", "dev2.dontneeda.pw", "duo.test",
        "localhost", "netpassport.io", "portal.fxon.com", "pwl.ngrok.io", "simplewebauthn.dev",
        "try-webauthn.appspot.com", "webauthn.io", "webauthntest.azurewebsites.net",
    ]
    static let trustPolicy: AttestationTrustPolicy = {
        do {
            return try AttestationTrustPolicy.wellKnownRoots(validationTime: 1_630_454_400)
        } catch {
            FuzzCheck.fail("the well-known roots do not load: \(error)")
        }
    }()

    /// Loads the well-known roots before fuzzing starts.
    static func prepare() { _ = trustPolicy }

    static func fuzz(_ input: [UInt8]) {
        guard input.count >= 2 else { return }
        let keyLength = Int(input[0]) << 8 | Int(input[1])
        guard input.count >= 2 + keyLength else { return }
        let key = Array(input[2..<(2 + keyLength)])
        let json = Array(input[(2 + keyLength)...])
        if keyLength == 0 {
            register(json)
        } else {
            authenticate(json, key: key)
        }
    }

    static func relyingParty(for clientDataJSON: [UInt8]) -> (RelyingParty, [UInt8])? {
        guard let clientData = try? ClientDataJSON(bytes: clientDataJSON).clientData else {
            return nil
        }
        let origins = OriginPolicy(
            allowedOrigins: [clientData.origin],
            crossOrigin: .allowed(topOrigins: clientData.topOrigin.map { [$0] } ?? []))
        let party = RelyingParty(
            identifiers: identifiers, origins: origins, trustPolicy: trustPolicy)
        return (party, clientData.challenge)
    }

    static func flipped(_ challenge: [UInt8]) -> [UInt8] {
        guard let first = challenge.first else { return [0] }
        return [first ^ 1] + challenge.dropFirst()
    }

    static func register(_ json: [UInt8]) {
        let response = try? RegistrationResponseJSON(jsonBytes: json)
        guard let response,
            let (party, challenge) = relyingParty(for: response.response.clientDataJSON)
        else {
            _ = try? RelyingParty(id: "example.org", origins: ["https://example.org"])
                .verifyRegistration(jsonBytes: json, expecting: .init(challenge: [1]))
            return
        }
        guard
            (try? party.verifyRegistration(response, expecting: .init(challenge: challenge)))
                != nil
        else { return }
        FuzzCheck.require(
            (try? party.verifyRegistration(
                response, expecting: .init(challenge: flipped(challenge)))) == nil,
            "a registration verifies against another challenge")
    }

    static func authenticate(_ json: [UInt8], key: [UInt8]) {
        guard let response = try? AuthenticationResponseJSON(jsonBytes: json),
            let (party, challenge) = relyingParty(for: response.response.clientDataJSON)
        else { return }
        let flags = (try? AuthenticatorData(bytes: response.response.authenticatorData))?.flags
        guard
            let record = try? CredentialRecord(
                id: response.rawId, publicKeyBytes: key, signCount: 0,
                backupEligible: flags?.contains(.backupEligible) ?? false,
                backupState: flags?.contains(.backupState) ?? false,
                userHandle: response.response.userHandle)
        else { return }
        let expected = AuthenticationExpectations(challenge: challenge, credential: record)
        guard (try? party.verifyAuthentication(response, expecting: expected)) != nil else {
            return
        }
        var other = expected
        other.challenge = flipped(challenge)
        FuzzCheck.require(
            (try? party.verifyAuthentication(response, expecting: other)) == nil,
            "an assertion verifies against another challenge")
    }
}
