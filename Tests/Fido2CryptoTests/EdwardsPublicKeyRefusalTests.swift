import Fido2CBOR
import Fido2Crypto
import Fido2Encoding
import Fido2TestSupport
import Testing

/// EdDSA public keys of small order or in a non-canonical encoding are refused at import, by
/// every route a relying party takes (raw, COSE_Key, SubjectPublicKeyInfo).
@Suite struct EdwardsPublicKeyRefusalTests {
    /// The Ed25519 encodings of small order or with y ≥ p that implementations block (the list
    /// libsodium's `ge25519_has_small_order` and "Taming the many EdDSAs" (Chalkias et al.,
    /// 2020) give), each also with the x sign bit set.
    static let ed25519Refused: [String] = {
        let base = [
            // 0 (order 4)
            "0000000000000000000000000000000000000000000000000000000000000000",
            // 1: the identity (order 1)
            "0100000000000000000000000000000000000000000000000000000000000000",
            // order 8
            "26e8958fc2b227b045c3f489f2ef98f0d5dfac05d3c63339b13802886d53fc05",
            // order 8
            "c7176a703d4dd84fba3c0b760d10670f2a2053fa2c39ccc64ec7fd7792ac037a",
            // p − 1 (order 2)
            "ecffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff7f",
            // p: a non-canonical 0
            "edffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff7f",
            // p + 1: a non-canonical 1
            "eeffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff7f",
            // 2²⁵⁵ − 1: non-canonical, not small order
            "ffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff7f",
        ]
        return base
            + base.map { hex in
                var bytes = Hex.bytes(hex)
                bytes[31] |= 0x80
                return Hex.encode(bytes)
            }
    }()

    /// Ed448's small-order points (y ∈ {0, 1, p − 1}), y = p, and an encoding with the unused
    /// bits of its last byte set.
    static let ed448Refused: [String] = [
        "00" + String(repeating: "00", count: 56),
        "01" + String(repeating: "00", count: 56),
        "fe" + String(repeating: "ff", count: 27) + "fe" + String(repeating: "ff", count: 27)
            + "00",
        String(repeating: "ff", count: 28) + "fe" + String(repeating: "ff", count: 27) + "00",
        "01" + String(repeating: "00", count: 55) + "01",
    ]

    func cose(_ x: [UInt8], curve: Int) -> [UInt8] {
        var writer = CBORWriter()
        writer.writeMapHeader(count: 4)
        for (label, value) in [(1, 1), (3, -8), (-1, curve)] {
            writer.writeInt(label)
            writer.writeInt(value)
        }
        writer.writeInt(-2)
        writer.writeByteString(x)
        return writer.bytes
    }

    @Test(arguments: ed25519Refused)
    func refusesAWeakEd25519Key(_ hex: String) {
        let raw = Hex.bytes(hex)
        expectCryptoError(.invalidPublicKey) {
            try PublicKey(rawEdDSAPublicKey: raw, kind: .ed25519)
        }
        expectCryptoError(.invalidPublicKey) {
            try COSEKey(cborEncoded: cose(raw, curve: 6))
        }
        let spki = Hex.bytes("302a300506032b6570032100") + raw
        expectCryptoError(.invalidPublicKey) { try PublicKey(spkiDER: spki) }
        expectCryptoError(.invalidPublicKey) { try PublicKey(unsafeSPKIDER: spki) }
    }

    @Test(arguments: ed448Refused)
    func refusesAWeakEd448Key(_ hex: String) {
        let raw = Hex.bytes(hex)
        #expect(raw.count == 57)
        expectCryptoError(.invalidPublicKey) {
            try PublicKey(rawEdDSAPublicKey: raw, kind: .ed448)
        }
        expectCryptoError(.invalidPublicKey) {
            try COSEKey(cborEncoded: cose(raw, curve: 7))
        }
        let spki = Hex.bytes("3043300506032b6571033a00") + raw
        expectCryptoError(.invalidPublicKey) { try PublicKey(spkiDER: spki) }
    }

    @Test(arguments: [KeyKind.ed25519, .ed448])
    func acceptsGeneratedKeys(_ kind: KeyKind) throws {
        for _ in 0..<32 {
            let key = try PrivateKey(generating: kind).publicKey
            let raw = try key.rawEdDSAPublicKey
            #expect(try PublicKey(rawEdDSAPublicKey: raw, kind: kind) == key)
            #expect(try PublicKey(spkiDER: key.spkiDER) == key)
        }
    }

    /// RFC 8032 §7.1's first test key, and a key whose encoding sets the sign bit, import.
    @Test func acceptsRFC8032Keys() throws {
        for hex in [
            "d75a980182b10ab7d54bfed3c964073a0ee172f3daa62325af021a68f707511a",
            "3d4017c3e843895a92b70aa74d1b7ebc9c982ccf2ec4968cc0cd55f12af4660c",
            "fc51cd8e6218a1a38da47ed00230f0580816ed13ba3303ac5deb911548908025",
        ] {
            #expect(throws: Never.self) {
                try PublicKey(rawEdDSAPublicKey: Hex.bytes(hex), kind: .ed25519)
            }
        }
    }
}
