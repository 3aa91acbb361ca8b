// JSON Web Key import, public and private.
// dictionary: json
// seeds: jwk-keys
import Fido2Crypto
import FuzzSupport

/// Invariants:
/// - an imported public JWK exports to a JWK that imports to the same key, with a stable
///   thumbprint, and its SPKI imports to the same key;
/// - an imported private JWK exports to a JWK that imports to a key with the same public key,
///   and a private JWK is never accepted as a public one (private members are refused).
@main
enum JWKFuzzer: FuzzTarget {
    static func fuzz(_ input: [UInt8]) {
        guard let text = String(validating: input, as: UTF8.self) else { return }
        if let key = try? PublicKey(jwkRepresentation: text) {
            let exported = try? key.jwkRepresentation()
            let again = exported.flatMap { try? PublicKey(jwkRepresentation: $0) }
            FuzzCheck.require(again == key, "public JWK export does not import to the same key")
            FuzzCheck.require(
                (try? again?.jwkThumbprint) == (try? key.jwkThumbprint), "thumbprint is not stable")
            FuzzCheck.require(
                (try? key.spkiDER).flatMap { try? PublicKey(spkiDER: $0) } == key,
                "SPKI of a JWK key does not import")
        }
        if let key = try? PrivateKey(jwkRepresentation: text) {
            FuzzCheck.require(
                (try? PublicKey(jwkRepresentation: text)) == nil,
                "a private JWK is accepted as a public key")
            let exported = try? key.jwkRepresentation()
            let again = exported.flatMap { try? PrivateKey(jwkRepresentation: $0) }
            FuzzCheck.require(
                (try? again?.publicKey) == (try? key.publicKey),
                "private JWK export does not import to the same key")
        }
    }
}
