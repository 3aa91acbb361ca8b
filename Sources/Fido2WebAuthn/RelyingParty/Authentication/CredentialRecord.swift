import Fido2CBOR
import Fido2Crypto
@_spi(Fido2Internals) import Fido2Encoding
@_spi(Fido2Internals) import Fido2WebAuthnWire

/// What a relying party stores about a registered credential and needs to verify its
/// assertions: the credential record of WebAuthn Level 3 §7.1 step 27, and the user handle of
/// the account it belongs to.
///
/// A record is `Codable` and has a stable, versioned JSON form (``jsonBytes()``,
/// ``init(jsonBytes:)-([UInt8])``): members named as in the specification, binary members as
/// base64url, absent optional members left out, the same record always the same bytes.
///
/// ```json
/// {"version":2,"type":"public-key","id":"…","publicKey":"…","signCount":0,
///  "transports":["internal","hybrid"],"uvInitialized":true,"backupEligible":true,
///  "backupState":true,"attestationObject":"…","attestationClientDataJSON":"…",
///  "attestationTrust":"verified-metadata","userHandle":"…"}
/// ```
///
/// `publicKey` holds the COSE_Key exactly as the authenticator encoded it. This library writes
/// version 2, which adds `attestationTrust` (``AttestationTrust``, left out when unknown), and
/// reads versions 1 and 2; a version 1 record reads with the trust ``AttestationTrust/unknown``.
/// A reader refuses any other version, so a record written by a later format is never misread.
/// Unknown members are ignored.
public struct CredentialRecord: WebAuthnJSONForm {
    /// The version of the JSON form this library writes.
    public static let jsonFormVersion = 2
    /// The versions of the JSON form this library reads.
    public static let readableJSONFormVersions: ClosedRange<Int> = 1...2

    /// The credential type: `public-key`.
    public var type: String
    /// The credential ID.
    public var id: [UInt8]
    /// The credential public key, with the algorithm it signs with.
    public let publicKey: COSEKey
    /// The credential public key as an encoded COSE_Key: as the authenticator sent it for a
    /// record made by a registration.
    public let publicKeyBytes: [UInt8]
    /// The highest signature counter seen. A verified assertion whose counter went back (with
    /// `VerificationRelaxations.acceptsSignCountRegression`) leaves it as it was, so that a
    /// clone cannot lower it for good.
    public var signCount: UInt32
    /// The transports the client reported at registration.
    public var transports: [AuthenticatorTransport]
    /// Whether the user was verified (UV) in any ceremony with this credential so far.
    public var uvInitialized: Bool
    /// BE: whether the credential may be backed up, as registered. A sign-in changes it only
    /// when §7.2 step 19 accepted a change: under the compatible profile a credential that
    /// became eligible (BE 0 at registration, 1 now, as platforms that sync it later report;
    /// reported as `ToleratedDeviation.Kind.backupEligibilityGained`), or any change with
    /// `VerificationRelaxations.acceptsBackupEligibilityChange`. The updated record
    /// (``VerifiedAuthentication/updatedRecord``) then holds the new value.
    public var backupEligible: Bool
    /// BS last seen: whether the credential is backed up.
    public var backupState: Bool
    /// The attestation object of the registration, kept so its attestation can be judged
    /// again later (against newer metadata, say); nil when not kept.
    public var attestationObject: [UInt8]?
    /// The clientDataJSON of the registration, which the attestation signature covers; nil
    /// when not kept.
    public var attestationClientDataJSON: [UInt8]?
    /// What the registration's attestation proved (``VerifiedRegistration/attestationTrust``);
    /// ``AttestationTrust/unknown`` for a record read from JSON form version 1 or made without
    /// a registration.
    public var attestationTrust: AttestationTrust
    /// The user handle (`user.id`) of the account the credential belongs to; nil when the
    /// record does not keep it. With nil, a discoverable sign-in (one that identifies the user
    /// by the response's `userHandle`) fails §7.2 step 6 with `userHandleMismatch`, since
    /// nothing confirms the claimed handle; a sign-in whose user was identified before the
    /// ceremony accepts it (the caller, who looked the record up, vouches for the account).
    public var userHandle: [UInt8]?

