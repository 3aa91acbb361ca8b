/// The one error type of `Fido2Crypto`: what went wrong, where (a field name when one applies),
/// and, when OpenSSL reported the failure, the text of OpenSSL's error queue.
///
/// Match on ``code``; the ``reason`` is for people and may change between releases.
public struct CryptoError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The kind of failure. New codes may be added; switch with a `default` case.
    public struct Code: Hashable, Sendable, CustomStringConvertible {
        private enum Kind: String, Hashable, Sendable {
            case unsupportedAlgorithm = "unsupported algorithm"
            case unsupportedKeyType = "unsupported key type"
            case unsupportedOperation = "unsupported operation"
            case algorithmKeyMismatch = "algorithm does not match the key"
            case invalidLength = "invalid length"
            case invalidPublicKey = "invalid public key"
            case invalidPrivateKey = "invalid private key"
            case keySizeNotAllowed = "key size not allowed"
            case invalidKeyEncoding = "invalid key encoding"
            case invalidPEM = "invalid PEM"
            case invalidSignatureEncoding = "invalid signature encoding"
            case invalidCOSEKey = "invalid COSE key"
            case missingMember = "missing member"
            case invalidJWK = "invalid JWK"
            case invalidArgument = "invalid argument"
            case randomGenerationFailed = "random generation failed"
            case openSSLFailure = "OpenSSL failure"
        }

        private let kind: Kind
        private init(_ kind: Kind) { self.kind = kind }

        /// The algorithm is unknown to this library or not available in OpenSSL 3.0 (ML-DSA, for
        /// example), or it cannot be used for the requested operation (signing with RS1).
        public static let unsupportedAlgorithm = Code(.unsupportedAlgorithm)
        /// The key's type or curve is not one this library handles (secp256k1, X25519, DSA, …).
        public static let unsupportedKeyType = Code(.unsupportedKeyType)
        /// The operation is not available for this kind of key (deterministic RSA generation, …).
        public static let unsupportedOperation = Code(.unsupportedOperation)
        /// The algorithm cannot be used with this key (ES256 with a P-384 key, RS256 with an EC
        /// key), or a COSE key's `kty`, `crv` and `alg` disagree.
        public static let algorithmKeyMismatch = Code(.algorithmKeyMismatch)
        /// A coordinate, raw key, scalar, signature or output has the wrong number of bytes.
        public static let invalidLength = Code(.invalidLength)
        /// A public key is not a valid point: off the curve, at infinity, or malformed.
        public static let invalidPublicKey = Code(.invalidPublicKey)
        /// A private key is out of range or inconsistent (scalar 0 or ≥ n, RSA primes, …).
        public static let invalidPrivateKey = Code(.invalidPrivateKey)
        /// An RSA modulus is outside the range the initializer admits (2048–4096 bits unless the
        /// initializer's name says `unsafe`).
        public static let keySizeNotAllowed = Code(.keySizeNotAllowed)
        /// DER (SubjectPublicKeyInfo, PKCS#8) is malformed, truncated or has trailing bytes.
        public static let invalidKeyEncoding = Code(.invalidKeyEncoding)
        /// PEM text is malformed or carries the wrong label.
        public static let invalidPEM = Code(.invalidPEM)
        /// An ECDSA signature is not strict DER or not a raw r‖s of the curve's width.
        public static let invalidSignatureEncoding = Code(.invalidSignatureEncoding)
        /// A COSE_Key is not well formed CBOR of the expected shape or has a member of the wrong
        /// type or value.
        public static let invalidCOSEKey = Code(.invalidCOSEKey)
        /// A required member of a COSE key or JWK is absent.
        public static let missingMember = Code(.missingMember)
        /// A JSON Web Key is malformed or inconsistent.
        public static let invalidJWK = Code(.invalidJWK)
        /// An argument is outside what the function accepts (an output length, a count, …).
        public static let invalidArgument = Code(.invalidArgument)
        /// The random source failed to produce bytes.
        public static let randomGenerationFailed = Code(.randomGenerationFailed)
        /// OpenSSL failed in a way the input does not explain (allocation, provider failure).
        public static let openSSLFailure = Code(.openSSLFailure)

        /// The code's name, such as `"unsupported algorithm"`.
        public var description: String { kind.rawValue }
    }

    /// What kind of failure this is.
    public let code: Code
    /// A sentence for people saying what was wrong.
    public let reason: String
    /// The member or field the failure is about (`"x"`, `"kty"`, `"-2"`, …), when there is one.
    public let field: String?
    /// The text of the OpenSSL error queue at the time of the failure, oldest first; empty when
    /// OpenSSL reported nothing.
    public let openSSLErrors: [String]

    /// Makes an error; `field` names the member at fault, if any.
    public init(_ code: Code, _ reason: String, field: String? = nil, openSSLErrors: [String] = [])
    {
        self.code = code
        self.reason = reason
        self.field = field
        self.openSSLErrors = openSSLErrors
    }

    /// `"<code>: <reason> (field f) [OpenSSL: …]"`.
    public var description: String {
        var text = "\(code): \(reason)"
        if let field { text += " (field \(field))" }
        if !openSSLErrors.isEmpty { text += " [OpenSSL: \(openSSLErrors.joined(separator: "; "))]" }
        return text
    }
}

extension CryptoError {
    /// An error that carries (and thereby drains) the current thread's OpenSSL error queue.
    static func openSSL(_ code: Code, _ reason: String, field: String? = nil) -> CryptoError {
        CryptoError(code, reason, field: field, openSSLErrors: OpenSSLErrorQueue.drain())
    }

    /// An ``Code-swift.struct/openSSLFailure`` carrying the drained OpenSSL error queue.
    static func openSSL(_ reason: String) -> CryptoError {
        openSSL(.openSSLFailure, reason)
    }
}
