import BenchmarkHarness
import Fido2Authenticator
import Fido2Crypto
import Fido2WebAuthn
import Fido2WebAuthnWire

/// The steps of a software-authenticator registration (packed self attestation) measured one
/// by one, beside the crypto floor they surround: where the cost of `makeCredential` above a
/// P-256 keygen, its public key and one sign goes. No targets; the table explains the
/// registration scenario's ratio, as ``AssertionStepsScenario`` does for the assertion.
enum RegistrationStepsScenario {
    static func make() -> Scenario {
        let origin = WebAuthnScenarios.origin
        let creationOptions = WebAuthnScenarios.creationOptions
        let checksum = WebAuthnScenarios.checksum
        let authenticator = WebAuthnScenarios.registeringAuthenticator()
        guard
            let parsedOptions = try? PublicKeyCredentialCreationOptionsJSON(
                jsonBytes: creationOptions),
            let response = try? authenticator.makeCredential(
                options: parsedOptions, origin: origin)
        else { fatalError("benchmark set-up: no registration") }
        let credentialIdLength = AuthenticatorConfiguration().credentialIdLength
        let floor = WebAuthnScenarios.registrationFloor

        return Scenario(
            "WebAuthn: ES256 registration step by step (no targets)",
            competitors: [
                Competitor("whole makeCredential + response JSON") {
                    WebAuthnScenarios.registerOnce(authenticator)
                },
                Competitor("makeCredential from parsed options") {
                    guard
                        let response = try? authenticator.makeCredential(
                            options: parsedOptions, origin: origin)
                    else { return 0 }
                    return checksum(response.rawId)
                },
                Competitor("keygen + public key + ES256 sign") { floor() },
                Competitor("parse creation options, then the floor") {
                    guard
                        let options = try? PublicKeyCredentialCreationOptionsJSON(
                            jsonBytes: creationOptions)
                    else { return 0 }
                    return checksum(options.challenge) &+ floor()
                },
                Competitor("write response JSON, then the floor") {
                    checksum(response.jsonBytes()) &+ floor()
                },
                Competitor("parse creation options JSON") {
                    guard
                        let options = try? PublicKeyCredentialCreationOptionsJSON(
                            jsonBytes: creationOptions)
                    else { return 0 }
                    return checksum(options.challenge)
                },
                Competitor("write response JSON") { checksum(response.jsonBytes()) },
                Competitor("random credential ID (RAND_bytes)") {
                    checksum((try? SystemRandomSource().bytes(count: credentialIdLength)) ?? [])
                },
            ])
    }
}
