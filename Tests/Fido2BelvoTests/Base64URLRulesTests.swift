import Testing

@testable import Fido2Belvo

/// Base64url from Belvo may carry exact padding; base64url we send (WebAuthn JSON) never does,
/// and neither side accepts anything but canonical base64url.
@Suite struct Base64URLRulesTests {
    @Test(arguments: [
        ("R3dsT2REOE5oZ25JbVE", Array("GwlOdD8NhgnImQ".utf8)),
        ("R3dsT2REOE5oZ25JbVE=", Array("GwlOdD8NhgnImQ".utf8)), ("AA==", [0]), ("AAE=", [0, 1]),
        ("-_-_", [0xfb, 0xff, 0xbf]),
    ])
    func optionsAcceptCanonicalTextWithOrWithoutExactPadding(text: String, bytes: [UInt8]) throws {
        #expect(try FIDOValues.bytes(text, "challenge") == bytes)
    }

    @Test(arguments: ["", "A", "AB", "AA=", "AAE==", "A===", "A+/A", "AA A", "é", "AAAA===="])
    func optionsRefuseNonCanonicalText(text: String) {
        #expect(throws: BelvoError.self) { try FIDOValues.bytes(text, "challenge") }
    }

    @Test(arguments: ["AA==", "AAE=", "AB", "A", "", "A+/A"])
    func bodiesRefusePaddedOrNonCanonicalText(text: String) {
        #expect(throws: BelvoError.self) {
            try BelvoRequestValidation.base64URL(text, "confirmation_data.id")
        }
    }

    @Test func bodiesAcceptCanonicalUnpaddedText() throws {
        #expect(try BelvoRequestValidation.base64URL("AAE", "confirmation_data.id") == [0, 1])
    }
}
