import COpenSSL
import Fido2Encoding

/// JSON Web Key (RFC 7517, RFC 7518 §6, RFC 8037) reading and writing for ``PublicKey`` and
/// ``PrivateKey``, on `Fido2Encoding`'s strict JSON reader and writer.
///
/// Reading is strict: members must have the right JSON types, base64url must be unpadded and
/// canonical, EC coordinates and private scalars must have exactly the curve's length, RSA
/// integers must be minimal (no leading zero octet), and an `alg`, when present, must be a
/// signature algorithm that fits the key. Writing puts members in lexicographic order, so a
/// public JWK without `alg` is exactly the RFC 7638 thumbprint input.
enum JWKCodec {
    // MARK: Reading

    /// The members of a JWK object, with typed access.
    struct Members {
        let object: JSONObject

        init(_ value: JSONValue) throws(CryptoError) {
            guard let object = value.objectValue else {
                throw CryptoError(.invalidJWK, "a JWK is a JSON object")
            }
            self.object = object
        }

        func string(_ name: String) throws(CryptoError) -> String? {
            guard let value = object[name] else { return nil }
            guard let text = value.stringValue else {
                throw CryptoError(.invalidJWK, "JWK member \(name) must be a string", field: name)
            }
            return text
        }

        func requiredString(_ name: String) throws(CryptoError) -> String {
            guard let text = try string(name) else {
                throw CryptoError(.missingMember, "JWK has no \(name)", field: name)
            }
            return text
        }

        /// A base64url member (unpadded), or nil when absent.
        func bytes(_ name: String) throws(CryptoError) -> [UInt8]? {
            guard let text = try string(name) else { return nil }
            guard !text.utf8.contains(UInt8(ascii: "=")) else {
                throw CryptoError(
                    .invalidJWK, "JWK member \(name) is padded base64url", field: name)
            }
            do {
                return try Base64URL.decode(text)
            } catch {
                throw CryptoError(.invalidJWK, "JWK member \(name): \(error)", field: name)
            }
        }

        func requiredBytes(_ name: String) throws(CryptoError) -> [UInt8] {
            guard let bytes = try bytes(name) else {
                throw CryptoError(.missingMember, "JWK has no \(name)", field: name)
            }
            return bytes
        }

        /// A Base64urlUInt member (RFC 7518 §2): non-empty, no leading zero octet.
        func requiredUnsigned(_ name: String) throws(CryptoError) -> [UInt8] {
            let bytes = try requiredBytes(name)
            guard let first = bytes.first, first != 0 || bytes.count == 1 else {
                throw CryptoError(
                    .invalidJWK, "JWK member \(name) is not a minimal unsigned integer", field: name
                )
            }
            return bytes
        }

        /// The kind named by kty and crv.
        func kind() throws(CryptoError) -> (KeyKind?, keyType: String) {
            let keyType = try requiredString("kty")
            switch keyType {
            case "EC":
                let curve = try requiredString("crv")
                switch curve {
                case "P-256": return (.p256, keyType)
                case "P-384": return (.p384, keyType)
                case "P-521": return (.p521, keyType)
                case "secp256k1": return (.secp256k1, keyType)
                default:
                    throw CryptoError(
                        .unsupportedKeyType, "EC curve \(curve) is not supported", field: "crv")
                }
            case "OKP":
                let curve = try requiredString("crv")
                switch curve {
                case "Ed25519": return (.ed25519, keyType)
                case "Ed448": return (.ed448, keyType)
                default:
                    throw CryptoError(
                        .unsupportedKeyType, "OKP curve \(curve) is not supported", field: "crv")
                }
            case "RSA":
                return (nil, keyType)
            default:
                throw CryptoError(
                    .unsupportedKeyType, "JWK key type \(keyType) is not supported", field: "kty")
            }
        }

        /// Checks an `alg` member, when present, against the key.
        func checkAlgorithm(for kind: KeyKind) throws(CryptoError) {
            guard let name = try string("alg") else { return }
            guard let algorithm = COSEAlgorithm(joseName: name) else {
                throw CryptoError(
                    .unsupportedAlgorithm, "JWK alg \(name) is not supported", field: "alg")
            }
            guard algorithm.isCompatible(with: kind) else {
                throw CryptoError(
                    .algorithmKeyMismatch, "JWK alg \(name) does not fit a \(kind) key",
                    field: "alg")
            }
        }
    }