    /// A record from its parts; the key is stored as its canonical COSE_Key encoding.
    ///
    /// - Throws: `WebAuthnError` with code `invalidCredentialPublicKey` and field
    ///   `credentialRecord.publicKey` when the key cannot be encoded (OpenSSL cannot export
    ///   its parameters).
    public init(
        id: [UInt8], publicKey: COSEKey, signCount: UInt32, backupEligible: Bool,
        backupState: Bool = false, userHandle: [UInt8]? = nil,
        transports: [AuthenticatorTransport] = [], uvInitialized: Bool = false,
        attestationObject: [UInt8]? = nil, attestationClientDataJSON: [UInt8]? = nil
    ) throws {
        let bytes: [UInt8]
        do {
            bytes = try publicKey.cborEncoded
        } catch {
            throw WebAuthnError(
                crypto: error, .invalidCredentialPublicKey, field: "credentialRecord.publicKey")
        }
        self.init(
            id: id, publicKey: publicKey, publicKeyBytes: bytes,
            signCount: signCount, backupEligible: backupEligible, backupState: backupState,
            userHandle: userHandle, transports: transports, uvInitialized: uvInitialized,
            attestationObject: attestationObject,
            attestationClientDataJSON: attestationClientDataJSON)
    }

    /// A record whose public key is given as an encoded COSE_Key, as stored.
    ///
    /// - Parameters:
    ///   - id: the credential ID.
    ///   - publicKeyBytes: the credential public key as one encoded COSE_Key.
    ///   - signCount: the signature counter last seen.
    ///   - backupEligible: BE at registration: whether the credential may be backed up.
    ///   - backupState: BS last seen: whether the credential is backed up; false by default.
    ///   - userHandle: the user handle (`user.id`) of the account, or nil when not kept.
    ///   - transports: the transports the client reported at registration; none by default.
    ///   - uvInitialized: whether the user has been verified with the credential.
    ///   - attestationObject: the registration's attestation object, when kept.
    ///   - attestationClientDataJSON: the registration's clientDataJSON, when kept.
    ///   - options: the CBOR profile of `publicKeyBytes`; CTAP2 canonical by default.
    ///   - tolerating: encoding checks of `options` that the stored key may break (it was
    ///     accepted at registration as the authenticator wrote it); a key that breaks them is
    ///     read from its canonical re-encoding. All of `CBORReader.encodingChecks`
    ///     by default; `[]` to require `options` to the letter.
    /// - Throws: `WebAuthnError` with step `§7.2 step 21` and field `credentialRecord.publicKey`:
    ///   `unsupportedAlgorithm` for a key of an algorithm this library cannot verify (ML-DSA,
    ///   …), `invalidCredentialPublicKey` for bytes that are not one valid COSE_Key.
    public init(
        id: [UInt8], publicKeyBytes: some Collection<UInt8>, signCount: UInt32,
        backupEligible: Bool, backupState: Bool = false, userHandle: [UInt8]? = nil,
        transports: [AuthenticatorTransport] = [], uvInitialized: Bool = false,
        attestationObject: [UInt8]? = nil, attestationClientDataJSON: [UInt8]? = nil,
        options: CBORDecodingOptions = .strict,
        tolerating: CBORDecodingOptions.Checks = CBORReader.encodingChecks
    ) throws {
        let bytes = Array(publicKeyBytes)
        let key: COSEKey
        do {
            key = try Self.decodePublicKey(bytes, options: options, tolerating: tolerating)
        } catch {
            throw error.prefixingField("credentialRecord.publicKey").attributed(
                to: CeremonyStep.Authentication.signature)
        }
        self.init(
            id: id, publicKey: key, publicKeyBytes: bytes, signCount: signCount,
            backupEligible: backupEligible, backupState: backupState, userHandle: userHandle,
            transports: transports, uvInitialized: uvInitialized,
            attestationObject: attestationObject,
            attestationClientDataJSON: attestationClientDataJSON)
    }

