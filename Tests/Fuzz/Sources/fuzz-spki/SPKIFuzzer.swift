// SubjectPublicKeyInfo DER import (keys in certificates and in `getPublicKey()`).
// dictionary:
// seeds: spki-keys
import Fido2Crypto
import FuzzSupport

/// Every input goes through the `unsafe…` import (RSA 1024–16384 bits). On one accepted input
/// length in eight, invariants follow: its DER export imports to the same key and is stable,
/// the ordinary door agrees with the `unsafe…` one within 2048–4096-bit RSA, and the PEM, EC
/// point, raw EdDSA and JWK forms import to the same key.
///
/// OpenSSL 3.0 reads and writes SubjectPublicKeyInfo through its decoder and encoder framework
/// (`OSSL_DECODER_CTX_new_for_pkey`, `OSSL_ENCODER_CTX_new_for_pkey`), which makes hundreds of
/// small allocations per call: several milliseconds each under AddressSanitizer. Sampling the
/// export checks keeps most of the time on the import, the code an attacker reaches.
@main
enum SPKIFuzzer: FuzzTarget {
    static func fuzz(_ input: [UInt8]) {
        guard let key = try? PublicKey(unsafeSPKIDER: input), input.count % 8 == 0 else { return }
        guard let der = try? key.spkiDER else {
            FuzzCheck.fail("an imported key cannot be exported")
        }
        let again = try? PublicKey(unsafeSPKIDER: der)
        FuzzCheck.require(again == key, "exported SPKI does not import to the same key")
        FuzzCheck.require((try? again?.spkiDER) == der, "SPKI export is not stable")
        let kind = key.kind
        let ordinary = KeyKind.allowedRSAModulusBits.contains(kind.modulusBits ?? 2048)
        FuzzCheck.require(
            ((try? PublicKey(spkiDER: input)) == key) == ordinary,
            "spkiDER and unsafeSPKIDER disagree on a \(kind) key")
        guard ordinary else { return }
        FuzzCheck.require(
            (try? key.pemRepresentation).flatMap { try? PublicKey(pemRepresentation: $0) } == key,
            "PEM export does not import to the same key")
        if kind.isECDSA {
            let point = try? key.uncompressedPoint
            FuzzCheck.require(
                point.flatMap { try? PublicKey(uncompressedPoint: $0, kind: kind) } == key,
                "EC point export does not import to the same key")
        } else if kind.isEdDSA {
            let raw = try? key.rawEdDSAPublicKey
            FuzzCheck.require(
                raw.flatMap { try? PublicKey(rawEdDSAPublicKey: $0, kind: kind) } == key,
                "raw EdDSA export does not import to the same key")
        }
        let jwk = try? key.jwkRepresentation()
        FuzzCheck.require(
            jwk.flatMap { try? PublicKey(jwkRepresentation: $0) } == key,
            "JWK export does not import to the same key")
    }
}
