import Fido2Encoding
import Fido2TestSupport
import Fido2WebAuthn
import Fido2WebAuthnTestSupport
import Fido2WebAuthnWire
import Testing

/// The AppID extension (§10.1.1): a credential registered through U2F under an AppID signs in
/// only when the options requested `appid` and the client reports it used it.
@Suite struct AppIDTests {
    static let appID = "https://example.org/app-id.json"

    /// An assertion made by a credential scoped to the AppID (its rpIdHash is SHA-256 of it).
    static func u2fAssertion(
        appIDUsed: JSONValue?
    ) throws -> (
        SyntheticCeremony, AuthenticationResponseJSON
    ) {
        var ceremony = try SyntheticCeremony.p256()
        ceremony.type = .get
        ceremony.rpID = appID
        ceremony.flags = [.userPresent]
        ceremony.signCount = 1
        var response = try ceremony.assertion()
        if let appIDUsed { response.clientExtensionResults = ["appid": appIDUsed] }
        return (ceremony, response)
    }

    static func expectations(
        _ ceremony: SyntheticCeremony, appID: String?
    ) throws
        -> AuthenticationExpectations
    {
        AuthenticationExpectations(
            challenge: SyntheticCeremony.challenge, credential: try ceremony.record(), appID: appID)
    }

    @Test func verifiesAgainstTheAppIDWhenRequestedAndUsed() throws {
        let (ceremony, response) = try Self.u2fAssertion(appIDUsed: .bool(true))
        let verified = try SyntheticCeremony.relyingParty().verifyAuthentication(
            response, expecting: try Self.expectations(ceremony, appID: Self.appID))
        #expect(verified.relyingPartyID == Self.appID)
        #expect(try verified.clientExtensionOutputs().appID == true)
    }

    @Test func refusesAnAppIDOutputTheOptionsDidNotRequest() throws {
        let (ceremony, response) = try Self.u2fAssertion(appIDUsed: .bool(true))
        expectFailure(.extensionNotAllowed, step: "§7.2 step 15") { () throws in
            try SyntheticCeremony.relyingParty().verifyAuthentication(
                response, expecting: try Self.expectations(ceremony, appID: nil))
        }
    }

    @Test func checksTheRPIDUnlessTheClientReportsTheAppIDUsed() throws {
        for used in [nil, JSONValue.bool(false), .string("true")] {
            let (ceremony, response) = try Self.u2fAssertion(appIDUsed: used)
            expectFailure(.rpIdHashMismatch, step: "§7.2 step 15") { () throws in
                try SyntheticCeremony.relyingParty().verifyAuthentication(
                    response, expecting: try Self.expectations(ceremony, appID: Self.appID))
            }
        }
        // A credential of the RP ID still signs in when appid was requested but not used.
        var ceremony = try SyntheticCeremony.p256()
        ceremony.type = .get
        ceremony.flags = [.userPresent]
        ceremony.signCount = 1
        var response = try ceremony.assertion()
        response.clientExtensionResults = ["appid": .bool(false)]
        let verified = try SyntheticCeremony.relyingParty().verifyAuthentication(
            response, expecting: try Self.expectations(ceremony, appID: Self.appID))
        #expect(verified.relyingPartyID == SyntheticCeremony.rpID)
    }

    @Test func refusesAnotherAppIDsCredential() throws {
        let (ceremony, response) = try Self.u2fAssertion(appIDUsed: .bool(true))
        expectFailure(.rpIdHashMismatch, step: "§7.2 step 15") { () throws in
            try SyntheticCeremony.relyingParty().verifyAuthentication(
                response,
                expecting: try Self.expectations(
                    ceremony, appID: "https://example.org/other-app-id.json"))
        }
    }

    @Test func theStateKeepsTheRequestedAppID() throws {
        var options = AuthenticationOptions()
        options.extensions = ExtensionInputs().appID(Self.appID).json
        let pending = try SyntheticCeremony.relyingParty().beginAuthentication(options: options)
        #expect(pending.state.appID == Self.appID)
        #expect(pending.options.extensions?["appid"] == .string(Self.appID))
        let read = try AuthenticationState(jsonBytes: pending.state.jsonBytes())
        #expect(read.appID == Self.appID)
        let plain = try SyntheticCeremony.relyingParty().beginAuthentication()
        #expect(plain.state.appID == nil)
        #expect(try AuthenticationState(jsonBytes: plain.state.jsonBytes()).appID == nil)
    }
}
