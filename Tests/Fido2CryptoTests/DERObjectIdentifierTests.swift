import Fido2Crypto
import Testing

/// ASN1ObjectIdentifier: dotted text, arcs and DER contents.
@Suite struct DERObjectIdentifierTests {
    @Test func convertsBetweenDottedTextArcsAndDER() throws {
        let oid = try #require(ASN1ObjectIdentifier(dotted: "1.3.6.1.4.1.45724.1.1.4"))
        #expect(oid == .fidoAAGUID)
        #expect(oid.components == [1, 3, 6, 1, 4, 1, 45724, 1, 1, 4])
        #expect(
            oid.derContents == [0x2b, 0x06, 0x01, 0x04, 0x01, 0x82, 0xe5, 0x1c, 0x01, 0x01, 0x04])
        #expect(try ASN1ObjectIdentifier(derContents: oid.derContents) == oid)
        #expect(oid.description == "1.3.6.1.4.1.45724.1.1.4")
        let large = try ASN1ObjectIdentifier(components: [2, UInt64.max - 80, 0])
        #expect(try ASN1ObjectIdentifier(derContents: large.derContents) == large)
        #expect(
            ASN1ObjectIdentifier(dotted: "2.18446744073709551535")?.components.last == UInt64.max
                - 80)
        #expect(ASN1ObjectIdentifier.commonName < .countryName)
        #expect(ASN1ObjectIdentifier.commonName.dotted == "2.5.4.3")
    }

    @Test func rejectsInvalidIdentifiers() {
        for text in [
            "", "1", "3.1", "1.40", "0.40", "1..2", "1.2.", ".1.2", "1.02", "1.2a", "1.-2",
            "1.18446744073709551616", "2.18446744073709551536", " 1.2",
        ] {
            #expect(ASN1ObjectIdentifier(dotted: text) == nil, "\(text)")
        }
        for arcs in [[], [1], [3, 1], [1, 40], [2, UInt64.max]] as [[UInt64]] {
            expectCryptoError(.derInvalidValue) { try ASN1ObjectIdentifier(components: arcs) }
        }
    }
}
