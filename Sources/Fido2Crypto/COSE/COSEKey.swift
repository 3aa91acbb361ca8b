import Fido2CBOR

/// A COSE_Key (RFC 9052 §7, RFC 9053, RFC 8230) holding a public key and the algorithm it is
/// used with: the `credentialPublicKey` of WebAuthn authenticator data.
///
/// Parsing is strict and validating: the CBOR must be CTAP2 canonical (by default), `kty`,
/// `alg` and (for EC2 and OKP) `crv` must be present and agree, coordinates must have exactly
/// the curve's length, and the point must be on the curve. Encoding writes the CTAP2 canonical
/// form WebAuthn authenticators produce, with no `kid`: EC2 `{1, 3, -1, -2, -3}`, OKP
/// `{1, 3, -1, -2}`, RSA `{1, 3, -1, -2}`.
public struct COSEKey: Sendable, Equatable {
    /// The algorithm the key is for (`alg`, label 3).
    public let algorithm: COSEAlgorithm
    /// The key itself.
    public let publicKey: PublicKey

    /// Pairs a key with an algorithm.
    ///
    /// - Throws: ``CryptoError/Code-swift.struct/unsupportedAlgorithm`` for an algorithm this
    ///   library does not implement; ``CryptoError/Code-swift.struct/algorithmKeyMismatch`` when
    ///   the algorithm does not fit the key.
    public init(publicKey: PublicKey, algorithm: COSEAlgorithm) throws {
        _ = try algorithm.requireScheme()
        guard algorithm.isCompatible(with: publicKey.kind) else {
            throw CryptoError(
                .algorithmKeyMismatch, "\(algorithm) does not fit a \(publicKey.kind) key",
                field: "alg")
        }
        self.algorithm = algorithm
        self.publicKey = publicKey
    }

    // MARK: Decoding

    private enum Label {
        static let kty: Int64 = 1
        static let kid: Int64 = 2
        static let alg: Int64 = 3
        static let crvOrN: Int64 = -1
        static let xOrE: Int64 = -2
        static let yOrD: Int64 = -3
        /// d of an EC2 or OKP key; p of an RSA key.
        static let privateEC: Int64 = -4
        /// The last RSA private member label (qInv is -8, other/r_i/d_i/t_i run to -12).
        static let lastRSAPrivate: Int64 = -12
    }

    /// Parses an encoded COSE_Key; the input must be exactly one CBOR map.
    ///
    /// Members other than kty, kid, alg and the key parameters (crv, x, y; n, e) are ignored.
    /// Private key members (`d`, RSA primes) are refused.
    ///
    /// - Parameters:
    ///   - bytes: the encoded COSE_Key.
    ///   - options: how strictly the CBOR is checked; the default, `.strict`, demands CTAP2
    ///     canonical encoding (shortest heads, definite lengths, canonical key order, unique
    ///     keys, no trailing bytes).
    /// - Throws: ``CryptoError/Code-swift.struct/invalidCOSEKey`` for CBOR that is malformed or
    ///   not canonical, or a member of the wrong type;
    ///   ``CryptoError/Code-swift.struct/missingMember`` when kty, alg, crv or a coordinate is
    ///   absent; ``CryptoError/Code-swift.struct/unsupportedAlgorithm`` for an unknown `alg`
    ///   (ML-DSA -48/-49/-50, …); ``CryptoError/Code-swift.struct/unsupportedKeyType`` for an
    ///   unknown `kty` or `crv`; ``CryptoError/Code-swift.struct/algorithmKeyMismatch`` when
    ///   kty, crv and alg disagree; ``CryptoError/Code-swift.struct/invalidLength`` for a
    ///   coordinate of the wrong length; ``CryptoError/Code-swift.struct/invalidPublicKey`` for
    ///   a point that is not on the curve; ``CryptoError/Code-swift.struct/keySizeNotAllowed``
    ///   for RSA outside 2048–4096 bits.
    public init(
        cborEncoded bytes: ArraySlice<UInt8>, options: CBORDecodingOptions = .strict
    )
        throws
    {
        var noTrailing = options
        noTrailing.checks.insert(.noTrailingBytes)
        var reader = try cbor { () throws in try CBORReader(bytes, options: noTrailing) }
        guard try cbor({ () throws in try reader.peekMajorType() }) == .map else {
            throw CryptoError(.invalidCOSEKey, "a COSE_Key is a CBOR map")
        }
        let count = try cbor { () throws in try reader.readMapHeader() }
        var members = Members()
        for _ in 0..<count {
            try members.read(from: &reader)
        }
        (algorithm, publicKey) = try members.validated()
    }

    /// Parses an encoded COSE_Key; see ``init(cborEncoded:options:)-(ArraySlice<UInt8>,_)``.
    ///
    /// - Throws: as ``init(cborEncoded:options:)-(ArraySlice<UInt8>,_)``.
    public init(
        cborEncoded bytes: [UInt8], options: CBORDecodingOptions = .strict
    )
        throws
    {
        try self.init(cborEncoded: bytes[...], options: options)
    }

