import Fido2CBOR
import Fido2Crypto
import Fido2WebAuthnWire

/// The two encodings a new credential's public key needs, the COSE_Key for the attested
/// credential data and the SubjectPublicKeyInfo for `response.publicKey`, written by hand from
/// one export of the key for EC and EdDSA keys: OpenSSL 3's SPKI encoder looks its encoders up
/// on every call, which costs several signatures. RSA keys use the crypto module's encoders.
enum CredentialPublicKeyEncoding {
    /// The DER in front of the key bytes in an SPKI, per key kind.
    private static func spkiPrefix(_ kind: KeyKind) -> [UInt8]? {
        if kind == .p256 {
            return [
                0x30, 0x59, 0x30, 0x13, 0x06, 0x07, 0x2a, 0x86, 0x48, 0xce, 0x3d, 0x02, 0x01, 0x06,
                0x08, 0x2a, 0x86, 0x48, 0xce, 0x3d, 0x03, 0x01, 0x07, 0x03, 0x42, 0x00,
            ]
        }
        if kind == .p384 {
            return [
                0x30, 0x76, 0x30, 0x10, 0x06, 0x07, 0x2a, 0x86, 0x48, 0xce, 0x3d, 0x02, 0x01, 0x06,
                0x05, 0x2b, 0x81, 0x04, 0x00, 0x22, 0x03, 0x62, 0x00,
            ]
        }
        if kind == .p521 {
            return [
                0x30, 0x81, 0x9b, 0x30, 0x10, 0x06, 0x07, 0x2a, 0x86, 0x48, 0xce, 0x3d, 0x02, 0x01,
                0x06, 0x05, 0x2b, 0x81, 0x04, 0x00, 0x23, 0x03, 0x81, 0x86, 0x00,
            ]
        }
        if kind == .ed25519 {
            return [0x30, 0x2a, 0x30, 0x05, 0x06, 0x03, 0x2b, 0x65, 0x70, 0x03, 0x21, 0x00]
        }
        if kind == .ed448 {
            return [0x30, 0x43, 0x30, 0x05, 0x06, 0x03, 0x2b, 0x65, 0x71, 0x03, 0x3a, 0x00]
        }
        return nil
    }

    /// The CTAP2 canonical COSE_Key (no `kid`) and the DER SPKI of `key`.
    static func encode(_ key: COSEKey) throws -> (cose: [UInt8], spki: [UInt8]) {
        let publicKey = key.publicKey
        let kind = publicKey.kind
        guard let prefix = spkiPrefix(kind), let curve = kind.coseCurve else {
            return (try key.cborEncoded, try publicKey.spkiDER)
        }
        let raw = kind.isEdDSA ? try publicKey.rawEdDSAPublicKey : try publicKey.uncompressedPoint
        let alg = Int64(key.algorithm.rawValue)
        let crv = Int64(curve.rawValue)
        let cose: [UInt8]
        if kind.isEdDSA {
            // {1: 1 (OKP), 3: alg, -1: crv, -2: x}
            let size =
                1 + 2 + 1 + CBORSize.int(alg) + 1 + CBORSize.int(crv) + 1
                + CBORSize.string(count: raw.count)
            cose = CBORBufferWriter.encode(byteCount: size) { writer in
                writer.writeMapHeader(count: 4)
                writer.writeInt(1)
                writer.writeInt(1)
                writer.writeInt(3)
                writer.writeInt(alg)
                writer.writeInt(-1)
                writer.writeInt(crv)
                writer.writeInt(-2)
                writer.writeByteString(raw)
            }
        } else {
            // {1: 2 (EC2), 3: alg, -1: crv, -2: x, -3: y}
            let width = (raw.count - 1) / 2
            let size =
                1 + 2 + 1 + CBORSize.int(alg) + 1 + CBORSize.int(crv)
                + 2 * (1 + CBORSize.string(count: width))
            cose = CBORBufferWriter.encode(byteCount: size) { writer in
                writer.writeMapHeader(count: 5)
                writer.writeInt(1)
                writer.writeInt(2)
                writer.writeInt(3)
                writer.writeInt(alg)
                writer.writeInt(-1)
                writer.writeInt(crv)
                writer.writeInt(-2)
                writer.writeByteString(raw[1...width])
                writer.writeInt(-3)
                writer.writeByteString(raw[(width + 1)...])
            }
        }
        var spki = prefix
        spki.reserveCapacity(prefix.count + raw.count)
        spki.append(contentsOf: raw)
        return (cose, spki)
    }
}
