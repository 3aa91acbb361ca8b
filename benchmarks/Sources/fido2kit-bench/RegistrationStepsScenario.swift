import BenchmarkHarness
import Fido2Authenticator
import Fido2Crypto
import Fido2WebAuthn

/// The steps of a software-authenticator registration (packed self attestation) measured one
/// by one, beside the crypto floor they surround: where the cost of `makeCredential` above a
/// P-256 keygen, its public key and one sign goes. No targets; the table explains the
/// registration scenario's ratio, as ``AssertionStepsScenario`` does for the assertion.
enum RegistrationStepsScenario {
    static func make() -> Scenario {
        let origin = WebAuthnScenarios.origin
        let creationOptions = WebAuthnScenarios.creationOptions
        let checksum = WebAuthnScenarios.checksum
        let authenticator = SoftwareAuthenticator(
            configuration: {
                var configuration = AuthenticatorConfiguration()
                configuration.attestation = .packedSelf
                return configuration
            }(), store: WebAuthnScenarios.DiscardingStore())
        guard
            let parsedOptions = try? PublicKeyCredentialCreationOptionsJSON(
                jsonBytes: creationOptions),
            let response = try? authenticator.makeCredential(
                options: parsedOptions, origin: origin)
        else { fatalError("benchmark set-up: no registration") }
        let credentialIdLength = AuthenticatorConfiguration().credentialIdLength
        let authenticatorData = [UInt8](repeating: 0x5a, count: 164)
        let clientDataHash = [UInt8](repeating: 0xa5, count: 32)
        // The floor: what any registration pays on OpenSSL 3.0.
        let floor: @Sendable () -> UInt64 = {
            guard let fresh = try? PrivateKey(generating: .p256),
                let point = try? fresh.publicKey.uncompressedPoint
            else { return 0 }
            return checksum(point)
                &+ checksum(
                    (try? fresh.signature(
                        for: authenticatorData, clientDataHash, algorithm: .es256)) ?? [])
        }

        return Scenario(
            "WebAuthn: ES256 registration step by step (no targets)",
            competitors: [
                Competitor("whole makeCredential + response JSON") {
                    guard
                        let response = try? authenticator.makeCredential(
                            optionsJSON: creationOptions, origin: origin)
                    else { return 0 }
                    return checksum(response.jsonBytes())
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
