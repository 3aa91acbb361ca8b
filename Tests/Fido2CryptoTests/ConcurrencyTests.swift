import Fido2Crypto
import Fido2TestSupport
import Fido2Vectors
import Testing

/// Keys shared by many tasks sign and verify at the same time (run under
/// `swift test --sanitize=thread` to check for data races).
@Suite struct ConcurrencyTests {
    struct Signer: Sendable {
        let key: PrivateKey
        let publicKey: PublicKey
        let algorithm: COSEAlgorithm
    }

    @Test func sharedKeysSignAndVerifyConcurrently() async throws {
        let signers = try [
            (KeyKind.p256, COSEAlgorithm.es256), (.p384, .es384), (.ed25519, .edDSA),
            (.rsa(modulusBits: 2048), .rs256), (.rsa(modulusBits: 2048), .ps256),
        ].map { kind, algorithm in
            let key = try PrivateKey(generating: kind)
            return Signer(key: key, publicKey: try key.publicKey, algorithm: algorithm)
        }
        let random = try DeterministicRandomSource(seed: Array("concurrency".utf8))
        let rounds = 12
        let results = try await withThrowingTaskGroup(of: Int.self) { group in
            for task in 0..<16 {
                group.addTask {
                    var checked = 0
                    for round in 0..<rounds {
                        let signer = signers[(task + round) % signers.count]
                        let message = try random.bytes(count: 40 + round)
                        let nonce: ECDSANonce = round.isMultiple(of: 2) ? .random : .deterministic
                        let signature = try signer.key.signature(
                            for: message, [UInt8(task)], algorithm: signer.algorithm, nonce: nonce)
                        guard
                            try signer.publicKey.isValidSignature(
                                signature, for: message + [UInt8(task)], algorithm: signer.algorithm
                            )
                        else { return -1 }
                        // A tampered message fails, also under contention.
                        guard
                            try !signer.publicKey.isValidSignature(
                                signature, for: message, algorithm: signer.algorithm)
                        else { return -1 }
                        // Shared hashing, HMAC, key generation and point import.
                        _ = DigestAlgorithm.sha256.hash(message)
                        _ = try HMAC.authenticationCode(for: message, key: signature)
                        let fresh = try PrivateKey(generating: .p256)
                        _ = try PublicKey(
                            uncompressedPoint: fresh.publicKey.uncompressedPoint, kind: .p256)
                        checked += 1
                    }
                    return checked
                }
            }
            var total = 0
            for try await count in group { total += count }
            return total
        }
        #expect(results == 16 * rounds)
    }

    /// A key imported from a point makes its OpenSSL key on first use; many tasks exporting it
    /// (SPKI, written from the point), comparing it and verifying with it at once must all
    /// agree.
    @Test func freshPointKeysMakeTheirOpenSSLKeyOnceUnderContention() async throws {
        for (kind, algorithm) in [(KeyKind.p256, COSEAlgorithm.es256), (.p521, .es512)] {
            let signer = try PrivateKey(generating: kind)
            let message = Array("contended".utf8)
            let signature = try signer.signature(for: message, algorithm: algorithm)
            let reference = try signer.publicKey.spkiDER
            let referenceKey = try PublicKey(spkiDER: reference)
            for _ in 0..<8 {
                let fresh = try PublicKey(
                    uncompressedPoint: signer.publicKey.uncompressedPoint, kind: kind)
                let outcomes = try await withThrowingTaskGroup(of: Bool.self) { group in
                    for task in 0..<8 {
                        group.addTask {
                            switch task % 3 {
                            case 0: return try fresh.spkiDER == reference
                            case 1: return fresh == referenceKey
                            default:
                                return try fresh.isValidSignature(
                                    signature, for: message, algorithm: algorithm)
                            }
                        }
                    }
                    var outcomes: [Bool] = []
                    for try await outcome in group { outcomes.append(outcome) }
                    return outcomes
                }
                #expect(outcomes == [Bool](repeating: true, count: 8))
            }
        }
    }
}
