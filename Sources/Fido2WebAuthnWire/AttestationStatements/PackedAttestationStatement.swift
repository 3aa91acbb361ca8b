import Fido2CBOR
import Fido2Crypto

/// A `packed` attestation statement (WebAuthn §8.2): `{alg, sig}` for self attestation, signed
/// by the credential key; `{alg, sig, x5c}` for full attestation, signed by an attestation key
/// whose certificate leads `x5c`. The signature covers authenticatorData ‖ clientDataHash.
public struct PackedAttestationStatement: Sendable, Equatable {
    /// The signature's algorithm.
    public let algorithm: COSEAlgorithm
    /// The signature.
    public let signature: ArraySlice<UInt8>
    /// The attestation certificate and its chain (DER, leaf first); nil for self attestation.
    public let certificates: [ArraySlice<UInt8>]?

    /// A statement from its members.
    public init(algorithm: COSEAlgorithm, signature: [UInt8], certificates: [[UInt8]]? = nil) {
        self.algorithm = algorithm
        self.signature = signature[...]
        self.certificates = certificates?.map { $0[...] }
    }

    /// Self attestation: `credentialKey` signs authenticatorData ‖ clientDataHash with
    /// `algorithm` (the credential's own algorithm).
    ///
    /// - Throws: ``WebAuthnError`` `signingFailed` (or `unsupportedAlgorithm`) when the key
    ///   cannot sign with `algorithm`.
    public static func selfAttestation(
        authenticatorData: AuthenticatorData, clientDataHash: [UInt8], credentialKey: PrivateKey,
        algorithm: COSEAlgorithm, nonce: ECDSANonce = .random
    ) throws -> PackedAttestationStatement {
        let signature = try sign(
            authenticatorData.bytes, clientDataHash, key: credentialKey, algorithm: algorithm,
            nonce: nonce)
        return PackedAttestationStatement(algorithm: algorithm, signature: signature)
    }

    /// Full (basic) attestation: `attestationKey` signs authenticatorData ‖ clientDataHash, and
    /// `certificates` (its certificate first, then any intermediates) go in `x5c`.
    ///
    /// - Parameters:
    ///   - authenticatorData: the authenticator data being attested; its bytes are signed.
    ///   - clientDataHash: the SHA-256 hash of the client data JSON, signed after the
    ///     authenticator data.
    ///   - attestationKey: the attestation private key that signs.
    ///   - certificates: the DER X.509 chain for `x5c`: the attestation key's certificate first,
    ///     then any intermediates; must not be empty.
    ///   - algorithm: the attestation key's algorithm; by default ES256, ES384, ES512, EdDSA,
    ///     Ed448 or RS256 after the key's kind.
    ///   - nonce: how an ECDSA signature's secret k is chosen (`.deterministic` for RFC 6979,
    ///     reproducible signatures); `.random` by default.
    /// - Throws: ``WebAuthnError`` `invalidValue` for an empty chain; `signingFailed` (or
    ///   `unsupportedAlgorithm`) when the key cannot sign.
    public static func fullAttestation(
        authenticatorData: AuthenticatorData, clientDataHash: [UInt8], attestationKey: PrivateKey,
        certificates: [[UInt8]], algorithm: COSEAlgorithm? = nil, nonce: ECDSANonce = .random
    ) throws -> PackedAttestationStatement {
        guard !certificates.isEmpty else {
            throw WebAuthnError(
                .invalidValue, "full attestation needs the attestation certificate",
                field: "attStmt.x5c")
        }
        let algorithm = algorithm ?? COSEAlgorithm.signingDefault(for: attestationKey.kind)
        let signature = try sign(
            authenticatorData.bytes, clientDataHash, key: attestationKey, algorithm: algorithm,
            nonce: nonce)
        return PackedAttestationStatement(
            algorithm: algorithm, signature: signature, certificates: certificates)
    }

    init(
        reading encoded: ArraySlice<UInt8>, options: CBORDecodingOptions, base: Int
    )
        throws(WebAuthnError)
    {
        var map = try StatementMapReader(encoded, format: "packed", options: options, base: base)
        var algorithm: COSEAlgorithm?
        var signature: ArraySlice<UInt8>?
        var certificates: [ArraySlice<UInt8>]?
        try map.members { (map, name) throws(WebAuthnError) in
            switch name {
            case "alg": algorithm = try map.algorithm(name)
            case "sig": signature = try map.bytes(name)
            case "x5c": certificates = try map.certificates(name)
            default: return false
            }
            return true
        }
        guard let algorithm else { throw map.missing("alg") }
        guard let signature else { throw map.missing("sig") }
        self.algorithm = algorithm
        self.signature = signature
        self.certificates = certificates
    }

    var encodedCount: Int {
        1 + StatementSize.text(3) + CBORSize.int(Int64(algorithm.rawValue))
            + StatementSize.text(3) + StatementSize.bytes(signature.count)
            + (certificates.map { StatementSize.text(3) + StatementSize.certificates($0) } ?? 0)
    }

    func write<Output: CBOROutput>(to writer: inout Output) {
        writer.writeMapHeader(count: certificates == nil ? 2 : 3)
        writer.writeTextLiteral("alg")
        writer.writeInt(algorithm.rawValue)
        writer.writeTextLiteral("sig")
        writer.writeByteString(signature)
        if let certificates {
            writer.writeTextLiteral("x5c")
            writer.writeCertificates(certificates)
        }
    }
}

/// Signs `first ‖ second`, mapping crypto failures.
func sign(
    _ first: ArraySlice<UInt8>, _ second: [UInt8], key: PrivateKey, algorithm: COSEAlgorithm,
    nonce: ECDSANonce
) throws(WebAuthnError) -> [UInt8] {
    do {
        return try key.signature(for: first, second, algorithm: algorithm, nonce: nonce)
    } catch {
        throw WebAuthnError(crypto: error, .signingFailed, field: "alg")
    }
}

extension COSEAlgorithm {
    /// The algorithm a key of `kind` signs with when nobody says otherwise.
    static func signingDefault(for kind: KeyKind) -> COSEAlgorithm {
        if kind == .p256 { return .es256 }
        if kind == .p384 { return .es384 }
        if kind == .p521 { return .es512 }
        if kind == .secp256k1 { return .es256K }
        if kind == .ed25519 { return .edDSA }
        if kind == .ed448 { return .ed448 }
        return .rs256
    }
}
