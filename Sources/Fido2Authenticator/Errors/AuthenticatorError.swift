import Fido2Crypto
import Fido2WebAuthnWire

/// The one error type of `Fido2Authenticator`: the software authenticator's refusals, the
/// failures of its key generation and signing, and those of its credential stores.
///
/// Every error says where it happened when a part of the input is at fault: ``field`` is a path
/// into the options or the credential (`excludeCredentials`, `rpId`,
/// `authenticatorSelection.residentKey`). Compare errors by ``code``; ``reason`` is prose for
/// people and may change. Options the authenticator cannot use (JSON that does not parse, a
/// structure built from them that breaks the WebAuthn rules) are ``Code/invalidOptions``,
/// carrying the structures' own `WebAuthnError` as ``underlying``.
///
/// A credential store of your own (on a database, say) throws these errors too, with
/// ``init(_:_:field:)``: `credentialExists`, `credentialNotFound`, `corruptCredential`,
/// `storageFailure`, `storeLocked`.
public struct AuthenticatorError: Error, Sendable, Hashable, CustomStringConvertible {
    /// What kind of failure this is. New codes may be added, so switch over codes with a
    /// `default` branch.
    public struct Code: Sendable, Hashable, CustomStringConvertible {
        /// Add new codes here, one group per concern, each with a `static let` below.
        private enum Kind: String, Sendable, Hashable {
            // MARK: Input
            case invalidOptions
            case invalidValue
            // MARK: The software authenticator
            case invalidOrigin
            case invalidRelyingPartyID
            case noSupportedAlgorithm
            case credentialExcluded
            case userVerificationUnavailable
            case residentKeyUnavailable
            case noMatchingCredential
            case noDiscoverableCredential
            case signCountExhausted
            case keyGenerationFailed
            case signingFailed
            // MARK: Credential stores
            case credentialExists
            case credentialNotFound
            case corruptCredential
            case storageFailure
            case storeLocked
        }

        private let kind: Kind

        private init(_ kind: Kind) { self.kind = kind }

        // MARK: Input

        /// The options cannot be used: their JSON form does not parse, or a WebAuthn structure
        /// the authenticator builds from them and its configuration breaks the structures'
        /// rules (a credential ID length outside 1…1023, full attestation without a
        /// certificate). ``AuthenticatorError/underlying`` is the structures' `WebAuthnError`
        /// (`missingMember`, `malformedJSON`, …); ``AuthenticatorError/field`` keeps its path.
        public static let invalidOptions = Code(.invalidOptions)
        /// An argument has a value the authenticator cannot use: a PRF salt, shared secret or
        /// key of the wrong size or kind, or a store update that changes the credential ID.
        public static let invalidValue = Code(.invalidValue)

        // MARK: The software authenticator

        /// The origin is not `https://host[:port]` (or `http://localhost[:port]`).
        public static let invalidOrigin = Code(.invalidOrigin)
        /// The RP ID is not the origin's host nor a registrable suffix of it, or is not a
        /// valid domain.
        public static let invalidRelyingPartyID = Code(.invalidRelyingPartyID)
        /// None of the relying party's `pubKeyCredParams` is an algorithm the authenticator
        /// supports.
        public static let noSupportedAlgorithm = Code(.noSupportedAlgorithm)
        /// The authenticator holds a credential listed in `excludeCredentials`.
        public static let credentialExcluded = Code(.credentialExcluded)
        /// User verification is required but the authenticator is configured without it.
        public static let userVerificationUnavailable = Code(.userVerificationUnavailable)
        /// A discoverable credential is required but the authenticator is configured without
        /// them.
        public static let residentKeyUnavailable = Code(.residentKeyUnavailable)
        /// None of the credentials in `allowCredentials` is held for this RP ID.
        public static let noMatchingCredential = Code(.noMatchingCredential)
        /// `allowCredentials` is empty and no discoverable credential is held for this RP ID.
        public static let noDiscoverableCredential = Code(.noDiscoverableCredential)
        /// The credential's signature counter is at its maximum and cannot advance.
        public static let signCountExhausted = Code(.signCountExhausted)
        /// A credential key (or credential ID) could not be made: the random source failed,
        /// or the key could not be encoded.
        public static let keyGenerationFailed = Code(.keyGenerationFailed)
        /// Making a signature failed (an assertion's or an attestation's): the key does not fit
        /// the algorithm, the algorithm is not implemented, or OpenSSL failed.
        public static let signingFailed = Code(.signingFailed)

