@_spi(Fido2Internals) import Fido2Crypto
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

    /// rsaEncryption keys are read from their components: the same key OpenSSL decodes.
    @Test(arguments: [2048, 3072])
    func rsaEncryptionReadsAsTheSameKey(_ bits: Int) throws {
        let signer = try PrivateKey(generating: .rsa(modulusBits: bits))
        let publicKey = try signer.publicKey
        let der = try withExtendedLifetime(publicKey) {
            try KeyEncoding.encodeSPKI(publicKey.box.pointer)
        }
        let components = try #require(der.rsaComponents)
        #expect(Array(components.modulus.drop { $0 == 0 }) == (try publicKey.rsaModulus))
        #expect(Array(components.exponent) == [1, 0, 1])
        let imported = try PublicKey(spkiDER: der)
        #expect(imported == publicKey)
        // Read back from the components kept at import, as OpenSSL reports them.
        #expect(try imported.rsaModulus == publicKey.rsaModulus)
        #expect(try imported.rsaExponent == publicKey.rsaExponent)
        let message = Array("rsa".utf8)
        let signature = try signer.signature(for: message, algorithm: .rs256)
        #expect(try imported.isValidSignature(signature, for: message, algorithm: .rs256))
        // A trailing byte is not the encoding, and OpenSSL's decoder refuses it.
        #expect((der + [0]).rsaComponents == nil)
        #expect(throws: CryptoError.self) { try PublicKey(spkiDER: der + [0]) }
    }

    /// Encodings other than DER with a NULL parameter go to OpenSSL's decoder, whose verdict
    /// stands; so does a modulus outside the allowed sizes.
    @Test func otherRSAEncodingsKeepOpenSSLsVerdict() throws {
        let key = try PrivateKey(generating: .rsa(modulusBits: 2048)).publicKey
        let modulus = try key.rsaModulus
        func spki(parameter: Bool, modulus: [UInt8]) throws -> [UInt8] {
            var writer = DERWriter()
            try writer.appendSequence { (spki) throws(CryptoError) in
                spki.appendSequence { (algorithm) in
                    algorithm.appendObjectIdentifier(.rsaEncryption)
                    if parameter { algorithm.appendNull() }
                }
                var numbers = DERWriter()
                numbers.appendSequence { (rsa) in
                    rsa.appendInteger(unsignedBigEndian: modulus)
                    rsa.appendInteger(unsignedBigEndian: [1, 0, 1])
                }
                try spki.appendBitString(numbers.bytes)
            }
            return writer.bytes
        }
        let canonical = try spki(parameter: true, modulus: modulus)
        #expect(canonical == (try key.spkiDER))
        #expect(canonical.rsaComponents != nil)
        // No parameter: not the component path; OpenSSL reads the same key.
        let absent = try spki(parameter: false, modulus: modulus)
        #expect(absent.rsaComponents == nil)
        #expect(try PublicKey(spkiDER: absent) == key)
        // 1024 bits: refused for signatures by default, admitted by the unsafe reader.
        let small = try spki(
            parameter: true, modulus: [0xc1] + [UInt8](repeating: 0x5b, count: 126) + [0x01])
        #expect(small.rsaComponents != nil)
        #expect {
            try PublicKey(spkiDER: small)
        } throws: { error in
            (error as? CryptoError)?.code == .keySizeNotAllowed
        }
        #expect(try PublicKey(unsafeSPKIDER: small).kind == .rsa(modulusBits: 1024))
    }

    /// The RSA refusals are decided on the bytes, leading zeros and all, before anything is
    /// built; the certificate parser asks the same question before deferring the import.
    @Test func rsaRefusalsOnTheBytes() throws {
        let modulus = [0xc1] + [UInt8](repeating: 0x5b, count: 126) + [0x01]  // 1024 bits
        func code(_ n: [UInt8], _ e: [UInt8]) -> CryptoError.Code? {
            n.withUnsafeBytes { n in
                e.withUnsafeBytes { e in
                    PublicKey.rsaComponentsRefusal(n, e, allowed: KeyKind.unsafeRSAModulusBits)?
                        .code
                }
            }
        }
        #expect(code(modulus, [1, 0, 1]) == nil)
        #expect(code([0, 0] + modulus, [0, 1, 0, 1]) == nil)
        #expect(code(modulus, [3]) == nil)
        #expect(code(Array(modulus.dropFirst()), [3]) == .keySizeNotAllowed)  // 1016 bits
        #expect(code(Array(modulus.dropLast()) + [0x02], [3]) == .invalidPublicKey)  // even
        #expect(code(modulus, [1]) == .invalidPublicKey)
        #expect(code(modulus, [2]) == .invalidPublicKey)
        #expect(code(modulus, []) == .invalidPublicKey)
        #expect(code(modulus, modulus) == .invalidPublicKey)  // e = n
        #expect(code(modulus, [0] + modulus) == .invalidPublicKey)
        #expect(code(modulus, Array(modulus.dropLast()) + [0x00]) == .invalidPublicKey)  // even
        #expect(code(modulus, [0xc1] + [UInt8](repeating: 0x5b, count: 126) + [0x00]) != nil)
        #expect(code(modulus, [0xc1] + [UInt8](repeating: 0x5a, count: 126) + [0xff]) == nil)
        // The same verdicts through the import that builds the key.
        #expect {
            try PublicKey(unsafeRSAModulus: modulus, exponent: modulus)
        } throws: { error in
            (error as? CryptoError)?.code == .invalidPublicKey
        }
        #expect(throws: Never.self) { try PublicKey(unsafeRSAModulus: modulus, exponent: [3]) }
    }

    @Test(arguments: [KeyKind.p256, .p384, .p521, .secp256k1, .ed25519, .ed448])
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
            case .secp256k1: .es256K
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

extension [UInt8] {
    /// What the rsaEncryption component reading finds in these bytes.
    var rsaComponents: (modulus: [UInt8], exponent: [UInt8])? {
        withUnsafeBytes { der in
            KeyEncoding.rsaComponents(ofSPKI: der).map { (Array($0.modulus), Array($0.exponent)) }
        }
    }
}
