import Fido2Vectors
import Testing

@testable import Fido2Belvo

/// Belvo's FIDO options map to plain values the authenticator layer will consume, and options
/// that cannot be used fail with typed errors.
@Suite struct FidoOptionsMappingTests {
    private func registration(
        _ json: String, _ mapping: BelvoUserHandleMapping = .utf8
    ) throws -> BelvoRegistrationOptions {
        try BelvoRegistrationOptions(json: Array(json.utf8), userHandleMapping: mapping)
    }

    /// The documented sample with `replacement` swapped in for `original`.
    private func sample(replacing original: String, with replacement: String) -> String {
        let text = BelvoGuideSamples.registrationOptions
        precondition(text.contains(original), "fixture does not contain \(original)")
        return text.replacingOccurrences(of: original, with: replacement)
    }

    @Test func documentedSampleMapsToPlainValues() throws {
        let options = try registration(BelvoGuideSamples.registrationOptions)
        #expect(options.rpId == "belvo.com")
        #expect(options.rpName == "Raidiam Mockbank - Pipeline NRJ")
        #expect(options.userHandle == Array("a5bd0ef9-f8ab-41a2-b968-489761a91de6".utf8))
        #expect(options.userHandle.count == 36)
        #expect(options.userName == "Ralph Bragg")
        #expect(options.userDisplayName == "Ralph Bragg")
        #expect(options.challenge == Array("GwlOdD8NhgnImQ".utf8))
        #expect(options.algorithms == [-257, -7])
        #expect(options.timeout == nil)
        #expect(options.excludeCredentials.isEmpty)
        #expect(options.ignoredExtensions == ["appid"])
        #expect(options.defaultOrigin == "https://belvo.com")
    }

    @Test func base64urlMappingReadsTheUUIDAsAWebAuthnJSONClientWould() throws {
        let options = try registration(BelvoGuideSamples.registrationOptions, .base64url)
        #expect(options.userHandle.count == 27)
        #expect(options.userHandle != Array("a5bd0ef9-f8ab-41a2-b968-489761a91de6".utf8))
        #expect(options.userHandle.prefix(3) == [0x6b, 0x96, 0xdd])
    }

    @Test func algorithmPreferenceOrderIsKeptAndOtherTypesSkipped() throws {
        let json = sample(
            replacing: #"[{"alg": -257, "type": "public-key"}, {"alg": -7, "type": "public-key"}]"#,
            with:
                #"[{"alg": -7, "type": "public-key"}, {"alg": -8, "type": "future-type"}, {"alg": -999, "type": "public-key"}, {"alg": -257, "type": "public-key"}]"#
        )
        #expect(try registration(json).algorithms == [-7, -999, -257])
    }

    @Test func appidAsABooleanIsIgnoredToo() throws {
        let json = sample(
            replacing: #"{"appid": "true"}"#, with: #"{"appid": true, "credProps": true}"#)
        let options = try registration(json)
        #expect(options.ignoredExtensions == ["appid", "credProps"])
        #expect(
            try BelvoFidoRegistrationOptions(json: Array(json.utf8)).extensions?.appid == "true")
    }

    @Test func optionalWebAuthnMembersPassThrough() throws {
        let json = sample(
            replacing: #""extensions": {"appid": "true"}"#,
            with:
                #""timeout": 60000, "attestation": "none", "excludeCredentials": [{"id": "AQID", "type": "public-key", "transports": ["internal"]}], "authenticatorSelection": {"authenticatorAttachment": "platform", "userVerification": "required", "residentKey": "preferred"}"#
        )
        let options = try registration(json)
        #expect(options.timeout == 60000)
        #expect(options.attestation == "none")
        #expect(options.excludeCredentials == [[1, 2, 3]])
        #expect(options.userVerification == "required")
        #expect(options.residentKey == "preferred")
        #expect(options.ignoredExtensions.isEmpty)
    }

    @Test func emptyAlgorithmListIsRefused() {
        let json = sample(
            replacing: #"[{"alg": -257, "type": "public-key"}, {"alg": -7, "type": "public-key"}]"#,
            with: "[]")
        let error = #expect(throws: BelvoError.self) { try registration(json) }
        #expect(error?.code == .unsupportedAlgorithms)
        #expect(error?.kind == .invalidParameters)
        #expect(error?.field == "pubKeyCredParams")
        #expect(error?.reason.contains("no public-key algorithm") == true)
    }

