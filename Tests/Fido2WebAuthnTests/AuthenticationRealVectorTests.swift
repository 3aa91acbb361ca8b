import Fido2Authenticator
import Fido2Crypto
import Fido2Encoding
import Fido2TestSupport
import Fido2WebAuthn
import Fido2WebAuthnTestSupport
import Testing

/// The assertions of `real-authentications.json` (py_webauthn and SimpleWebAuthn) through every
/// step of §7.2, each with the stored key and counter its source used, and the sources' policy
/// of rejecting a counter that does not advance.
@Suite struct AuthenticationRealVectorTests {
    struct Case: CustomTestStringConvertible, Sendable {
        let id: String
        let json: JSONValue
        var testDescription: String { id }
    }

    static let cases: [Case] =
        (try? sharedVectorJSON("real-authentications.json").array().map { item in
            Case(id: try item.string("case_id"), json: item)
        }) ?? []

    /// The failures the cases must end in: the code and the step.
    static let expectedFailures: [String: (WebAuthnError.Code, VerificationStep)] = [
        "auth-003": (.signatureInvalid, "§7.2 step 21"),
        "auth-004": (.userVerificationMissing, "§7.2 step 17"),
        // ML-DSA keys: the credential record cannot be made (OpenSSL 3.0 has no ML-DSA).
        "auth-009": (.unsupportedAlgorithm, "§7.2 step 21"),
        "auth-010": (.unsupportedAlgorithm, "§7.2 step 21"),
        "auth-011": (.unsupportedAlgorithm, "§7.2 step 21"),
        "auth-013": (.challengeMismatch, "§7.2 step 11"),
        "auth-014": (.originNotAllowed, "§7.2 step 12"),
        "auth-015": (.signCountRegressed, "§7.2 step 22"),
        "auth-016": (.rpIdHashMismatch, "§7.2 step 15"),
    ]

    static func strings(_ value: JSONValue?) -> [String] {
        RegistrationRealVectorTests.strings(value)
    }

    static func response(_ vector: Case) throws -> AuthenticationResponseJSON {
        try AuthenticationResponseJSON(
            jsonValue: try vector.json.member("credential"), path: "credential")
    }

    /// The relying party, record and expectations of the case; the record's user handle is
    /// the one the response carries (what the source's relying party stored).
    static func ceremony(
        _ vector: Case
    ) throws -> (RelyingParty, AuthenticationResponseJSON, AuthenticationExpectations) {
        let response = try response(vector)
        let record = try CredentialRecord(
            id: response.rawId,
            publicKeyBytes: try Base64URL.decode(
                try vector.json.string("credential_public_key_cose")),
            signCount: UInt32(vector.json["stored_sign_count"]?.int64Value ?? -1),
            backupEligible: false, userHandle: response.response.userHandle)
        let relyingParty = RelyingParty(
            identifiers: strings(vector.json["expected_rp_id"]),
            origins: OriginPolicy(allowedOrigins: strings(vector.json["expected_origin"])))
        let expectations = AuthenticationExpectations(
            challenge: try RegistrationRealVectorTests.challenge(vector.json), credential: record,
            allowCredentials: [response.rawId],
            requiresUserVerification: vector.json["require_user_verification"]?.boolValue
                ?? false)
        return (relyingParty, response, expectations)
    }

    @Test func coversEveryCase() { #expect(Self.cases.count == 19) }

    @Test(arguments: cases.filter { $0.id != "auth-018" })
    func meetsItsExpectedResult(_ vector: Case) throws {
        if let (code, step) = Self.expectedFailures[vector.id] {
            do {
                let (relyingParty, response, expectations) = try Self.ceremony(vector)
                _ = try relyingParty.verifyAuthentication(response, expecting: expectations)
                Issue.record("\(vector.id) verified; expected \(code) at \(step)")
            } catch let error as WebAuthnError {
                #expect(error.code == code, "\(error)")
                #expect(error.step == step, "\(error)")
            }
            return
        }
        #expect(try vector.json.string("expected_result") == "ok")
        let (relyingParty, response, expectations) = try Self.ceremony(vector)
        let result = try relyingParty.verifyAuthentication(response, expecting: expectations)
        if let newCount = vector.json["expected_new_sign_count"]?.int64Value {
            #expect(Int64(result.signCount) == newCount)
        }
        let decoded = try vector.json.member("decoded.authenticatorData")
        #expect(Int64(result.flags.rawValue) == decoded["flags"]?.int64Value)
        #expect(result.userHandle == response.response.userHandle)
        let stored = expectations.credential.signCount
        #expect(
            result.signCountVerdict == (stored == 0 && result.signCount == 0 ? .notUsed : .advanced)
        )
    }

    /// auth-018 is parse-only: its signature does not verify under the key given; its
    /// authenticator data carries the devicePubKey extension, read as an unknown output.
    @Test func readsTheParseOnlyCase() throws {
        let vector = try #require(Self.cases.first { $0.id == "auth-018" })
        #expect(try vector.json.string("expected_result").hasPrefix("parse-only"))
        let response = try Self.response(vector)
        let authData = try AuthenticatorData(bytes: response.response.authenticatorData)
        let extensions = try #require(authData.extensions)
        #expect(extensions.unknown.map(\.identifier) == ["devicePubKey"])
        let clientData = try ClientDataJSON(bytes: response.response.clientDataJSON)
        #expect(clientData.clientData.origin.hasPrefix("android:apk-key-hash:"))
    }

    /// An `android:apk-key-hash:` origin is allowed like a web origin: auth-018's ceremony
    /// passes every step up to the signature, where its (documented) bad signature stops it.
    @Test func androidOriginsPassTheOriginStep() throws {
        let vector = try #require(Self.cases.first { $0.id == "auth-018" })
        let (relyingParty, response, expectations) = try Self.ceremony(vector)
        expectFailure(.signatureInvalid, step: "§7.2 step 21") { () throws in
            try relyingParty.verifyAuthentication(response, expecting: expectations)
        }
    }
}
