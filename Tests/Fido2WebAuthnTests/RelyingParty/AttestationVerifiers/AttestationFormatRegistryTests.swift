import Fido2CBOR
import Fido2Crypto
import Fido2WebAuthn
import Fido2WebAuthnTestSupport
import Fido2WebAuthnWire
import Testing

/// A relying party's attestation formats are its policy: it may refuse one fido2kit verifies
/// and verify one fido2kit does not.
@Suite struct AttestationFormatRegistryTests {
    /// A made-up format whose statement is `{"ok": true}`: accepted as self attestation when
    /// it says so, refused otherwise.
    enum ExampleFormatVerifier: AttestationFormatVerifier {
        static let format = "example-format"

        static func verify(
            _ statement: AttestationStatement, in context: AttestationVerificationContext
        ) throws -> AttestationVerificationResult {
            guard case .unknown(let format, let encoded) = statement, format == Self.format,
                let value = try? CBORValue.decode(encoded),
                value[.textString("ok")] == .boolean(true)
            else {
                throw WebAuthnError(
                    .invalidAttestationStatement, "not an example statement", field: "attStmt")
            }
            return AttestationVerificationResult(
                format: format, type: .selfAttestation, trustPath: .notApplicable)
        }
    }

    static let expectations = RegistrationExpectations(challenge: SyntheticCeremony.challenge)

    func ceremony(format: String, statement: CBORValue) throws -> RegistrationResponseJSON {
        var ceremony = try SyntheticCeremony.p256()
        ceremony.attestation = .raw(format: format, statement: statement.encoded())
        return try ceremony.registration()
    }

    @Test func theStandardRegistryHoldsEveryFormatFido2kitVerifies() {
        #expect(
            Set(AttestationFormatRegistry.standard.formats) == [
                "none", "packed", "fido-u2f", "tpm", "android-key", "android-safetynet", "apple",
                "compound",
            ])
    }

    @Test func aRegisteredFormatIsVerifiedByItsVerifier() throws {
        var relyingParty = SyntheticCeremony.relyingParty()
        let accepted = try ceremony(format: "example-format", statement: ["ok": true])
        expectFailure(.attestationFormatUnsupported, step: .registration(21)) {
            try relyingParty.verifyRegistration(accepted, expecting: Self.expectations)
        }
        relyingParty.attestationFormats.register(ExampleFormatVerifier.self)
        let result = try relyingParty.verifyRegistration(accepted, expecting: Self.expectations)
        #expect(result.format == "example-format" && result.attestationType == .selfAttestation)
        let refused = try ceremony(format: "example-format", statement: ["ok": false])
        expectFailure(.invalidAttestationStatement, step: .registration(22)) {
            try relyingParty.verifyRegistration(refused, expecting: Self.expectations)
        }
    }

    @Test func aRemovedFormatIsRefused() throws {
        var relyingParty = SyntheticCeremony.relyingParty()
        let none = try ceremony(format: "none", statement: [:])
        _ = try relyingParty.verifyRegistration(none, expecting: Self.expectations)
        relyingParty.attestationFormats.remove(format: "none")
        #expect(!relyingParty.attestationFormats.formats.contains("none"))
        expectFailure(.attestationFormatUnsupported, step: .registration(21)) {
            try relyingParty.verifyRegistration(none, expecting: Self.expectations)
        }
    }

    @Test func registeringAFormatAgainReplacesItsVerifier() {
        var registry = AttestationFormatRegistry.standard
        let count = registry.formats.count
        registry.register(ExampleFormatVerifier.self)
        registry.register(ExampleFormatVerifier.self)
        #expect(registry.formats.count == count + 1)
    }
}