    static func members(of text: String) throws(CryptoError) -> Members {
        let value: JSONValue
        do throws {
            value = try JSONValue(parsing: text)
        } catch {
            throw CryptoError(.invalidJWK, "JWK JSON: \(error)")
        }
        return try Members(value)
    }

    static func publicKey(_ members: Members) throws -> PublicKey {
        if members.object["d"] != nil {
            throw CryptoError(
                .invalidJWK, "JWK carries private key material; read it as a PrivateKey",
                field: "d")
        }
        let (kind, _) = try members.kind()
        let key: PublicKey
        if let kind {
            if kind.isEdDSA {
                key = try PublicKey(rawEdDSAPublicKey: members.requiredBytes("x"), kind: kind)
            } else {
                key = try PublicKey(
                    x: members.requiredBytes("x"), y: members.requiredBytes("y"), kind: kind)
            }
        } else {
            key = try PublicKey(
                rsaModulus: members.requiredUnsigned("n"), exponent: members.requiredUnsigned("e"))
        }
        try members.checkAlgorithm(for: key.kind)
        return key
    }

    static func privateKey(_ members: Members) throws -> PrivateKey {
        let (kind, _) = try members.kind()
        guard members.object["d"] != nil else {
            throw CryptoError(.missingMember, "JWK has no d (private key)", field: "d")
        }
        let key: PrivateKey
        if let kind {
            var d = try members.requiredBytes("d")
            defer { SecureBytes.wipe(&d) }
            let stated: PublicKey
            if kind.isEdDSA {
                key = try PrivateKey(rawEdDSAPrivateKey: d, kind: kind)
                stated = try PublicKey(rawEdDSAPublicKey: members.requiredBytes("x"), kind: kind)
            } else {
                guard d.count == kind.coordinateByteCount else {
                    throw CryptoError(
                        .invalidLength,
                        "\(kind) d must be \(kind.coordinateByteCount ?? 0) bytes, not \(d.count)",
                        field: "d")
                }
                key = try PrivateKey(rawScalar: d, kind: kind)
                stated = try PublicKey(
                    x: members.requiredBytes("x"), y: members.requiredBytes("y"), kind: kind)
            }
            guard try key.publicKey == stated else {
                throw CryptoError(
                    .invalidPrivateKey, "JWK public members do not match its private key",
                    field: "x")
            }
        } else {
            key = try rsaPrivateKey(members)
        }
        try members.checkAlgorithm(for: key.kind)
        return key
    }

    private static func rsaPrivateKey(_ members: Members) throws(CryptoError) -> PrivateKey {
        if members.object["oth"] != nil {
            throw CryptoError(
                .unsupportedKeyType, "multi-prime RSA keys (oth) are not supported", field: "oth")
        }
        var numbers: [(StaticString, OpaquePointer)] = []
        defer { for (_, number) in numbers { BN_clear_free(number) } }
        func add(_ parameter: StaticString, _ member: String) throws(CryptoError) {
            var bytes = try members.requiredUnsigned(member)
            defer { SecureBytes.wipe(&bytes) }
            guard bytes.count <= 1024 else {
                throw CryptoError(.keySizeNotAllowed, "JWK \(member) is too long", field: member)
            }
            numbers.append((parameter, try BigNumber.make(bytes, secure: true)))
        }
        try add("n", "n")
        try add("e", "e")
        try add("d", "d")
        let crt: [(StaticString, String)] = [
            ("rsa-factor1", "p"), ("rsa-factor2", "q"), ("rsa-exponent1", "dp"),
            ("rsa-exponent2", "dq"), ("rsa-coefficient1", "qi"),
        ]
        let present = crt.filter { members.object[$0.1] != nil }
        if !present.isEmpty {
            guard present.count == crt.count else {
                let missing = crt.first { members.object[$0.1] == nil }?.1 ?? "p"
                throw CryptoError(
                    .missingMember, "JWK has some RSA CRT members but not \(missing)",
                    field: missing)
            }
            for (parameter, member) in crt { try add(parameter, member) }
            // n = p·q, or the CRT members describe another key.
            guard let context = BN_CTX_new(), let product = BN_new() else {
                throw CryptoError.openSSL("BN_new failed")
            }
            defer {
                BN_CTX_free(context)
                BN_free(product)
            }
            guard BN_mul(product, numbers[3].1, numbers[4].1, context) == 1 else {
                throw CryptoError.openSSL("BN_mul failed")
            }
            guard BN_cmp(product, numbers[0].1) == 0 else {
                throw CryptoError(.invalidPrivateKey, "JWK p·q is not n", field: "p")
            }
        }
        let bits = Int(BN_num_bits(numbers[0].1))
        guard KeyKind.allowedRSAModulusBits.contains(bits) else {
            throw CryptoError(
                .keySizeNotAllowed, "RSA modulus of \(bits) bits is outside 2048...4096", field: "n"
            )
        }
        let key = try RSAKeyBuilder.build(numbers, selection: fido2_evp_pkey_keypair)
        return PrivateKey(box: PKeyBox(taking: key, kind: .rsa(modulusBits: bits)))
    }

