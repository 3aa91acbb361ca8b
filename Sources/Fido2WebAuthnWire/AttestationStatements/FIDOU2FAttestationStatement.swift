import Fido2CBOR
import Fido2Crypto

/// A `fido-u2f` attestation statement (WebAuthn §8.6): `{sig, x5c}`, where `sig` is the U2F
/// attestation key's ECDSA P-256 signature over
/// `0x00 ‖ rpIdHash ‖ clientDataHash ‖ credentialId ‖ 0x04 ‖ x ‖ y`.
public struct FIDOU2FAttestationStatement: Sendable, Equatable {
    /// The signature (DER ECDSA).
    public let signature: ArraySlice<UInt8>
    /// The attestation certificate (U2F has exactly one; the parser keeps whatever came).
    public let certificates: [ArraySlice<UInt8>]

    /// A statement from its members.
    public init(signature: [UInt8], certificates: [[UInt8]]) {
        self.signature = signature[...]
        self.certificates = certificates.map { $0[...] }
    }

    /// The bytes a U2F attestation signs, built from registration authenticator data.
    ///
    /// - Throws: ``WebAuthnError`` `invalidValue` when the authenticator data has no attested
    ///   credential data or its key is not an ES256 P-256 key.
    public static func signedBytes(
        authenticatorData: AuthenticatorData, clientDataHash: [UInt8]
    )
        throws -> [UInt8]
    {
        guard let attested = authenticatorData.attestedCredentialData else {
            throw WebAuthnError(
                .invalidValue, "fido-u2f attests a new credential; AT data is missing",
                field: "authData")
        }
        let key = attested.credentialPublicKey
        guard key.algorithm == .es256, key.publicKey.kind == .p256,
            let point = try? key.publicKey.uncompressedPoint
        else {
            throw WebAuthnError(
                .invalidValue, "fido-u2f needs an ES256 P-256 credential key",
                field: "authData.attestedCredentialData.credentialPublicKey")
        }
        var message: [UInt8] = []
        message.reserveCapacity(1 + 32 + clientDataHash.count + attested.credentialId.count + 65)
        message.append(0x00)
        message.append(contentsOf: authenticatorData.rpIdHash)
        message.append(contentsOf: clientDataHash)
        message.append(contentsOf: attested.credentialId)
        message.append(contentsOf: point)
        return message
    }

    /// Signs a registration with a U2F attestation key (P-256, ES256).
    ///
    /// - Throws: ``WebAuthnError`` as ``signedBytes(authenticatorData:clientDataHash:)``;
    ///   `signingFailed` when the key is not a P-256 key.
    public static func signing(
        authenticatorData: AuthenticatorData, clientDataHash: [UInt8], attestationKey: PrivateKey,
        certificate: [UInt8], nonce: ECDSANonce = .random
    ) throws -> FIDOU2FAttestationStatement {
        let message = try signedBytes(
            authenticatorData: authenticatorData, clientDataHash: clientDataHash)
        let signature = try sign(
            message[...], [], key: attestationKey, algorithm: .es256, nonce: nonce)
        return FIDOU2FAttestationStatement(signature: signature, certificates: [certificate])
    }

    init(
        reading encoded: ArraySlice<UInt8>, options: CBORDecodingOptions, base: Int
    )
        throws(WebAuthnError)
    {
        var map = try StatementMapReader(encoded, format: "fido-u2f", options: options, base: base)
        var signature: ArraySlice<UInt8>?
        var certificates: [ArraySlice<UInt8>]?
        try map.members { (map, name) throws(WebAuthnError) in
            switch name {
            case "sig": signature = try map.bytes(name)
            case "x5c": certificates = try map.certificates(name)
            default: return false
            }
            return true
        }
        guard let signature else { throw map.missing("sig") }
        guard let certificates else { throw map.missing("x5c") }
        self.signature = signature
        self.certificates = certificates
    }

    var encodedCount: Int {
        1 + StatementSize.text(3) + StatementSize.bytes(signature.count) + StatementSize.text(3)
            + StatementSize.certificates(certificates)
    }

    func write<Output: CBOROutput>(to writer: inout Output) {
        writer.writeMapHeader(count: 2)
        writer.writeTextLiteral("sig")
        writer.writeByteString(signature)
        writer.writeTextLiteral("x5c")
        writer.writeCertificates(certificates)
    }
}
