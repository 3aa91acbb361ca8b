import Fido2Crypto
import Fido2Encoding
import Fido2TestSupport
import Fido2WebAuthn
import Testing

/// One case of `webauthn-l3-test-vectors.json`, with its keys built from the spec's values.
struct W3CVector: CustomTestStringConvertible, Sendable {
    let id: String
    let json: JSONValue
    let format: String
    let algorithm: COSEAlgorithm
    let credentialKey: PrivateKey
    let attestationKey: PrivateKey?

    var testDescription: String { id }

    var registration: JSONValue { json["registration"]?["values"] ?? .null }
    var authentication: JSONValue { json["authentication"]?["values"] ?? .null }

    func registrationBytes(_ name: String) throws -> [UInt8] {
        try json.hexBytes("registration.values.\(name)")
    }

    func authenticationBytes(_ name: String) throws -> [UInt8] {
        try json.hexBytes("authentication.values.\(name)")
    }

    var rpID: String { json["derived"]?["rp_id"]?.stringValue ?? "" }

    /// Registration flags: UP|AT, plus UV/BE/BS of `auth_data_UV_BE_BS` with BS only under BE;
    /// fido-u2f is exactly UP|AT.
    func registrationFlags() throws -> AuthenticatorDataFlags {
        guard format != "fido-u2f" else { return [.userPresent, .attestedCredentialData] }
        var bits = (try registrationBytes("auth_data_UV_BE_BS").first ?? 0) & 0x1c
        if bits & 0x08 == 0 { bits &= ~0x10 }
        return AuthenticatorDataFlags(rawValue: 0x41 | bits)
    }

    /// Assertion flags: UP, BE as registered, UV/BS of `auth_data_UV_BS` with BS only under BE.
    func assertionFlags() throws -> AuthenticatorDataFlags {
        let backupEligible = try registrationFlags().contains(.backupEligible)
        var bits = (try authenticationBytes("auth_data_UV_BS").first ?? 0) & 0x14
        if !backupEligible { bits &= ~0x10 }
        return AuthenticatorDataFlags(rawValue: 0x01 | bits | (backupEligible ? 0x08 : 0))
    }

    static func all() throws -> [W3CVector] {
        let document = try sharedVectorJSON("webauthn-l3-test-vectors.json")
        return try document.array("cases").map { try W3CVector($0) }
    }

    static func named(_ id: String) throws -> W3CVector {
        guard let vector = try all().first(where: { $0.id == id }) else {
            throw VectorShapeError(description: "no case \(id)")
        }
        return vector
    }

    init(_ json: JSONValue) throws {
        self.json = json
        id = try json.string("id")
        format = try json.string("derived.attestation_format")
        guard let alg = try json.member("derived.credential_cose_alg").int64Value else {
            throw VectorShapeError(description: "\(id): credential_cose_alg")
        }
        algorithm = COSEAlgorithm(rawValue: Int(alg))
        let values = try json.member("registration.values")
        if let scalar = values["credential_private_key"]?.stringValue {
            let kind: KeyKind =
                switch algorithm {
                case .es256: .p256
                case .es384: .p384
                default: .p521
                }
            credentialKey = try PrivateKey(rawScalar: Hex.bytes(scalar), kind: kind)
        } else if let raw = values["private_key"]?.stringValue {
            let bytes = Hex.bytes(raw)
            credentialKey = try PrivateKey(
                rawEdDSAPrivateKey: bytes, kind: bytes.count == 32 ? .ed25519 : .ed448)
        } else {
            credentialKey = try PrivateKey(
                rsaPrimeP: try values.hexBytes("private_key_p"),
                primeQ: try values.hexBytes("private_key_q"), publicExponent: [0x01, 0x00, 0x01])
        }
        attestationKey = try values["attestation_private_key"]?.stringValue.map {
            try PrivateKey(rawScalar: Hex.bytes($0), kind: .p256)
        }
    }

    /// The clientDataJSON of one ceremony, rebuilt from the spec's inputs.
    func clientData(registration: Bool) throws -> CollectedClientData {
        let ceremony = registration ? "registration" : "authentication"
        let values = try json.member("\(ceremony).values")
        var extra = JSONObject()
        if let flag = try values.hexBytes("client_data_gen_flags").first, flag & 0x01 != 0 {
            extra.append(
                "extraData",
                .string(
                    "clientDataJSON may be extended with additional fields in the future, "
                        + "such as this: "
                        + Base64URL.encode(try values.hexBytes("extraData_random"))))
        }
        let crossOrigin = json["derived"]?["cross_origin"]?.boolValue ?? false
        return try CollectedClientData(
            type: registration ? .create : .get, challenge: try values.hexBytes("challenge"),
            origin: try json.string("derived.origin"), crossOrigin: crossOrigin,
            topOrigin: json["derived"]?["top_origin"]?.stringValue, extraMembers: extra)
    }
}
