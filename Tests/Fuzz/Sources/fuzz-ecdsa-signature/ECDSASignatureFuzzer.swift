// ECDSA signature encodings (DER as WebAuthn carries them, raw r ‖ s as COSE and JOSE do) and
// signature verification on untrusted signature bytes.
// dictionary:
// seeds: ecdsa-signatures
import Fido2Crypto
import FuzzSupport

/// Invariants:
/// - DER parsing is strict: an accepted signature re-encodes to the input byte for byte, and
///   its raw form, where r and s fit, parses back to the same signature;
/// - raw input of a curve's width round-trips through DER;
/// - no input verifies as a signature under keys made here (the fuzzer cannot know the
///   private keys), and verification never throws for a fitting algorithm.
@main
enum ECDSASignatureFuzzer: FuzzTarget {
    static let message = Array("fido2kit fuzz message".utf8)
    static let keys: [(PublicKey, [COSEAlgorithm])] = {
        var keys: [(PublicKey, [COSEAlgorithm])] = []
        for (kind, algorithms) in [
            (KeyKind.p256, [COSEAlgorithm.es256]), (.p384, [.es384]), (.p521, [.es512]),
            (.ed25519, [.edDSA]), (.rsa(modulusBits: 2048), [.rs256, .ps256]),
        ] {
            guard let key = try? PrivateKey(generating: kind).publicKey else {
                FuzzCheck.fail("cannot make a \(kind) key")
            }
            keys.append((key, algorithms))
        }
        return keys
    }()
    static let curves: [KeyKind] = [.p256, .p384, .p521]

    /// Makes the keys (an RSA key among them) before fuzzing starts.
    static func prepare() { _ = keys }

    static func fuzz(_ input: [UInt8]) {
        if let signature = try? ECDSASignature(derRepresentation: input) {
            FuzzCheck.require(
                signature.derRepresentation == input, "DER signature is not canonical")
            for kind in curves {
                guard let raw = try? signature.rawRepresentation(kind: kind) else { continue }
                FuzzCheck.require(
                    (try? ECDSASignature(rawRepresentation: raw, kind: kind)) == signature,
                    "raw \(kind) form does not parse back")
            }
        }
        for kind in curves {
            guard let signature = try? ECDSASignature(rawRepresentation: input, kind: kind) else {
                continue
            }
            FuzzCheck.require(
                (try? ECDSASignature(derRepresentation: signature.derRepresentation)) == signature,
                "DER form of a raw \(kind) signature does not parse back")
            FuzzCheck.require(
                (try? signature.rawRepresentation(kind: kind)) == input, "raw \(kind) form changes")
        }
        for (key, algorithms) in keys {
            for algorithm in algorithms {
                do {
                    let valid = try key.isValidSignature(input, for: message, algorithm: algorithm)
                    FuzzCheck.require(!valid, "\(algorithm) accepts a fuzzed signature")
                } catch {
                    FuzzCheck.fail("\(algorithm) verification throws: \(error)")
                }
            }
        }
    }
}
