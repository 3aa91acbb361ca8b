import Fido2Crypto
import Fido2TestSupport
import Testing

/// Sign and verify with every supported algorithm, on fresh keys.
@Suite struct SignatureTests {
    struct Pairing: Sendable, CustomStringConvertible {
        let algorithm: COSEAlgorithm
        let kind: KeyKind
        var description: String { "\(algorithm) on \(kind)" }
    }

    static let pairings = [
        Pairing(algorithm: .es256, kind: .p256),
        Pairing(algorithm: .es384, kind: .p384),
        Pairing(algorithm: .es512, kind: .p521),
        Pairing(algorithm: .es256K, kind: .secp256k1),
        Pairing(algorithm: .edDSA, kind: .ed25519),
        Pairing(algorithm: .edDSA, kind: .ed448),
        Pairing(algorithm: .ed25519, kind: .ed25519),
        Pairing(algorithm: .ed448, kind: .ed448),
        Pairing(algorithm: .rs256, kind: .rsa(modulusBits: 2048)),
        Pairing(algorithm: .rs384, kind: .rsa(modulusBits: 2048)),
        Pairing(algorithm: .rs512, kind: .rsa(modulusBits: 2048)),
        Pairing(algorithm: .ps256, kind: .rsa(modulusBits: 2048)),
        Pairing(algorithm: .ps384, kind: .rsa(modulusBits: 2048)),
        Pairing(algorithm: .ps512, kind: .rsa(modulusBits: 2048)),
    ]

    static let rsaKey = Result { try PrivateKey(generating: .rsa(modulusBits: 2048)) }

    static func key(_ kind: KeyKind) throws -> PrivateKey {
        kind.isRSA ? try rsaKey.get() : try PrivateKey(generating: kind)
    }

    let authenticatorData = [UInt8](repeating: 0xab, count: 37)
    let clientDataHash = [UInt8](repeating: 0xcd, count: 32)

