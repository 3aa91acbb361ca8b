// COSE_Key import (the credentialPublicKey of authenticator data), strict and lenient CBOR.
// dictionary: cbor
// seeds: cose-keys
import Fido2CBOR
import Fido2Crypto
import FuzzSupport

/// Invariants on every COSE_Key that imports:
/// - its canonical encoding imports strictly to the same key and algorithm and is stable;
/// - a key the strict profile accepts, the lenient one accepts as the same key;
/// - verifying a signature with it never traps and never accepts the input itself as a
///   signature of a fixed message (keys are attacker-chosen, so EdDSA is left out: a
///   small-order key can make a forged signature valid, which is the attacker's own loss).
@main
enum COSEKeyFuzzer: FuzzTarget {
    static let message = Array("fido2kit fuzz message".utf8)

    static func fuzz(_ input: [UInt8]) {
        let strict = try? COSEKey(cborEncoded: input)
        let lenient = try? COSEKey(cborEncoded: input, options: .lenient)
        if let strict {
            FuzzCheck.require(lenient == strict, "lenient import differs from strict")
        }
        guard let key = lenient else { return }

        guard let encoded = try? key.cborEncoded else {
            FuzzCheck.fail("an imported \(key.publicKey.kind) key cannot be encoded")
        }
        let again = try? COSEKey(cborEncoded: encoded)
        FuzzCheck.require(again == key, "canonical encoding does not import to the same key")
        FuzzCheck.require((try? again?.cborEncoded) == encoded, "COSE_Key encoding is not stable")

        do {
            let valid = try key.publicKey.isValidSignature(
                input, for: message, algorithm: key.algorithm)
            FuzzCheck.require(
                !valid || key.publicKey.kind.isEdDSA,
                "the key's own encoding verifies as a signature")
        } catch {
            FuzzCheck.fail("verification with an imported key throws: \(error)")
        }
    }
}
