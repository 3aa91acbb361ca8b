import Fido2Crypto
import Fido2Encoding

/// `cose-keys.json` (cose-wg/Examples keys with re-made encodings): each key imports from its
/// WebAuthn-style COSE encoding and from SPKI, exports back to both byte for byte, and the two
/// imports are the same key; the components the file lists (the uncompressed point and x, y;
/// the raw EdDSA key; the RSA modulus and exponent) are the key's, and its private key (where
/// given) derives it. The plain cose-wg encoding (a kid, no alg) is refused as missing alg,
/// because WebAuthn requires alg.
package struct COSEKeysSuite: VectorSuite {
    package let name: String
    private let keys: [JSONObject]

    package init?(name: String, json: JSONValue) {
        guard let keys = json["keys"]?.arrayValue?.compactMap(\.objectValue), !keys.isEmpty,
            keys.allSatisfy({
                $0["webauthn_style_cose_key_cbor_hex"] != nil && $0["spki_der_hex"] != nil
            })
        else { return nil }
        self.name = name
        self.keys = keys
    }

    package func run() -> [VectorCaseResult] {
        keys.map { key in
            let id =
                "\(key["kty_name"]?.stringValue ?? "?") \(key["crv_name"]?.stringValue ?? "") kid \(key["kid"]?.stringValue ?? "?")"
            return .check(id, Self.failure(of: key))
        }
    }

    private static func bytes(_ key: JSONObject, _ member: String) -> [UInt8]? {
        key[member]?.stringValue.flatMap { try? Hex.decode($0) }
    }

    private static func failure(of key: JSONObject) -> String? {
        guard let cose = bytes(key, "webauthn_style_cose_key_cbor_hex"),
            let spki = bytes(key, "spki_der_hex"),
            let plain = bytes(key, "cose_key_public_cbor_hex")
        else { return "malformed key entry" }
        do {
            let fromCOSE = try COSEKey(cborEncoded: cose)
            if Int64(fromCOSE.algorithm.rawValue) != key["webauthn_style_alg"]?.int64Value {
                return
                    "algorithm \(fromCOSE.algorithm), expected \(key["webauthn_style_alg"]?.description ?? "?")"
            }
            if try fromCOSE.cborEncoded != cose { return "COSE re-encoding differs" }
            let fromSPKI = try PublicKey(spkiDER: spki)
            if try fromSPKI.spkiDER != spki { return "SPKI re-encoding differs" }
            if try fromCOSE.publicKey.spkiDER != spki { return "the COSE key's SPKI differs" }
            if fromSPKI != fromCOSE.publicKey { return "COSE and SPKI describe different keys" }
            if try COSEKey(publicKey: fromSPKI, algorithm: fromCOSE.algorithm).cborEncoded != cose {
                return "COSE encoding made from the SPKI key differs"
            }
            if let wrong = try componentFailure(of: key, fromSPKI) { return wrong }
        } catch {
            return "\(error)"
        }
        do {
            _ = try COSEKey(cborEncoded: plain)
            return "a COSE key without alg was accepted"
        } catch let error as CryptoError where error.code == .missingMember && error.field == "alg"
        {
            return nil
        } catch {
            return "a COSE key without alg was refused with \(error), not as missing alg"
        }
    }

    /// Where the components the entry lists are not `publicKey`'s, or nil.
    private static func componentFailure(
        of key: JSONObject, _ publicKey: PublicKey
    ) throws -> String? {
        if let point = bytes(key, "uncompressed_point_hex") {
            if try publicKey.uncompressedPoint != point { return "uncompressed point differs" }
            guard let x = bytes(key, "x"), let y = bytes(key, "y") else { return "x or y missing" }
            if try PublicKey(x: x, y: y, kind: publicKey.kind) != publicKey {
                return "the key from x and y differs"
            }
        }
        if publicKey.kind.isEdDSA, let x = bytes(key, "x"), try publicKey.rawEdDSAPublicKey != x {
            return "raw EdDSA key differs"
        }
        if let n = bytes(key, "n"), let e = bytes(key, "e"),
            try publicKey.rsaModulus != n || publicKey.rsaExponent != e
        {
            return "RSA modulus or exponent differs"
        }
        if let d = bytes(key, "d") {
            let privateKey =
                publicKey.kind.isEdDSA
                ? try PrivateKey(rawEdDSAPrivateKey: d, kind: publicKey.kind)
                : try PrivateKey(rawScalar: d, kind: publicKey.kind)
            if try privateKey.publicKey != publicKey {
                return "the private key d derives another key"
            }
        }
        return nil
    }
}