    @Test(arguments: pairings) func signsAndVerifiesInPieces(_ pairing: Pairing) throws {
        let key = try Self.key(pairing.kind)
        let publicKey = try key.publicKey
        #expect(key.kind == pairing.kind)
        let whole = authenticatorData + clientDataHash
        for nonce in [ECDSANonce.random, .deterministic] {
            let signature = try key.signature(
                for: authenticatorData, clientDataHash, algorithm: pairing.algorithm, nonce: nonce)
            #expect(
                try publicKey.isValidSignature(
                    signature, for: authenticatorData, clientDataHash, algorithm: pairing.algorithm)
            )
            #expect(
                try publicKey.isValidSignature(signature, for: whole, algorithm: pairing.algorithm))
            // Any change to the message or the signature is caught.
            var tampered = whole
            tampered[40] ^= 1
            #expect(
                try !publicKey.isValidSignature(
                    signature, for: tampered, algorithm: pairing.algorithm))
            var badSignature = signature
            badSignature[badSignature.count / 2] ^= 1
            #expect(
                try !publicKey.isValidSignature(
                    badSignature, for: whole, algorithm: pairing.algorithm))
            #expect(
                try !publicKey.isValidSignature([UInt8](), for: whole, algorithm: pairing.algorithm)
            )
            #expect(
                try !publicKey.isValidSignature(
                    signature + [0], for: whole, algorithm: pairing.algorithm))
        }
    }

    @Test func deterministicNoncesRepeatAndRandomOnesDoNot() throws {
        for kind in [KeyKind.p256, .p384, .p521] {
            let key = try PrivateKey(generating: kind)
            let algorithm: COSEAlgorithm = kind == .p256 ? .es256 : kind == .p384 ? .es384 : .es512
            let a = try key.signature(
                for: authenticatorData, algorithm: algorithm, nonce: .deterministic)
            let b = try key.signature(
                for: authenticatorData, algorithm: algorithm, nonce: .deterministic)
            #expect(a == b)
            let c = try key.signature(for: authenticatorData, algorithm: algorithm)
            #expect(a != c)
        }
    }

    /// Each RSA algorithm hashes with its own digest: a signature made with one does not verify
    /// as another (one WebAuthn library verified RS384/RS512 with SHA-256).
    @Test func choosesTheDigestPerAlgorithm() throws {
        let key = try Self.rsaKey.get()
        let publicKey = try key.publicKey
        let families: [[COSEAlgorithm]] = [[.rs256, .rs384, .rs512], [.ps256, .ps384, .ps512]]
        for family in families {
            for signer in family {
                let signature = try key.signature(for: authenticatorData, algorithm: signer)
                for verifier in family {
                    #expect(
                        try publicKey.isValidSignature(
                            signature, for: authenticatorData, algorithm: verifier)
                            == (signer == verifier), "\(signer) verified as \(verifier)")
                }
            }
        }
        #expect(COSEAlgorithm.rs384.digest == .sha384)
        #expect(COSEAlgorithm.ps512.digest == .sha512)
        #expect(COSEAlgorithm.es512.digest == .sha512)
        #expect(COSEAlgorithm.rs1.digest == .sha1)
        #expect(COSEAlgorithm.edDSA.digest == nil)
    }

    /// RS1 (RSASSA-PKCS1-v1_5 with SHA-1) verifies legacy signatures but never signs.
    @Test func verifiesButNeverSignsRS1() throws {
        let key = try Self.rsaKey.get()
        expectCryptoError(.unsupportedAlgorithm, field: "alg") {
            try key.signature(for: authenticatorData, algorithm: .rs1)
        }
        // RS1 acceptance is pinned on real TPM data (RealTPMAttestationSignatureTests); here an
        // RS256 signature must not pass as RS1.
        let publicKey = try key.publicKey
        let rs256 = try key.signature(for: authenticatorData, algorithm: .rs256)
        #expect(try !publicKey.isValidSignature(rs256, for: authenticatorData, algorithm: .rs1))
        #expect(!COSEAlgorithm.rs1.isAllowedForSigning)
        #expect(COSEAlgorithm.rs1.isSupported)
    }

    @Test func rejectsAlgorithmsThatDoNotFitTheKey() throws {
        let p256 = try PrivateKey(generating: .p256)
        let p384 = try PrivateKey(generating: .p384)
        let ed = try PrivateKey(generating: .ed25519)
        expectCryptoError(.algorithmKeyMismatch, field: "alg") {
            try p384.signature(for: [1], algorithm: .es256)
        }
        expectCryptoError(.algorithmKeyMismatch, field: "alg") {
            try p256.signature(for: [1], algorithm: .rs256)
        }
        expectCryptoError(.algorithmKeyMismatch, field: "alg") {
            try ed.signature(for: [1], algorithm: .ed448)
        }
        expectCryptoError(.algorithmKeyMismatch, field: "alg") {
            try p256.publicKey.isValidSignature([1], for: [1], algorithm: .es384)
        }
        expectCryptoError(.algorithmKeyMismatch, field: "alg") {
            try ed.publicKey.isValidSignature([1], for: [1], algorithm: .es256)
        }
    }

    @Test func rejectsUnknownAlgorithmsWithoutCrashing() throws {
        let key = try PrivateKey(generating: .p256)
        for raw in [-48, -49, -50, 0, 12345, Int.min, Int.max] {
            let algorithm = COSEAlgorithm(rawValue: raw)
            #expect(!algorithm.isSupported)
            #expect(algorithm.digest == nil && algorithm.keyType == nil)
            expectCryptoError(.unsupportedAlgorithm, field: "alg") {
                try key.signature(for: [1], algorithm: algorithm)
            }
            expectCryptoError(.unsupportedAlgorithm, field: "alg") {
                try key.publicKey.isValidSignature([1], for: [1], algorithm: algorithm)
            }
        }
        #expect(COSEAlgorithm(rawValue: -48).description == "ML-DSA-44")
    }

    @Test func signsEmptyMessages() throws {
        for pairing in Self.pairings {
            let key = try Self.key(pairing.kind)
            let signature = try key.signature(for: [UInt8](), algorithm: pairing.algorithm)
            #expect(
                try key.publicKey.isValidSignature(
                    signature, for: [UInt8](), algorithm: pairing.algorithm))
            #expect(
                try key.publicKey.isValidSignature(
                    signature, for: [UInt8](), [UInt8](), algorithm: pairing.algorithm))
        }
    }

    /// EdDSA's two-piece path copies into a temporary buffer; large inputs take the heap path.
    @Test func signsLargeMessagesInPiecesWithEdDSA() throws {
        let key = try PrivateKey(generating: .ed25519)
        let first = [UInt8](repeating: 1, count: 100_000)
        let second = [UInt8](repeating: 2, count: 50_000)
        let signature = try key.signature(for: first, second, algorithm: .edDSA)
        #expect(try key.signature(for: first + second, algorithm: .edDSA) == signature)
        #expect(
            try key.publicKey.isValidSignature(signature, for: first + second, algorithm: .edDSA))
    }
}
