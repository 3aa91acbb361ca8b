import Fido2Crypto
import Fido2Encoding
import Fido2TestSupport
import Fido2Vectors
import Fido2WebAuthn
import Fido2WebAuthnTestSupport
import Fido2WebAuthnWire
import Testing

/// The 15 authentications of the W3C WebAuthn Level 3 test vectors, verified through every
/// step of §7.2 with the credential record their registration makes.
@Suite struct AuthenticationW3CVectorTests {
    static let vectors: [W3CVector] = (try? W3CVector.all()) ?? []

    @Test func coversEveryCase() { #expect(Self.vectors.count == 15) }

    @Test(arguments: vectors)
    func verifiesTheAssertion(_ vector: W3CVector) throws {
        let result = try vector.relyingParty().verifyAuthentication(
            try vector.authenticationResponse(),
            expecting: try vector.authenticationExpectations())
        let flags = try vector.assertionFlags()
        #expect(result.signCount == 0)
        #expect(result.signCountVerdict == .notUsed)
        #expect(result.flags == flags)
        #expect(result.userVerified == flags.contains(.userVerified))
        #expect(result.backupState == flags.contains(.backupState))
        #expect(result.credentialId == (try vector.registrationBytes("credential_id")))
        #expect(result.relyingPartyID == "example.org")
    }

    /// The record a registration returns verifies the assertion that follows it.
    @Test(arguments: vectors)
    func registrationRecordVerifiesTheAssertion(_ vector: W3CVector) throws {
        let relyingParty = try vector.relyingParty()
        let registration = try relyingParty.verifyRegistration(
            try vector.registrationResponse(), expecting: try vector.registrationExpectations())
        var expectations = try vector.authenticationExpectations()
        expectations.credential = registration.credentialRecord()
        let result = try relyingParty.verifyAuthentication(
            try vector.authenticationResponse(), expecting: expectations)
        let updated = result.updatedRecord
        #expect(updated.signCount == result.signCount)
        #expect(updated.backupState == result.backupState)
        #expect(updated.backupEligible == registration.backupEligible)
    }
}
