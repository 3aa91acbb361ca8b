import COpenSSL
@_spi(Fido2Internals) import Fido2Crypto
import Testing

@testable import Fido2Crypto

/// Certificates read without OpenSSL's key decoder must be, once used, the `X509` that
/// `d2i_X509` makes: the same key, the same cached extension flags (self-signed among them),
/// the same chains. And on this machine's OpenSSL the parser must really apply, so a silent
/// fall-back to `d2i_X509` (a changed `X509_PUBKEY` layout) fails here rather than only in the
/// benchmarks.
@Suite struct DecoderFreeCertificateParserTests {
    /// Every certificate of the W3C and real-registration chains, and the W3C root.
    static func vectorCertificates() throws -> [[UInt8]] {
        let chains = try X509TestVectors.w3cChains() + X509TestVectors.realChains()
        return try [X509TestVectors.w3cRoot()] + chains.flatMap(\.certificates)
    }

    /// `d2i_X509` as OpenSSL alone parses `der`, with its extension cache filled.
    static func openSSLParse(_ der: [UInt8]) throws -> OpaquePointer {
        try der.withUnsafeBufferPointer { buffer in
            var cursor = buffer.baseAddress
            let x509 = try #require(d2i_X509(nil, &cursor, buffer.count))
            _ = X509_check_purpose(x509, -1, 0)
            return x509
        }
    }

