import BenchmarkHarness
import Fido2Crypto
import Fido2Encoding
import Fido2WebAuthn
import Fido2WebAuthnWire

/// The steps of a software-authenticator assertion measured one by one, beside the ES256 sign
/// they surround: where the cost of `getAssertion` above a bare signature goes. No targets;
/// the table explains the assertion scenario's ratio.
///
/// Three rows pair a step with a signature ("…, then ES256 sign"). A step costs more beside a
/// signature than alone, because each evicts the other's code and data from the caches and
/// branch predictors; the difference between such a row and the sum of its two parts measures
/// that interference, which no single step's profile shows.
enum AssertionStepsScenario {
    static func make() -> Scenario {
        let fixture = WebAuthnScenarios.AssertionFixture.make()
        let store = fixture.store
        let authenticator = fixture.authenticator
        let credentialId = fixture.credentialId
        let requestOptions = fixture.requestOptions
        let origin = WebAuthnScenarios.origin
        guard
            let response = try? authenticator.getAssertion(
                optionsJSON: requestOptions, origin: origin)
        else {
            fatalError("benchmark set-up: no assertion")
        }
        guard
            let parsedOptions = try? PublicKeyCredentialRequestOptionsJSON(
                jsonBytes: requestOptions)
        else { fatalError("benchmark set-up: options") }
        let challenge = [UInt8](repeating: 0x42, count: 32)
        let rpIdHash = [UInt8](repeating: 0x11, count: 32)
        let clientDataJSON = response.response.clientDataJSON
        let authenticatorData = [UInt8](repeating: 0x5a, count: 37)
        let clientDataHash = [UInt8](repeating: 0xa5, count: 32)
        let checksum = WebAuthnScenarios.checksum
        let privateKey = fixture.privateKey
        // The baseline signature, alone or after another step.
        let sign: @Sendable () -> UInt64 = {
            checksum(
                (try? privateKey.signature(
                    for: authenticatorData, clientDataHash, algorithm: .es256)) ?? [])
        }

        return Scenario(
            "WebAuthn: ES256 assertion step by step (no targets)",
            competitors: [
                Competitor("whole getAssertion + response JSON") { fixture.assertOnce() },
                Competitor("getAssertion from parsed options") {
                    guard
                        let response = try? authenticator.getAssertion(
                            options: parsedOptions, origin: origin)
                    else { return 0 }
                    return checksum(response.response.signature)
                },
                Competitor("ES256 sign") { sign() },
                Competitor("parse options, then ES256 sign") {
                    guard
                        let options = try? PublicKeyCredentialRequestOptionsJSON(
                            jsonBytes: requestOptions)
                    else { return 0 }
                    return checksum(options.challenge) &+ sign()
                },
                Competitor("SHA-256 of clientDataJSON, then ES256 sign") {
                    checksum(DigestAlgorithm.sha256.hash(clientDataJSON)) &+ sign()
                },
                Competitor("write response JSON, then ES256 sign") {
                    checksum(response.jsonBytes()) &+ sign()
                },
                Competitor("parse request options JSON") {
                    guard
                        let options = try? PublicKeyCredentialRequestOptionsJSON(
                            jsonBytes: requestOptions)
                    else { return 0 }
                    return checksum(options.challenge)
                },
                Competitor("build clientDataJSON") {
                    guard
                        let data = try? CollectedClientData(
                            type: .get, challenge: challenge, origin: origin)
                    else { return 0 }
                    return checksum(data.jsonBytes())
                },
                Competitor("SHA-256 of clientDataJSON") {
                    checksum(DigestAlgorithm.sha256.hash(clientDataJSON))
                },
                Competitor("build authenticator data") {
                    guard
                        let data = try? AuthenticatorData(
                            rpIdHash: rpIdHash, flags: [.userPresent], signCount: 7)
                    else { return 0 }
                    return checksum(Array(data.bytes))
                },
                Competitor("store look-up + replace") {
                    guard var found = try? store.credential(id: credentialId) else { return 0 }
                    found.signCount &+= 0
                    try? store.replace(found)
                    return UInt64(found.signCount)
                },
                Competitor("write response JSON") {
                    checksum(response.jsonBytes())
                },
            ])
    }
}
