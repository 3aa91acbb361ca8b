import Fido2Crypto
import Testing

/// `COSEAlgorithm(name:)`: registry names in any case and decimal numbers, as the command
/// line's `--allow-algorithm` takes them; nothing else.
struct COSEAlgorithmNameTests {
    @Test func readsRegistryNamesAndNumbers() {
        let names: [(String, COSEAlgorithm)] = [
            ("ES256", .es256), ("es256", .es256), ("RS1", .rs1), ("rs1", .rs1),
            ("EdDSA", .edDSA), ("Ed448", .ed448), ("PS256", .ps256), ("RS512", .rs512),
            ("-7", .es256), ("-65535", .rs1), ("-48", COSEAlgorithm(rawValue: -48)),
            ("ML-DSA-44", COSEAlgorithm(rawValue: -48)), ("ES256K", .es256K), ("es256k", .es256K),
            ("-47", .es256K),
        ]
        for (name, algorithm) in names {
            #expect(COSEAlgorithm(name: name) == algorithm, "\(name)")
        }
        // Every name an algorithm prints reads back as that algorithm.
        for algorithm in [
            COSEAlgorithm.es256, .es384, .es512, .es256K, .edDSA, .ed25519, .ed448, .rs1,
        ] {
            #expect(COSEAlgorithm(name: algorithm.description) == algorithm)
        }
    }

    @Test func refusesAnythingElse() {
        for name in ["", "ES-256", "SHA256", "7.5", "alg(-7)", " -7"] {
            #expect(COSEAlgorithm(name: name) == nil, "\(name)")
        }
    }
}
