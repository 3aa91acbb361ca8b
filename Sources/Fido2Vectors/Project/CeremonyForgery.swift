import Fido2CBOR
import Fido2Crypto
import Fido2WebAuthn
import Fido2WebAuthnWire

/// Builds responses from their parts for the negative cases: every part is what a genuine
/// authenticator sends except the one a case changes, and every signature is valid over the
/// bytes sent, so the step the case names is the only one that can reject it.
enum CeremonyForgery {
    /// A credential key's COSE_Key as sent, or in one of two broken encodings.
    enum KeyEncoding {
        /// CTAP2 canonical (kty, alg, crv, x, y).
        case canonical
        /// The same members with alg before kty: valid CBOR, not CTAP2 canonical.
        case algorithmFirst
        /// alg written twice (a map with a duplicate key).
        case duplicateAlgorithm
    }

    /// The COSE_Key of a P-256 ES256 public key, encoded as `encoding` says.
    static func es256Key(
        _ key: PublicKey, _ encoding: KeyEncoding
    ) throws -> [UInt8] {
        let point = try key.uncompressedPoint
        let x = Array(point[1..<33])
        let y = Array(point[33...])
        var writer = CBORWriter()
        let members: [(Int, (inout CBORWriter) -> Void)] = [
            (1, { $0.writeInt(2) }), (3, { $0.writeInt(-7) }), (-1, { $0.writeInt(1) }),
            (-2, { $0.writeByteString(x) }), (-3, { $0.writeByteString(y) }),
        ]
        var order = [0, 1, 2, 3, 4]
        switch encoding {
        case .canonical: break
        case .algorithmFirst: order = [1, 0, 2, 3, 4]
        case .duplicateAlgorithm: order = [0, 1, 1, 2, 3, 4]
        }
        writer.writeMapHeader(count: order.count)
        for index in order {
            writer.writeInt(members[index].0)
            members[index].1(&writer)
        }
        return writer.bytes
    }

    /// Authenticator data bytes: rpIdHash ‖ flags ‖ signCount [‖ attested credential data].
    static func authenticatorData(
        rpID: String, flags: UInt8, signCount: UInt32,
        attested: (aaguid: AAGUID, credentialId: [UInt8], key: [UInt8])? = nil
    ) throws(CryptoError) -> [UInt8] {
        var bytes = DigestAlgorithm.sha256.hash(rpID.utf8)
        bytes.append(flags)
        bytes += bigEndian(UInt64(signCount), width: 4)
        if let attested {
            bytes += attested.aaguid.bytes
            bytes += bigEndian(UInt64(attested.credentialId.count), width: 2)
            bytes += attested.credentialId
            bytes += attested.key
        }
        return bytes
    }

    /// A packed self-attestation object over `authenticatorData` as given, signed by `key`;
    /// with `flipSignatureBit`, bit 0 of the signature's middle byte is flipped afterwards.
    static func packedSelfAttestationObject(
        authenticatorData: [UInt8], clientDataJSON: [UInt8], key: PrivateKey,
        algorithm: COSEAlgorithm, flipSignatureBit: Bool = false
    ) throws -> [UInt8] {
        // A packed self-attestation signature is computed exactly as an assertion's.
        let signature = try assertionSignature(
            authenticatorData: authenticatorData, clientDataJSON: clientDataJSON, key: key,
            algorithm: algorithm, flipSignatureBit: flipSignatureBit)
        var writer = CBORWriter()
        writer.writeMapHeader(count: 3)
        writer.writeTextString("fmt")
        writer.writeTextString("packed")
        writer.writeTextString("attStmt")
        writer.writeMapHeader(count: 2)
        writer.writeTextString("alg")
        writer.writeInt(algorithm.rawValue)
        writer.writeTextString("sig")
        writer.writeByteString(signature)
        writer.writeTextString("authData")
        writer.writeByteString(authenticatorData)
        return writer.bytes
    }

    /// An assertion signature over `authenticatorData` and clientDataJSON's hash; with
    /// `flipSignatureBit`, bit 0 of its middle byte is flipped afterwards.
    static func assertionSignature(
        authenticatorData: [UInt8], clientDataJSON: [UInt8], key: PrivateKey,
        algorithm: COSEAlgorithm, flipSignatureBit: Bool = false
    ) throws -> [UInt8] {
        var signature = try key.signature(
            for: authenticatorData, DigestAlgorithm.sha256.hash(clientDataJSON),
            algorithm: algorithm, nonce: .reproducible)
        if flipSignatureBit { signature[signature.count / 2] ^= 0x01 }
        return signature
    }

    private static func bigEndian(_ value: UInt64, width: Int) -> [UInt8] {
        (0..<width).reversed().map { UInt8(truncatingIfNeeded: value >> (8 * UInt64($0))) }
    }
}
