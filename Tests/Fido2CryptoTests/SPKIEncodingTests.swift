import Testing

@testable import Fido2Crypto

/// `PublicKey.spkiDER` writes ECDSA and EdDSA keys as a fixed header and the key's bytes, and
/// `PublicKey(spkiDER:)` reads that encoding without OpenSSL's decoder: the bytes must be
/// exactly what OpenSSL's `i2d_PUBKEY` writes, and what is read must be the same key.
@Suite struct SPKIEncodingTests {
    @Test(arguments: [KeyKind.p256, .p384, .p521, .ed25519, .ed448])
    func headerAndKeyAreOpenSSLsEncoding(_ kind: KeyKind) throws {
        for _ in 0..<4 {
            let key = try PrivateKey(generating: kind).publicKey
            let openSSL = try KeyEncoding.encodeSPKI(key.box.pointer)
            #expect(try key.spkiDER == openSSL)
            // A key imported from its point (the COSE path) writes the same bytes.
            if kind.isECDSA {
                let fromPoint = try PublicKey(uncompressedPoint: key.uncompressedPoint, kind: kind)
                #expect(try fromPoint.spkiDER == openSSL)
            }
            #expect(try PublicKey(spkiDER: openSSL) == key)
        }
    }

    @Test func rsaKeysAreEncodedByOpenSSL() throws {
        let key = try PrivateKey(generating: .rsa(modulusBits: 2048)).publicKey
        #expect(KeyEncoding.spkiHeader(for: key.kind) == nil)
        #expect(try key.spkiDER == KeyEncoding.encodeSPKI(key.box.pointer))
    }

    @Test(arguments: [KeyKind.p256, .p384, .p521, .ed25519, .ed448])
    func fixedEncodingReadsAsTheSameKey(_ kind: KeyKind) throws {
        let signer = try PrivateKey(generating: kind)
        let publicKey = try signer.publicKey
        let der = try KeyEncoding.encodeSPKI(publicKey.box.pointer)
        #expect(KeyEncoding.der(der, isFixedFor: kind))
        let imported = try PublicKey(spkiDER: der)
        #expect(imported.kind == kind)
        #expect(imported == publicKey)
        let algorithm: COSEAlgorithm =
            switch kind {
            case .p256: .es256
            case .p384: .es384
            case .p521: .es512
            default: .edDSA
            }
        let message = Array("fixed".utf8)
        let signature = try signer.signature(for: message, algorithm: algorithm)
        #expect(try imported.isValidSignature(signature, for: message, algorithm: algorithm))
        // Trailing or missing bytes are not the fixed encoding: OpenSSL reads them, and refuses.
        #expect(!KeyEncoding.der(der + [0], isFixedFor: kind))
        #expect(throws: CryptoError.self) { try PublicKey(spkiDER: der + [0]) }
        #expect(throws: CryptoError.self) { try PublicKey(spkiDER: der.dropLast()) }
    }

    /// A point off the curve in the fixed encoding is refused as OpenSSL's reading refuses it.
    @Test func pointOffTheCurveIsRefused() throws {
        var der = try PrivateKey(generating: .p256).publicKey.spkiDER
        der[der.count - 1] ^= 0x01
        #expect(KeyEncoding.der(der, isFixedFor: .p256))
        #expect {
            try PublicKey(spkiDER: der)
        } throws: { error in
            (error as? CryptoError)?.code == .invalidPublicKey
        }
    }

    /// The hybrid form (06) has the uncompressed length but is not the fixed encoding.
    @Test func hybridPointIsLeftToOpenSSL() throws {
        var der = try PrivateKey(generating: .p256).publicKey.spkiDER
        der[26] = 0x06
        #expect(!KeyEncoding.der(der, isFixedFor: .p256))
    }
}

extension KeyEncoding {
    /// Whether `der` takes the fixed-encoding path as a key of `kind`.
    static func der(_ der: [UInt8], isFixedFor kind: KeyKind) -> Bool {
        der.withUnsafeBytes { fixedSPKI($0)?.kind == kind }
    }
}