    @Test func unknownAlgorithmListIsRefused() {
        let json = sample(
            replacing: #"[{"alg": -257, "type": "public-key"}, {"alg": -7, "type": "public-key"}]"#,
            with: #"[{"alg": -65535, "type": "public-key"}, {"alg": 42, "type": "public-key"}]"#)
        let error = #expect(throws: BelvoError.self) { try registration(json) }
        #expect(error?.code == .unsupportedAlgorithms)
        #expect(error?.reason.contains("no supported algorithm") == true)
        #expect(error?.reason.contains("-65535") == true)
    }

    @Test(
        arguments: [
            ("{\"rp\": 1}", "rp"),
            (#"{"rp": {"id": "belvo.com", "name": "x"}}"#, "user"),
            ("not json", nil),
            ("[]", nil),
        ] as [(String, String?)])
    func structurallyMalformedRegistrationOptionsNameTheMember(json: String, field: String?) {
        let error = #expect(throws: BelvoError.self) { try registration(json) }
        #expect(error?.code == .malformedFidoOptions)
        #expect(error?.field == field)
        #expect(error?.reason.hasPrefix("malformed FIDO registration options: ") == true)
    }

    @Test func algorithmThatIsNotAnIntegerIsMalformed() {
        let json = sample(replacing: #"{"alg": -7,"#, with: #"{"alg": "ES256","#)
        let error = #expect(throws: BelvoError.self) { try registration(json) }
        #expect(error?.code == .malformedFidoOptions)
        #expect(error?.field == "pubKeyCredParams[1].alg")
    }

    @Test(arguments: [
        (#""challenge": "R3dsT2REOE5oZ25JbVE""#, #""challenge": "not base64url!""#, "challenge"),
        (#""challenge": "R3dsT2REOE5oZ25JbVE""#, #""challenge": """#, "challenge"),
        (
            #""challenge": "R3dsT2REOE5oZ25JbVE""#, #""challenge": "R3dsT2REOE5oZ25JbVF""#,
            "challenge"
        ),
        (#""id": "belvo.com""#, #""id": """#, "rp.id"),
        (#""id": "a5bd0ef9-f8ab-41a2-b968-489761a91de6""#, #""id": """#, "user.id"),
        (
            #""id": "a5bd0ef9-f8ab-41a2-b968-489761a91de6""#,
            "\"id\": \"\(String(repeating: "a", count: 65))\"", "user.id"
        ),
        (#""extensions": {"appid": "true"}"#, #""timeout": -1"#, "timeout"),
        (
            #""extensions": {"appid": "true"}"#,
            #""excludeCredentials": [{"id": "", "type": "public-key"}]"#, "excludeCredentials[0].id"
        ),
    ])
    func unusableRegistrationValuesNameTheMember(
        original: String, replacement: String, field: String
    ) {
        let json = sample(replacing: original, with: replacement)
        let error = #expect(throws: BelvoError.self) { try registration(json) }
        #expect(error?.code == .malformedFidoOptions)
        #expect(error?.field == field)
    }

    @Test func uuidThatIsNotBase64urlFailsTheBase64urlMapping() {
        let json = sample(
            replacing: "a5bd0ef9-f8ab-41a2-b968-489761a91de6", with: "user+with/slashes")
        let error = #expect(throws: BelvoError.self) { try registration(json, .base64url) }
        #expect(error?.code == .malformedFidoOptions)
        #expect(error?.field == "user.id")
    }

    @Test func documentedFidoOptionsMapToPlainValues() throws {
        let options = try BelvoAssertionOptions(json: Array(BelvoGuideSamples.fidoOptions.utf8))
        #expect(options.rpId == "belvo.com")
        #expect(options.timeout == 300000)
        #expect(options.challenge.count == 32)
        #expect(options.challenge.prefix(4) == [0xa0, 0x65, 0xb4, 0xf7])
        #expect(options.allowCredentials.count == 1)
        #expect(options.allowCredentials.first?.count == 65)
        #expect(options.allowCredentials.first?.prefix(3) == [0x01, 0xf0, 0xfe])
        #expect(options.userVerification == nil)
        #expect(options.ignoredExtensions.isEmpty)
        #expect(options.defaultOrigin == "https://belvo.com")
    }

    @Test func emptyAllowCredentialsAsksForADiscoverableCredential() throws {
        let options = try BelvoAssertionOptions(
            json: Array(
                #"{"rpId": "belvo.com", "challenge": "AAAA", "allowCredentials": [], "userVerification": "required"}"#
                    .utf8))
        #expect(options.allowCredentials.isEmpty)
        #expect(options.userVerification == "required")
        #expect(options.timeout == nil)
    }

    @Test(arguments: [
        (#"{"challenge": "AAAA"}"#, "rpId"),
        (#"{"rpId": "belvo.com"}"#, "challenge"),
        (#"{"rpId": "", "challenge": "AAAA"}"#, "rpId"),
        (#"{"rpId": "belvo.com", "challenge": "AA=A"}"#, "challenge"),
        (#"{"rpId": "belvo.com", "challenge": "AAAA", "timeout": "soon"}"#, "timeout"),
        (#"{"rpId": "belvo.com", "challenge": "AAAA", "timeout": -5}"#, "timeout"),
        (
            #"{"rpId": "belvo.com", "challenge": "AAAA", "allowCredentials": {}}"#,
            "allowCredentials"
        ),
        (
            #"{"rpId": "belvo.com", "challenge": "AAAA", "allowCredentials": [{"type": "public-key"}]}"#,
            "allowCredentials[0].id"
        ),
        (
            #"{"rpId": "belvo.com", "challenge": "AAAA", "allowCredentials": [{"id": "A", "type": "public-key"}]}"#,
            "allowCredentials[0].id"
        ),
    ])
    func malformedFidoOptionsNameTheMember(json: String, field: String) {
        let error = #expect(throws: BelvoError.self) {
            try BelvoAssertionOptions(json: Array(json.utf8))
        }
        #expect(error?.code == .malformedFidoOptions)
        #expect(error?.field == field)
        #expect(error?.description.contains(field) == true)
    }

    @Test func malformedFidoOptionsInsideAPaymentIntentAreFidoErrors() throws {
        let endpoint = try BelvoAPI.getPaymentIntent(
            id: "p1", authorization: .bearer(accessToken: "t"))
        let body =
            #"{"id": "p1", "status": "REQUIRES_ACTION", "payment_method_information": {"open_finance_biometric_pix": {"fido_options": {"rpId": "belvo.com", "challenge": 7}}}}"#
        let error = #expect(throws: BelvoError.self) {
            try endpoint.decode(status: 200, body: Array(body.utf8))
        }
        #expect(error?.code == .malformedFidoOptions)
        #expect(
            error?.field
                == "payment_method_information.open_finance_biometric_pix.fido_options.challenge")
    }
}