    /// The memberwise initializer behind the public ones: `publicKeyBytes` encodes `publicKey`.
    init(
        id: [UInt8], publicKey: COSEKey, publicKeyBytes: [UInt8], signCount: UInt32,
        backupEligible: Bool, backupState: Bool, userHandle: [UInt8]?,
        transports: [AuthenticatorTransport], uvInitialized: Bool, attestationObject: [UInt8]?,
        attestationClientDataJSON: [UInt8]?, attestationTrust: AttestationTrust = .unknown,
        type: String = "public-key"
    ) {
        self.type = type
        self.id = id
        self.publicKey = publicKey
        self.publicKeyBytes = publicKeyBytes
        self.signCount = signCount
        self.transports = transports
        self.uvInitialized = uvInitialized
        self.backupEligible = backupEligible
        self.backupState = backupState
        self.attestationObject = attestationObject
        self.attestationClientDataJSON = attestationClientDataJSON
        self.attestationTrust = attestationTrust
        self.userHandle = userHandle
    }

    /// Reads a COSE_Key as stored: as `options` says or, for a key that breaks only the
    /// checks in `tolerating`, from its canonical re-encoding. Errors carry no field.
    private static func decodePublicKey(
        _ bytes: [UInt8], options: CBORDecodingOptions, tolerating: CBORDecodingOptions.Checks
    ) throws(WebAuthnError) -> COSEKey {
        do {
            do {
                return try COSEKey(cborEncoded: bytes, options: options)
            } catch {
                guard !tolerating.isEmpty else { throw error }
                let item = try CBORReader.canonicalizingFirstItem(
                    in: bytes[...], options: options, tolerating: tolerating)
                guard item.length == bytes.count, !item.deviations.isEmpty else { throw error }
                return try COSEKey(cborEncoded: item.encoded, options: options)
            }
        } catch let error as CryptoError {
            throw WebAuthnError(crypto: error, .invalidCredentialPublicKey)
        } catch {
            throw WebAuthnError(.invalidCredentialPublicKey, "CBOR: \(error)")
        }
    }

    // MARK: Equality

    /// Records are equal when every stored member is (the key compared as its encoding).
    public static func == (lhs: CredentialRecord, rhs: CredentialRecord) -> Bool {
        lhs.type == rhs.type && lhs.id == rhs.id && lhs.publicKeyBytes == rhs.publicKeyBytes
            && lhs.signCount == rhs.signCount && lhs.transports == rhs.transports
            && lhs.uvInitialized == rhs.uvInitialized && lhs.backupEligible == rhs.backupEligible
            && lhs.backupState == rhs.backupState && lhs.attestationObject == rhs.attestationObject
            && lhs.attestationClientDataJSON == rhs.attestationClientDataJSON
            && lhs.attestationTrust == rhs.attestationTrust && lhs.userHandle == rhs.userHandle
    }