        // MARK: Credential stores

        /// A credential with this ID is already stored.
        public static let credentialExists = Code(.credentialExists)
        /// No credential with this ID is stored.
        public static let credentialNotFound = Code(.credentialNotFound)
        /// A stored credential cannot be read back (bad format, key, or name).
        public static let corruptCredential = Code(.corruptCredential)
        /// The storage refused an operation (``AuthenticatorError/reason`` carries the system's
        /// error).
        public static let storageFailure = Code(.storageFailure)
        /// Another thread or process held the store's lock for longer than the store waits
        /// (``DirectoryCredentialStore/lockTimeout``): nothing was changed.
        public static let storeLocked = Code(.storeLocked)

        /// The code's name, such as `noMatchingCredential`.
        public var description: String { kind.rawValue }
    }

    /// What kind of failure this is.
    public let code: Code
    /// A human-readable explanation.
    public let reason: String
    /// The path of the offending member, such as `excludeCredentials` or `rpId`.
    public let field: String?
    /// For ``Code/invalidOptions``, the error of the WebAuthn structures that refused the
    /// options (its code, field path and byte offset); nil otherwise.
    public let underlying: WebAuthnError?

    /// An error with `code` and `reason`, naming the member at fault: the authenticator reports
    /// its failures through it, and code outside the library may too (a `CredentialStore` on a
    /// database reports `storageFailure`, say).
    public init(_ code: Code, _ reason: String, field: String? = nil) {
        self.code = code
        self.reason = reason
        self.field = field
        self.underlying = nil
    }

    /// ``Code/invalidOptions`` for options (or a structure built from them) that the WebAuthn
    /// structures refuse with `underlying`, keeping its reason and field path.
    public init(invalidOptions underlying: WebAuthnError) {
        self.code = .invalidOptions
        self.reason = underlying.reason
        self.field = underlying.field
        self.underlying = underlying
    }

    /// `[field: ]reason`, for example
    /// `excludeCredentials: the authenticator holds excluded credential AQID`; for
    /// ``Code/invalidOptions``, the underlying error's description (with its byte offset).
    public var description: String {
        if let underlying { return underlying.description }
        guard let field else { return reason }
        return field + ": " + reason
    }
}

extension AuthenticatorError {
    /// The authenticator's error for a failure of `Fido2Crypto` (a `CryptoError`, the only
    /// error it throws) while it makes a key or a signature: `code`, with the crypto error's
    /// description and field.
    init(crypto error: any Error, _ code: Code, field: String? = nil) {
        guard let error = error as? CryptoError else {
            self.init(code, "\(error)", field: field)
            return
        }
        self.init(code, error.description, field: field ?? error.field)
    }

    /// The authenticator's error for `error`, thrown by a WebAuthn structure it reads or
    /// builds: a failed signature stays ``Code/signingFailed``; anything else is
    /// ``Code/invalidOptions`` carrying the structures' error.
    init(structures error: any Error) {
        if let error = error as? AuthenticatorError {
            self = error
            return
        }
        let underlying = WebAuthnError(wrapping: error)
        if underlying.code == .signingFailed {
            self.init(.signingFailed, underlying.reason, field: underlying.field)
        } else {
            self.init(invalidOptions: underlying)
        }
    }
}

/// Runs `body`, which reads or builds WebAuthn structures, reporting what they throw as the
/// authenticator's error (``AuthenticatorError/init(structures:)``).
func buildingStructures<Result>(
    _ body: () throws -> Result
) throws(AuthenticatorError) -> Result {
    do {
        return try body()
    } catch {
        throw AuthenticatorError(structures: error)
    }
}