    // MARK: Writing

    /// The members of the public JWK in lexicographic order.
    static func publicMembers(_ key: PublicKey) throws -> [(String, JSONValue)] {
        let kind = key.kind
        switch kind.storage {
        case .p256, .p384, .p521, .secp256k1:
            let point = try key.uncompressedPoint
            let width = (point.count - 1) / 2
            return [
                ("crv", .string(kind.description)), ("kty", "EC"),
                ("x", .string(Base64URL.encode(point[1...width]))),
                ("y", .string(Base64URL.encode(point[(1 + width)...]))),
            ]
        case .ed25519, .ed448:
            return [
                ("crv", .string(kind.description)), ("kty", "OKP"),
                ("x", .string(Base64URL.encode(try key.rawEdDSAPublicKey))),
            ]
        case .rsa:
            return [
                ("e", .string(Base64URL.encode(try key.rsaExponent))), ("kty", "RSA"),
                ("n", .string(Base64URL.encode(try key.rsaModulus))),
            ]
        }
    }

    /// The members of the private JWK in lexicographic order.
    static func privateMembers(_ key: PrivateKey) throws -> [(String, JSONValue)] {
        var members = try publicMembers(key.publicKey)
        func secret(_ bytes: inout [UInt8]) -> JSONValue {
            defer { SecureBytes.wipe(&bytes) }
            return .string(Base64URL.encode(bytes))
        }
        switch key.kind.storage {
        case .p256, .p384, .p521, .secp256k1:
            var d = try key.rawScalar
            members.append(("d", secret(&d)))
        case .ed25519, .ed448:
            var d = try key.rawEdDSAPrivateKey
            members.append(("d", secret(&d)))
        case .rsa:
            var d = try KeyInspection.bigNumber("d", of: key.box.pointer)
            members.append(("d", secret(&d)))
            let crt: [(String, StaticString)] = [
                ("p", "rsa-factor1"), ("q", "rsa-factor2"), ("dp", "rsa-exponent1"),
                ("dq", "rsa-exponent2"), ("qi", "rsa-coefficient1"),
            ]
            for (member, parameter) in crt {
                // Keys built from n, e and d alone have no CRT parameters.
                guard var value = try? KeyInspection.bigNumber(parameter, of: key.box.pointer)
                else {
                    OpenSSLErrorQueue.clear()
                    break
                }
                members.append((member, secret(&value)))
            }
        }
        return members.sorted { $0.0 < $1.0 }
    }

    /// A JWK object from members, with `alg` added (in order) when given.
    static func object(
        _ members: [(String, JSONValue)], algorithm: COSEAlgorithm?, kind: KeyKind
    )
        throws(CryptoError) -> JSONValue
    {
        var all = members
        if let algorithm {
            guard let name = algorithm.joseName else {
                throw CryptoError(
                    .unsupportedAlgorithm, "\(algorithm) has no JOSE name", field: "alg")
            }
            guard algorithm.isCompatible(with: kind) else {
                throw CryptoError(
                    .algorithmKeyMismatch, "\(algorithm) does not fit a \(kind) key", field: "alg")
            }
            all.append(("alg", .string(name)))
            all.sort { $0.0 < $1.0 }
        }
        return .object(JSONObject(all.map { JSONMember($0.0, $0.1) }))
    }
}