    /// Hashes the members ``==(_:_:)`` compares.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(id)
        hasher.combine(publicKeyBytes)
        hasher.combine(signCount)
        hasher.combine(backupState)
        hasher.combine(userHandle)
    }

    // MARK: JSON form

    /// About how many bytes the JSON form takes.
    public var estimatedJSONLength: Int {
        256
            + (id.count + publicKeyBytes.count + (attestationObject?.count ?? 0)
                + (attestationClientDataJSON?.count ?? 0) + (userHandle?.count ?? 0)) * 4 / 3
    }

    /// Reads a record's JSON form; unknown members are ignored.
    ///
    /// - Throws: `WebAuthnError` naming the member: `missingMember` for a required one
    ///   (`version`, `type`, `id`, `publicKey`, `signCount`, `uvInitialized`, `backupEligible`,
    ///   `backupState`), `invalidValue` for a version other than 1 or 2 and for an
    ///   `attestationTrust` that names no verdict, and the codes of
    ///   ``init(id:publicKeyBytes:signCount:backupEligible:backupState:userHandle:transports:uvInitialized:attestationObject:attestationClientDataJSON:options:tolerating:)``
    ///   for a `publicKey` that is not a usable COSE_Key.
    @_spi(Fido2Internals) public init(scanning scanner: inout JSONScanner) throws(WebAuthnError) {
        var version: Int?
        var type: String?
        var id: [UInt8]?
        var publicKeyBytes: [UInt8]?
        var signCount: UInt32?
        var transports: [AuthenticatorTransport] = []
        var uvInitialized: Bool?
        var backupEligible: Bool?
        var backupState: Bool?
        var attestationObject: [UInt8]?
        var attestationClientDataJSON: [UInt8]?
        var userHandle: [UInt8]?
        var trustName: String?
        try scanner.members { (scanner, member) throws(WebAuthnError) in
            switch member {
            case "version": version = try scanner.integer(in: 0...Int(Int32.max))
            case "type": type = try scanner.string()
            case "id": id = try scanner.base64URL()
            case "publicKey": publicKeyBytes = try scanner.base64URL()
            case "signCount": signCount = try scanner.unsignedLong()
            case "transports": transports = try scanner.enumerations()
            case "uvInitialized": uvInitialized = try scanner.bool()
            case "backupEligible": backupEligible = try scanner.bool()
            case "backupState": backupState = try scanner.bool()
            case "attestationObject":
                attestationObject = try scanner.optional { (scanner) throws(WebAuthnError) in
                    try scanner.base64URL()
                }
            case "attestationClientDataJSON":
                attestationClientDataJSON = try scanner.optional {
                    (scanner) throws(WebAuthnError) in try scanner.base64URL()
                }
            case "attestationTrust": trustName = try scanner.string()
            case "userHandle":
                userHandle = try scanner.optional { (scanner) throws(WebAuthnError) in
                    try scanner.base64URL()
                }
            default: try scanner.skip()
            }
        }
        guard let version else { throw missingMember("version") }
        guard Self.readableJSONFormVersions.contains(version) else {
            throw WebAuthnError(
                .invalidValue,
                "credential record version \(version) is not one this library reads (1 or 2)",
                field: "version")
        }
        var attestationTrust = AttestationTrust.unknown
        if let trustName, version >= 2 {
            guard let trust = AttestationTrust(name: trustName) else {
                throw WebAuthnError(
                    .invalidValue, "\(quotedInput(trustName)) is not an attestation trust verdict",
                    field: "attestationTrust")
            }
            attestationTrust = trust
        }
        guard let type else { throw missingMember("type") }
        guard let id else { throw missingMember("id") }
        guard let publicKeyBytes else { throw missingMember("publicKey") }
        guard let signCount else { throw missingMember("signCount") }
        guard let uvInitialized else { throw missingMember("uvInitialized") }
        guard let backupEligible else { throw missingMember("backupEligible") }
        guard let backupState else { throw missingMember("backupState") }
        let publicKey: COSEKey
        do {
            publicKey = try Self.decodePublicKey(
                publicKeyBytes, options: .strict, tolerating: CBORReader.encodingChecks)
        } catch {
            throw error.prefixingField("publicKey")
        }
        self.init(
            id: id, publicKey: publicKey, publicKeyBytes: publicKeyBytes, signCount: signCount,
            backupEligible: backupEligible, backupState: backupState, userHandle: userHandle,
            transports: transports, uvInitialized: uvInitialized,
            attestationObject: attestationObject,
            attestationClientDataJSON: attestationClientDataJSON,
            attestationTrust: attestationTrust, type: type)
    }

    /// Writes the record's JSON form, version 2: members in the order of the specification's
    /// credential record, then the attestation verdict and the user handle; absent optional
    /// members (and an unknown verdict) left out.
    public func write(to writer: inout JSONWriter) {
        writer.beginObject()
        writer.name("version")
        writer.number(Self.jsonFormVersion)
        writer.name("type")
        writer.string(type)
        writer.name("id")
        writer.base64URL(id)
        writer.name("publicKey")
        writer.base64URL(publicKeyBytes)
        writer.name("signCount")
        writer.number(Int64(signCount))
        writer.name("transports")
        writer.enumerations(transports)
        writer.name("uvInitialized")
        writer.bool(uvInitialized)
        writer.name("backupEligible")
        writer.bool(backupEligible)
        writer.name("backupState")
        writer.bool(backupState)
        if let attestationObject {
            writer.name("attestationObject")
            writer.base64URL(attestationObject)
        }
        if let attestationClientDataJSON {
            writer.name("attestationClientDataJSON")
            writer.base64URL(attestationClientDataJSON)
        }
        if attestationTrust != .unknown {
            writer.name("attestationTrust")
            writer.string(attestationTrust.description)
        }
        if let userHandle {
            writer.name("userHandle")
            writer.base64URL(userHandle)
        }
        writer.endObject()
    }
}
