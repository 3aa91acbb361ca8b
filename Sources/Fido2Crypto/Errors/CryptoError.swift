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
            case derTruncated = "DER truncated"
            case derIndefiniteLength = "DER indefinite length"
            case derNonMinimalEncoding = "DER non-minimal encoding"
            case derTrailingBytes = "DER trailing bytes"
            case derLimitExceeded = "DER limit exceeded"
            case derUnexpectedTag = "DER unexpected tag"
            case derInvalidValue = "DER invalid value"
            case invalidCertificate = "invalid certificate"
            case certificateExpired = "certificate expired"
            case certificateNotYetValid = "certificate not yet valid"
            case untrustedCertificate = "untrusted certificate"
            case certificateSignatureInvalid = "certificate signature invalid"
            case certificateConstraintViolation = "certificate constraint violation"
            case unhandledCriticalExtension = "unhandled critical extension"
            case certificateChainInvalid = "certificate chain invalid"
            case invalidRevocationList = "invalid certificate revocation list"
            case certificateRevoked = "certificate revoked"
            case revocationStatusUnknown = "revocation status unknown"
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

        // DER (``DERReader``); ``CryptoError/offset`` says where.

        /// The DER input ends inside an element's tag, length or contents.
        public static let derTruncated = Code(.derTruncated)
        /// A length octet of 0x80 (BER's indefinite form, which DER forbids).
        public static let derIndefiniteLength = Code(.derIndefiniteLength)
        /// A length, high tag number, INTEGER or OBJECT IDENTIFIER sub-identifier encoded with
        /// more octets than needed.
        public static let derNonMinimalEncoding = Code(.derNonMinimalEncoding)
        /// Bytes after the element (or the elements of a constructed value) that had to end there.
        public static let derTrailingBytes = Code(.derTrailingBytes)
        /// Nesting deeper, input larger or a number bigger than the reader admits.
        public static let derLimitExceeded = Code(.derLimitExceeded)
        /// An element with another tag (class, number or constructed bit) than the one expected.
        public static let derUnexpectedTag = Code(.derUnexpectedTag)
        /// Contents that break the rules of their type: a BOOLEAN other than 00/FF, an empty
        /// INTEGER, a malformed time or string, a BIT STRING with bad padding, ….
        public static let derInvalidValue = Code(.derInvalidValue)

        // X.509 (``Certificate``, ``CertificateChainVerifier``); ``CryptoError/depth`` says
        // which certificate of a chain (0 is the leaf).

        /// A certificate that OpenSSL or the DER reader refuses, or whose extension contents
        /// are malformed.
        public static let invalidCertificate = Code(.invalidCertificate)
        /// A certificate of the chain expired before the validation time.
        public static let certificateExpired = Code(.certificateExpired)
        /// A certificate of the chain becomes valid only after the validation time.
        public static let certificateNotYetValid = Code(.certificateNotYetValid)
        /// The chain does not lead to one of the trust anchors.
        public static let untrustedCertificate = Code(.untrustedCertificate)
        /// A certificate's signature does not verify with its issuer's key.
        public static let certificateSignatureInvalid = Code(.certificateSignatureInvalid)
        /// An issuer is not a CA (basicConstraints, keyUsage) or a path length is exceeded.
        public static let certificateConstraintViolation = Code(.certificateConstraintViolation)
        /// A certificate has a critical extension that neither OpenSSL nor the caller handles.
        public static let unhandledCriticalExtension = Code(.unhandledCriticalExtension)
        /// The chain failed for another reason OpenSSL gives (the reason holds its text).
        public static let certificateChainInvalid = Code(.certificateChainInvalid)

        // Revocation (``CertificateRevocationList``, ``RevocationCheck``).

        /// A certificate revocation list that OpenSSL or the DER reader refuses, or whose
        /// structure breaks RFC 5280 §5 (a version other than v2, differing signature
        /// algorithm fields, a repeated extension).
        public static let invalidRevocationList = Code(.invalidRevocationList)
        /// A certificate of the chain is listed as revoked by a valid CRL from its issuer;
        /// ``CryptoError/depth`` says which.
        public static let certificateRevoked = Code(.certificateRevoked)
        /// Revocation checking was asked for, but no usable CRL vouches for a certificate in
        /// scope: none from its issuer was supplied, or the one supplied is expired, not yet
        /// valid, wrongly signed, from an issuer without cRLSign, or otherwise unusable (the
        /// reason holds OpenSSL's text); ``CryptoError/depth`` says which certificate.
        public static let revocationStatusUnknown = Code(.revocationStatusUnknown)

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
    /// The byte offset, from the start of the input, of the DER element or byte at fault.
    public let offset: Int?
    /// The position in a certificate chain (0 is the leaf) of the certificate at fault.
    public let depth: Int?

    /// Makes an error; `field` names the member at fault, `offset` the byte and `depth` the
    /// certificate, if any.
    public init(
        _ code: Code, _ reason: String, field: String? = nil, openSSLErrors: [String] = [],
        offset: Int? = nil, depth: Int? = nil
    ) {
        self.code = code
        self.reason = reason
        self.field = field
        self.openSSLErrors = openSSLErrors
        self.offset = offset
        self.depth = depth
    }

    /// `"<code>: <reason> (field f) at offset n (depth d) [OpenSSL: …]"`.
    public var description: String {
        var text = "\(code): \(reason)"
        if let field { text += " (field \(field))" }
        if let offset { text += " at offset \(offset)" }
        if let depth { text += " (depth \(depth))" }
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
