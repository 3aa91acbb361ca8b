@_spi(Fido2Internals) import Fido2Crypto
import Fido2Encoding
import Fido2TestSupport
import Testing

@Suite struct ECDSASignatureEncodingTests {
    @Test func convertsBetweenDERAndRaw() throws {
        for (kind, algorithm) in [
            (KeyKind.p256, COSEAlgorithm.es256), (.p384, .es384), (.p521, .es512),
            (.secp256k1, .es256K),
        ] {
            let key = try PrivateKey(generating: kind)
            for _ in 0..<8 {
                let der = try key.signature(for: [1, 2, 3], algorithm: algorithm)
                let signature = try ECDSASignature(derRepresentation: der)
                #expect(signature.derRepresentation == der)
                let raw = try signature.rawRepresentation(kind: kind)
                #expect(raw.count == 2 * (kind.coordinateByteCount ?? 0))
                #expect(try ECDSASignature(rawRepresentation: raw, kind: kind) == signature)
                #expect(
                    try ECDSASignature(rawRepresentation: raw, kind: kind).derRepresentation == der)
            }
        }
    }

    @Test func encodesHighBitsAndZeroMinimally() throws {
        let signature = ECDSASignature(r: [0x00, 0x80], s: [0x01])
        #expect(signature.r == [0x80])
        #expect(Hex.encode(signature.derRepresentation) == "3007020200800201" + "01")
        let zero = ECDSASignature(r: [0, 0], s: [])
        #expect(Hex.encode(zero.derRepresentation) == "3006020100020100")
        #expect(try ECDSASignature(derRepresentation: zero.derRepresentation) == zero)
    }

    /// r and s of every size around the DER length-field boundaries encode to what an
    /// independent DER reader reads back as the same two INTEGERs; up to two length octets the
    /// strict signature parser reads them back too. `derRepresentation` used to trap (a `UInt8`
    /// conversion of the length) once r and s together reached about 64 KiB.
    @Test(arguments: [0, 1, 31, 32, 33, 125, 126, 127, 128, 250, 255, 256, 32_760, 65_530, 65_536])
    func encodesEveryLengthAsDER(_ count: Int) throws {
        let r = [UInt8](repeating: 0x80, count: count)  // a high bit: one more octet
        let s = [UInt8](repeating: 0x7f, count: count)
        let signature = ECDSASignature(r: r, s: s)
        let der = signature.derRepresentation
        var reader = try DERReader(der, limits: DERReader.Limits(maximumSize: 1 << 20))
        let (readR, readS) = try reader.readSequence { (sequence) throws(CryptoError) in
            (try sequence.readInteger(), try sequence.readInteger())
        }
        try reader.finish()
        #expect(Array(readR) == (count == 0 ? [0] : [0] + r))
        #expect(Array(readS) == (count == 0 ? [0] : s))
        // Up to 32,760 bytes each the SEQUENCE's length fits two octets; from 65,530 it does not.
        if count <= 32_760 {
            #expect(try ECDSASignature(derRepresentation: der) == signature)
        } else {
            #expect(der[1] == 0x83)
            expectCryptoError(.invalidSignatureEncoding) {
                try ECDSASignature(derRepresentation: der)
            }
        }
    }

    @Test func acceptsStrictDER() throws {
        let signature = try ECDSASignature(derRepresentation: Hex.bytes("3007020201010201" + "01"))
        #expect(signature.r == [0x01, 0x01] && signature.s == [0x01])
    }

    @Test(arguments: [
        "",  // empty
        "30060201010201",  // truncated
        "300602010102010100",  // trailing byte
        "308106020101020101",  // long-form length for a short length
        "30060201ff020101",  // negative r
        "300702020001020101",  // non-minimal INTEGER 00 01
        "3005020002010102",  // empty INTEGER
        "3106020101020101",  // SET instead of SEQUENCE
        "3006040101020101",  // OCTET STRING instead of INTEGER
        "3009020101020101020101",  // three integers
        "3080020101020101" + "0000",  // indefinite length (BER)
    ])
    func rejectsNonStrictDER(_ hex: String) {
        expectCryptoError(.invalidSignatureEncoding) {
            try ECDSASignature(derRepresentation: Hex.bytes(hex))
        }
    }

    @Test func rejectsRawSignaturesOfTheWrongWidth() {
        expectCryptoError(.invalidSignatureEncoding) {
            try ECDSASignature(rawRepresentation: [UInt8](repeating: 1, count: 63), kind: .p256)
        }
        expectCryptoError(.invalidSignatureEncoding) {
            try ECDSASignature(rawRepresentation: [UInt8](repeating: 1, count: 64), kind: .p384)
        }
        expectCryptoError(.unsupportedKeyType) {
            try ECDSASignature(rawRepresentation: [UInt8](repeating: 1, count: 64), kind: .ed25519)
        }
        let wide = ECDSASignature(r: [UInt8](repeating: 1, count: 33), s: [1])
        expectCryptoError(.invalidSignatureEncoding) { try wide.rawRepresentation(kind: .p256) }
    }
}
