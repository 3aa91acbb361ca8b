extension COSEAlgorithm {
    /// The JOSE (`alg` of a JWK or JWS header, RFC 7518 / RFC 8037 / RFC 9864) name of the
    /// algorithm, or nil when JOSE has none (RS1, unsupported algorithms).
    public var joseName: String? {
        switch rawValue {
        case -7: "ES256"
        case -35: "ES384"
        case -36: "ES512"
        case -47: "ES256K"
        case -8: "EdDSA"
        case -19: "Ed25519"
        case -53: "Ed448"
        case -257: "RS256"
        case -258: "RS384"
        case -259: "RS512"
        case -37: "PS256"
        case -38: "PS384"
        case -39: "PS512"
        default: nil
        }
    }

    /// The algorithm with JOSE name `joseName` (`"ES256"`, `"EdDSA"`, `"PS256"`, …), or nil for
    /// names this library does not implement.
    public init?(joseName: String) {
        let all: [COSEAlgorithm] = [
            .es256, .es384, .es512, .es256K, .edDSA, .ed25519, .ed448, .rs256, .rs384, .rs512,
            .ps256, .ps384, .ps512,
        ]
        guard let match = all.first(where: { $0.joseName == joseName }) else { return nil }
        self = match
    }
}
