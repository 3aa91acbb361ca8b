import Testing

@testable import Fido2Belvo

/// The module's stand-in base64url decoder (until Fido2Encoding's is merged) is strict.
@Suite struct Base64URLTests {
    @Test(arguments: [
        ("", [UInt8]()), ("AA", [0]), ("AAE", [0, 1]), ("AAEC", [0, 1, 2]),
        ("-_-_", [0xfb, 0xff, 0xbf]), ("Zm9vYmFy", Array("foobar".utf8)),
        ("Zm9vYmE", Array("fooba".utf8)), ("Zm9vYg", Array("foob".utf8)),
    ])
    func decodesCanonicalUnpaddedText(text: String, bytes: [UInt8]) {
        #expect(Base64URL.decode(text) == bytes)
    }

    @Test(arguments: [
        "A", "AAAAA", "AB", "AAF", "A+==", "AA/A", "AA A", "AA==", "AA=", "é",
    ])
    func refusesNonCanonicalText(text: String) {
        #expect(Base64URL.decode(text) == nil)
    }

    @Test func paddingIsToleratedOnlyWhenAskedAndExact() {
        #expect(Base64URL.decode("AA==", allowingPadding: true) == [0])
        #expect(Base64URL.decode("AAE=", allowingPadding: true) == [0, 1])
        #expect(Base64URL.decode("AA=", allowingPadding: true) == nil)
        #expect(Base64URL.decode("AAE==", allowingPadding: true) == nil)
        #expect(Base64URL.decode("A===", allowingPadding: true) == nil)
        #expect(Base64URL.decode("AAA==", allowingPadding: true) == nil)
        #expect(Base64URL.decode("AAAA====", allowingPadding: true) == nil)
    }
}
