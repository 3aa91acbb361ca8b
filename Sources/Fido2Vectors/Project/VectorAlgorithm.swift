import Fido2Crypto

/// The credential algorithms the project's vectors cover.
enum VectorAlgorithm: String, CaseIterable {
    case es256 = "ES256"
    case es384 = "ES384"
    case es512 = "ES512"
    case rs256 = "RS256"
    case ps256 = "PS256"
    case edDSA = "EdDSA"

    /// The COSE algorithm.
    var cose: COSEAlgorithm {
        switch self {
        case .es256: .es256
        case .es384: .es384
        case .es512: .es512
        case .rs256: .rs256
        case .ps256: .ps256
        case .edDSA: .edDSA
        }
    }

    /// The lower-case label used in case IDs.
    var label: String { rawValue.lowercased() }
}