    /// The parser's two steps on `certificate`'s DER: the `X509` without its key, then with it;
    /// nil when the parser does not apply.
    static func decoderFreeParse(_ certificate: Certificate) throws -> OpaquePointer? {
        let spki = certificate.box.parsed.subjectPublicKeyInfo
        let read = try certificate.derEncoded.withUnsafeBufferPointer { buffer in
            try DecoderFreeCertificateParser.readWithoutKey(buffer, subjectPublicKeyInfo: spki)
        }
        guard let read else { return nil }
        #expect(X509_get0_pubkey(read) == nil)
        let key = DecoderFreeCertificateParser.setKey(of: read, subjectPublicKeyInfo: spki)
        if let expected = try? certificate.publicKey { #expect(key == expected) }
        _ = X509_check_purpose(read, -1, 0)
        return read
    }

    /// A self-signed certificate for `key`, named `commonName`.
    static func selfSigned(_ key: PrivateKey, _ commonName: String) throws -> Certificate {
        let name = try DistinguishedName([.commonName(commonName)])
        return try CertificateBuilder(
            serialNumber: [5], issuer: name, subject: name, notBefore: 1_704_067_200,
            notAfter: 2_019_686_400, subjectPublicKey: try key.publicKey
        ).sign(with: key)
    }

    @Test func parsesTheVectorsAsOpenSSLDoes() throws {
        var decoderFree = 0
        var total = 0
        for der in try Self.vectorCertificates() {
            guard let certificate = try? Certificate(derEncoded: der) else { continue }
            total += 1
            let reference = try Self.openSSLParse(der)
            defer { X509_free(reference) }
            let parsed = certificate.box.pointer
            #expect(EVP_PKEY_eq(X509_get0_pubkey(parsed), X509_get0_pubkey(reference)) == 1)
            #expect(X509_get_extension_flags(parsed) == X509_get_extension_flags(reference))
            #expect(X509_cmp(parsed, reference) == 0)
            if let direct = try Self.decoderFreeParse(certificate) {
                decoderFree += 1
                #expect(X509_get_extension_flags(direct) == X509_get_extension_flags(reference))
                X509_free(direct)
            }
        }
        #expect(total > 80)
        // Only keys in other encodings (a handful among these vectors) fall back.
        #expect(decoderFree >= total - 5, "\(decoderFree) of \(total) without the decoder")
    }

    @Test(arguments: [KeyKind.p256, .p384, .p521, .rsa(modulusBits: 2048)])
    func selfSignedRootsChainAsWithOpenSSL(_ kind: KeyKind) throws {
        let key = try PrivateKey(generating: kind)
        let name = try DistinguishedName([.commonName("decoder-free \(kind)")])
        var builder = CertificateBuilder(
            serialNumber: [7], issuer: name, subject: name, notBefore: 1_704_067_200,
            notAfter: 2_019_686_400, subjectPublicKey: try key.publicKey)
        builder.basicConstraints = BasicConstraints(isCertificateAuthority: true)
        builder.keyUsage = [.keyCertSign]
        builder.subjectKeyIdentifier = try CertificateBuilder.keyIdentifier(of: key.publicKey)
        let root = try builder.sign(with: key)
        let parsed = try #require(try Self.decoderFreeParse(root), "\(kind) fell back")
        defer { X509_free(parsed) }
        let reference = try Self.openSSLParse(root.derEncoded)
        defer { X509_free(reference) }
        #expect(X509_get_extension_flags(parsed) & UInt32(EXFLAG_SS) != 0)
        #expect(X509_get_extension_flags(parsed) == X509_get_extension_flags(reference))
        #expect(X509_self_signed(parsed, 1) == 1)
        #expect(root.isSignatureValid(issuerKey: try key.publicKey))
        #expect(!root.isSignatureValid(issuerKey: try PrivateKey(generating: kind).publicKey))
        let verifier = try CertificateChainVerifier(trustAnchors: [root])
        _ = try verifier.verify(chain: [root], at: 1_767_225_600)
    }

    @Test func otherKeyEncodingsFallBackToOpenSSL() throws {
        let key = try PrivateKey(generating: .p256)
        let certificate = try Self.selfSigned(key, "fallback")
        // The same key compressed (02/03 ‖ x): not an encoding the parser imports.
        let point = try key.publicKey.uncompressedPoint
        let compressed =
            [
                0x30, 0x39, 0x30, 0x13, 0x06, 0x07, 0x2a, 0x86, 0x48, 0xce, 0x3d, 0x02, 0x01,
                0x06, 0x08, 0x2a, 0x86, 0x48, 0xce, 0x3d, 0x03, 0x01, 0x07, 0x03, 0x22, 0x00,
            ] + [0x02 | (point[64] & 1)] + point[1...32]
        #expect(throws: Never.self) { try PublicKey(spkiDER: compressed) }
        #expect(!compressed.withUnsafeBytes(PublicKey.isDecoderFreeSPKI))
        let direct = try certificate.derEncoded.withUnsafeBufferPointer {
            try DecoderFreeCertificateParser.readWithoutKey($0, subjectPublicKeyInfo: compressed)
        }
        #expect(direct == nil)
        // The certificate itself (an uncompressed point) takes the deferred path.
        #expect(!(try Certificate(derEncoded: certificate.derEncoded)).box.isComplete)
        #expect(try certificate.publicKey == key.publicKey)
    }

    @Test func malformedCertificatesAreStillRefused() throws {
        let key = try PrivateKey(generating: .p256)
        let der = try Self.selfSigned(key, "refused").derEncoded
        let spki = try key.publicKey.spkiDER
        // Truncated: OpenSSL refuses it (the strict reader would first).
        #expect(throws: CryptoError.self) {
            try Array(der.dropLast()).withUnsafeBufferPointer { buffer in
                try DecoderFreeCertificateParser.readWithoutKey(buffer, subjectPublicKeyInfo: spki)
            }
        }
        // Followed by a byte: OpenSSL reads one certificate and stops short.
        #expect {
            try (der + [0]).withUnsafeBufferPointer { buffer in
                try DecoderFreeCertificateParser.readWithoutKey(buffer, subjectPublicKeyInfo: spki)
            }
        } throws: { error in
            (error as? CryptoError)?.code == .derTrailingBytes
        }
    }

    /// A key is only given to the certificate whose SubjectPublicKeyInfo OpenSSL read is the
    /// one imported.
    @Test func givesNoKeyForAnotherSubjectPublicKeyInfo() throws {
        let key = try PrivateKey(generating: .p256)
        let certificate = try Self.selfSigned(key, "mismatch")
        let spki = certificate.box.parsed.subjectPublicKeyInfo
        let read = try #require(
            try certificate.derEncoded.withUnsafeBufferPointer {
                try DecoderFreeCertificateParser.readWithoutKey($0, subjectPublicKeyInfo: spki)
            })
        defer { X509_free(read) }
        let other = try PrivateKey(generating: .p256).publicKey.spkiDER
        #expect(DecoderFreeCertificateParser.setKey(of: read, subjectPublicKeyInfo: other) == nil)
        #expect(X509_get0_pubkey(read) == nil)
        #expect(DecoderFreeCertificateParser.setKey(of: read, subjectPublicKeyInfo: spki) != nil)
        #expect(X509_get0_pubkey(read) != nil)
    }

    /// The key and the extension cache are set up when the `X509` is first used, once,
    /// whichever threads ask.
    @Test func completesOnFirstUseOnce() async throws {
        let key = try PrivateKey(generating: .p256)
        let der = try Self.selfSigned(key, "deferred").derEncoded
        let certificate = try Certificate(derEncoded: der)
        #expect(!certificate.box.isComplete)
        _ = try certificate.publicKey
        _ = certificate.subject
        #expect(!certificate.box.isComplete)
        let pointers = await withTaskGroup(of: UInt.self) { group in
            for _ in 0..<8 {
                group.addTask {
                    let x509 = certificate.box.pointer
                    // Every caller sees the key and the cache set up.
                    guard X509_get0_pubkey(x509) != nil,
                        X509_get_extension_flags(x509) & UInt32(EXFLAG_SET) != 0
                    else { return 0 }
                    return UInt(bitPattern: x509)
                }
            }
            return await group.reduce(into: Set<UInt>()) { $0.insert($1) }
        }
        #expect(pointers.count == 1 && !pointers.contains(0))
        #expect(certificate.box.isComplete)
        #expect(certificate.isSignatureValid(issuerKey: try key.publicKey))
    }
}