    /// The members of a COSE_Key as read, before validation.
    private struct Members {
        var kty: Int64?
        var alg: Int64?
        var crvOrN: CBORValue?
        var xOrE: CBORValue?
        var yOrD: CBORValue?
        /// Whether label -4 (EC2/OKP d, RSA p) is present.
        var hasMinusFour = false
        /// Whether an RSA private member below -4 (-5 … -12) is present.
        var hasRSAPrivateMember = false

        mutating func read(from reader: inout CBORReader) throws(CryptoError) {
            let type = try cbor { () throws in try reader.peekMajorType() }
            if type == .textString {
                try cbor { () throws in
                    _ = try reader.readTextStringBytes()
                    try reader.skipItem()
                }
                return
            }
            guard type == .unsigned || type == .negative else {
                throw CryptoError(.invalidCOSEKey, "COSE_Key labels are integers or text")
            }
            let label = try Self.integer(&reader, field: "label")
            switch label {
            case Label.kty: kty = try Self.integer(&reader, field: "kty")
            case Label.alg: alg = try Self.integer(&reader, field: "alg")
            case Label.crvOrN: crvOrN = try cbor { () throws in try reader.readValue() }
            case Label.xOrE: xOrE = try cbor { () throws in try reader.readValue() }
            case Label.yOrD: yOrD = try cbor { () throws in try reader.readValue() }
            case Label.kid:
                guard
                    try cbor({ () throws in try reader.peekMajorType() }) == .byteString
                else {
                    throw CryptoError(.invalidCOSEKey, "kid must be a byte string", field: "kid")
                }
                try cbor { () throws in try reader.skipItem() }
            default:
                // -4 is d for EC2/OKP and p for RSA; -5 … -12 are further RSA private members.
                // Which of them matter depends on kty, decided in validation.
                if label == Label.privateEC { hasMinusFour = true }
                if (Label.lastRSAPrivate..<Label.privateEC).contains(label) {
                    hasRSAPrivateMember = true
                }
                try cbor { () throws in try reader.skipItem() }
            }
        }

        private static func integer(
            _ reader: inout CBORReader, field: String
        ) throws(CryptoError)
            -> Int64
        {
            do throws {
                return try reader.readInt()
            } catch {
                throw CryptoError(
                    .invalidCOSEKey, "\(field) must be an integer: \(error)", field: field)
            }
        }

        private static func bytes(
            _ value: CBORValue?, field: String
        ) throws(CryptoError)
            -> [UInt8]
        {
            guard let value else {
                throw CryptoError(.missingMember, "COSE_Key has no \(field)", field: field)
            }
            guard case .byteString(let bytes) = value else {
                throw CryptoError(.invalidCOSEKey, "\(field) must be a byte string", field: field)
            }
            return bytes
        }

        func validated() throws -> (COSEAlgorithm, PublicKey) {
            guard let kty else {
                throw CryptoError(.missingMember, "COSE_Key has no kty (label 1)", field: "kty")
            }
            guard let alg else {
                throw CryptoError(.missingMember, "COSE_Key has no alg (label 3)", field: "alg")
            }
            guard let algorithmValue = Int(exactly: alg) else {
                throw CryptoError(
                    .unsupportedAlgorithm, "alg \(alg) is not supported", field: "alg")
            }
            let algorithm = COSEAlgorithm(rawValue: algorithmValue)
            _ = try algorithm.requireScheme()
            let keyType = COSEKeyType(rawValue: Int(truncatingIfNeeded: kty))
            guard Int64(keyType.rawValue) == kty, [.okp, .ec2, .rsa].contains(keyType) else {
                throw CryptoError(.unsupportedKeyType, "kty \(kty) is not supported", field: "kty")
            }
            guard algorithm.keyType == keyType else {
                throw CryptoError(
                    .algorithmKeyMismatch,
                    "\(algorithm) needs kty \(algorithm.keyType.map { "\($0)" } ?? "?"), not \(keyType)",
                    field: "kty")
            }
            if hasMinusFour || (keyType == .rsa && (yOrD != nil || hasRSAPrivateMember)) {
                throw CryptoError(
                    .invalidCOSEKey, "COSE_Key carries private key material", field: "d")
            }
            let publicKey: PublicKey
            switch keyType {
            case .rsa:
                let n = try Self.bytes(crvOrN, field: "n")
                let e = try Self.bytes(xOrE, field: "e")
                publicKey = try PublicKey(rsaModulus: n, exponent: e)
            default:
                guard let crvOrN else {
                    throw CryptoError(
                        .missingMember, "COSE_Key has no crv (label -1)", field: "crv")
                }
                guard let crvValue = crvOrN.int64Value else {
                    throw CryptoError(.invalidCOSEKey, "crv must be an integer", field: "crv")
                }
                let curve = COSECurve(rawValue: Int(truncatingIfNeeded: crvValue))
                guard let kind = curve.keyKind, Int64(curve.rawValue) == crvValue else {
                    throw CryptoError(
                        .unsupportedKeyType, "crv \(crvValue) is not supported", field: "crv")
                }
                guard kind.coseKeyType == keyType else {
                    throw CryptoError(
                        .algorithmKeyMismatch, "curve \(curve) does not belong to kty \(keyType)",
                        field: "crv")
                }
                guard algorithm.isCompatible(with: kind) else {
                    throw CryptoError(
                        .algorithmKeyMismatch, "\(algorithm) cannot be used on \(curve)",
                        field: "crv")
                }
                let x = try Self.bytes(xOrE, field: "x")
                if keyType == .okp {
                    if yOrD != nil {
                        throw CryptoError(
                            .invalidCOSEKey, "OKP keys have no y (label -3)", field: "y")
                    }
                    publicKey = try PublicKey(rawEdDSAPublicKey: x, kind: kind)
                } else {
                    guard let yOrD else {
                        throw CryptoError(
                            .missingMember, "COSE_Key has no y (label -3)", field: "y")
                    }
                    if case .boolean = yOrD {
                        throw CryptoError(
                            .invalidCOSEKey,
                            "compressed EC2 points (y as a sign bit) are not supported",
                            field: "y")
                    }
                    let y = try Self.bytes(yOrD, field: "y")
                    publicKey = try PublicKey(x: x, y: y, kind: kind)
                }
            }
            return (algorithm, publicKey)
        }
    }

    // MARK: Encoding

    /// The CTAP2 canonical encoding (no `kid`), written with one allocation.
    ///
    /// - Throws: ``CryptoError/Code-swift.struct/openSSLFailure`` if the key's parameters cannot
    ///   be read from OpenSSL.
    public var cborEncoded: [UInt8] {
        get throws {
            let kind = publicKey.kind
            let alg = Int64(algorithm.rawValue)
            func intLength(_ value: Int64) -> Int {
                CBORWriter.headLength(for: value >= 0 ? UInt64(value) : UInt64(-1 - value))
            }
            let ktyValue = Int64(kind.coseKeyType.rawValue)
            var size = 1 + (1 + intLength(ktyValue)) + (1 + intLength(alg))
            switch kind.storage {
            case .rsa:
                let n = try publicKey.rsaModulus
                let e = try publicKey.rsaExponent
                size +=
                    2 + CBORWriter.stringLength(count: n.count)
                    + CBORWriter.stringLength(count: e.count)
                var writer = CBORWriter(capacity: size)
                writer.writeMapHeader(count: 4)
                writeHeader(&writer, kty: ktyValue, alg: alg)
                writer.writeInt(Label.crvOrN)
                writer.writeByteString(n)
                writer.writeInt(Label.xOrE)
                writer.writeByteString(e)
                return writer.bytes
            case .ed25519, .ed448:
                let x = try publicKey.rawEdDSAPublicKey
                let crv = Int64(kind.coseCurve?.rawValue ?? 0)
                size += (1 + intLength(crv)) + 1 + CBORWriter.stringLength(count: x.count)
                var writer = CBORWriter(capacity: size)
                writer.writeMapHeader(count: 4)
                writeHeader(&writer, kty: ktyValue, alg: alg)
                writer.writeInt(Label.crvOrN)
                writer.writeInt(crv)
                writer.writeInt(Label.xOrE)
                writer.writeByteString(x)
                return writer.bytes
            case .p256, .p384, .p521, .secp256k1:
                let point = try publicKey.uncompressedPoint
                let width = (point.count - 1) / 2
                let crv = Int64(kind.coseCurve?.rawValue ?? 0)
                size += (1 + intLength(crv)) + 2 * (1 + CBORWriter.stringLength(count: width))
                var writer = CBORWriter(capacity: size)
                writer.writeMapHeader(count: 5)
                writeHeader(&writer, kty: ktyValue, alg: alg)
                writer.writeInt(Label.crvOrN)
                writer.writeInt(crv)
                writer.writeInt(Label.xOrE)
                writer.writeByteString(point[1...width])
                writer.writeInt(Label.yOrD)
                writer.writeByteString(point[(1 + width)...])
                return writer.bytes
            }
        }
    }

    private func writeHeader(_ writer: inout CBORWriter, kty: Int64, alg: Int64) {
        writer.writeInt(Label.kty)
        writer.writeInt(kty)
        writer.writeInt(Label.alg)
        writer.writeInt(alg)
    }
}

/// Runs CBOR reads, turning a ``CBORError`` into an ``CryptoError/Code-swift.struct/invalidCOSEKey``.
private func cbor<R>(_ body: () throws -> R) throws(CryptoError) -> R {
    do {
        return try body()
    } catch {
        throw CryptoError(.invalidCOSEKey, "COSE_Key CBOR: \(error)")
    }
}
