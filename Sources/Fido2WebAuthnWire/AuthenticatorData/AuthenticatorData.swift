import Fido2CBOR
import Fido2Crypto

/// Authenticator data (WebAuthn §6.1): rpIdHash, flags, signCount, then attested credential
/// data (AT flag) and extension outputs (ED flag).
///
/// Parsing is zero-copy: the value keeps ``bytes`` (the input slice, which is what signatures
/// cover) and its parts are slices of it. Parsing is strict: every truncation, trailing bytes,
/// AT or ED flags that disagree with what follows, BS without BE, and credential IDs of 0 or
/// more than 1023 bytes are rejected, each with its own ``WebAuthnError`` code. Building writes
/// the same layout in one allocation. Two values are equal when their bytes are.
public struct AuthenticatorData: Sendable, Hashable {
    /// The encoded authenticator data (sign over these bytes as they are).
    public let bytes: ArraySlice<UInt8>
    /// The flags byte, every bit as read.
    public let flags: AuthenticatorDataFlags
    /// The signature counter.
    public let signCount: UInt32
    /// The credential, when AT is set.
    public let attestedCredentialData: AttestedCredentialData?
    /// The extension outputs, when ED is set.
    public let extensions: AuthenticatorExtensionOutputs?

    /// The length of the fixed part: rpIdHash (32), flags (1), signCount (4).
    public static let fixedLength = 37

    /// SHA-256 of the RP ID: the first 32 bytes.
    public var rpIdHash: ArraySlice<UInt8> { bytes.prefix(32) }

    /// Parses authenticator data.
    ///
    /// - Parameters:
    ///   - bytes: the raw authenticator data: rpIdHash, flags, signCount, then the attested
    ///     credential data and the extensions map when their flags say so.
    ///   - options: the CBOR rules for the credential public key and the extensions map;
    ///     `.strict` (CTAP2 canonical) by default.
    /// - Throws: ``WebAuthnError`` with ``WebAuthnError/field`` and ``WebAuthnError/offset``:
    ///   `truncated` when the data ends inside a part; `trailingBytes` when bytes follow the last
    ///   part; `attestedCredentialDataFlagMismatch` when AT is set and nothing follows the sign
    ///   count; `extensionDataFlagMismatch` when ED is set and no map follows;
    ///   `backupStateWithoutEligibility` for BS without BE; `invalidCredentialIdLength`;
    ///   `invalidCredentialPublicKey` or `unsupportedAlgorithm` for the key; `malformedCBOR` or
    ///   `invalidExtensions` for the extensions map.
    public init(
        bytes: ArraySlice<UInt8>, options: CBORDecodingOptions = .strict
    )
        throws
    {
        var ignored: [ToleratedDeviation] = []
        try self.init(bytes: bytes, options: options, tolerating: [], deviations: &ignored)
    }

    /// Parses authenticator data as ``init(bytes:options:)-(ArraySlice<UInt8>,_)`` does, except
    /// that a credential public key or extensions map breaking only the encoding checks of
    /// `tolerated` is read from its canonical re-encoding; what it broke is appended to
    /// `deviations` (fields relative to the authenticator data). The strict reading runs
    /// first, so canonical input costs nothing more.
    package init(
        bytes: ArraySlice<UInt8>, options: CBORDecodingOptions,
        tolerating tolerated: CBORDecodingOptions.Checks, deviations: inout [ToleratedDeviation]
    ) throws(WebAuthnError) {
        guard !tolerated.isEmpty else {
            try self.init(parsing: bytes, options: options, tolerating: [], deviations: &deviations)
            return
        }
        var found: [ToleratedDeviation] = []
        do {
            try self.init(parsing: bytes, options: options, tolerating: [], deviations: &found)
        } catch {
            try self.init(
                parsing: bytes, options: options, tolerating: tolerated, deviations: &found)
        }
        deviations += found
    }

    private init(
        parsing bytes: ArraySlice<UInt8>, options: CBORDecodingOptions,
        tolerating tolerated: CBORDecodingOptions.Checks, deviations: inout [ToleratedDeviation]
    ) throws(WebAuthnError) {
        var cursor = BinaryCursor(bytes)
        _ = try cursor.take(32, "rpIdHash")
        let flags = AuthenticatorDataFlags(rawValue: try cursor.uint8("flags"))
        let signCount = try cursor.uint32("signCount")
        if flags.contains(.backupState), !flags.contains(.backupEligible) {
            throw WebAuthnError(
                .backupStateWithoutEligibility, "BS is set but BE is not", field: "flags",
                offset: 32)
        }
        var attested: AttestedCredentialData?
        if flags.contains(.attestedCredentialData) {
            guard !cursor.isAtEnd else {
                throw WebAuthnError(
                    .attestedCredentialDataFlagMismatch,
                    "AT is set but no attested credential data follows", field: "flags",
                    offset: 32)
            }
            attested = try AttestedCredentialData(
                reading: &cursor, options: options, tolerating: tolerated,
                deviations: &deviations)
        }
        var extensions: AuthenticatorExtensionOutputs?
        if flags.contains(.extensionData) {
            guard !cursor.isAtEnd else {
                throw WebAuthnError(
                    .extensionDataFlagMismatch, "ED is set but no extensions map follows",
                    field: "flags", offset: 32)
            }
            extensions = try Self.extensions(
                cursor.rest, options: options, base: cursor.offset, tolerating: tolerated,
                deviations: &deviations)
            cursor.skip(cursor.remaining)
        }
        guard cursor.isAtEnd else {
            throw WebAuthnError(
                .trailingBytes,
                "\(cursor.remaining) bytes follow the last part announced by the flags (\(flags))",
                field: flags.contains(.extensionData) ? "extensions" : "flags",
                offset: cursor.offset)
        }
        self.bytes = bytes
        self.flags = flags
        self.signCount = signCount
        self.attestedCredentialData = attested
        self.extensions = extensions
    }

    /// The extensions map that is the rest of the data; one that breaks only the encoding
    /// checks of `tolerated` is read from its canonical re-encoding.
    private static func extensions(
        _ rest: ArraySlice<UInt8>, options: CBORDecodingOptions, base: Int,
        tolerating tolerated: CBORDecodingOptions.Checks, deviations: inout [ToleratedDeviation]
    ) throws(WebAuthnError) -> AuthenticatorExtensionOutputs {
        guard !tolerated.isEmpty else {
            return try AuthenticatorExtensionOutputs(reading: rest, options: options, base: base)
        }
        let item = try readingCBOR("extensions", base: base) { () throws in
            try CBORReader.canonicalizingFirstItem(
                in: rest, options: options, tolerating: tolerated)
        }
        deviations += ToleratedDeviation.cbor(item.deviations, field: "extensions", base: base)
        // Bytes after the map stay after its re-encoding, so they fail as trailing bytes.
        return try AuthenticatorExtensionOutputs(
            reading: (item.encoded + rest.dropFirst(item.length))[...], options: options,
            base: base)
    }

    /// Parses authenticator data; see ``init(bytes:options:)-(ArraySlice<UInt8>,_)``.
    ///
    /// - Throws: as ``init(bytes:options:)-(ArraySlice<UInt8>,_)``.
    public init(bytes: [UInt8], options: CBORDecodingOptions = .strict) throws {
        try self.init(bytes: bytes[...], options: options)
    }

    /// Builds authenticator data. The AT and ED bits of `flags` are set from whether
    /// `attestedCredentialData` and `extensions` are given; every other bit is kept.
    ///
    /// - Throws: ``WebAuthnError`` `invalidValue` when `rpIdHash` is not 32 bytes;
    ///   `backupStateWithoutEligibility` for BS without BE.
    public init(
        rpIdHash: some Collection<UInt8>, flags: AuthenticatorDataFlags, signCount: UInt32,
        attestedCredentialData: AttestedCredentialData? = nil,
        extensions: AuthenticatorExtensionOutputs? = nil
    ) throws {
        guard rpIdHash.count == 32 else {
            throw WebAuthnError(
                .invalidValue, "rpIdHash has 32 bytes, not \(rpIdHash.count)", field: "rpIdHash")
        }
        var flags = flags
        if attestedCredentialData != nil {
            flags.insert(.attestedCredentialData)
        } else {
            flags.remove(.attestedCredentialData)
        }
        if extensions != nil { flags.insert(.extensionData) } else { flags.remove(.extensionData) }
        if flags.contains(.backupState), !flags.contains(.backupEligible) {
            throw WebAuthnError(
                .backupStateWithoutEligibility, "BS is set but BE is not", field: "flags")
        }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(
            Self.fixedLength + (attestedCredentialData?.encodedCount ?? 0)
                + (extensions?.bytes.count ?? 0))
        bytes.append(contentsOf: rpIdHash)
        bytes.append(flags.rawValue)
        bytes.appendBigEndian(UInt64(signCount), width: 4)
        attestedCredentialData?.write(to: &bytes)
        if let extensions { bytes.append(contentsOf: extensions.bytes) }
        self.bytes = bytes[...]
        self.flags = flags
        self.signCount = signCount
        self.attestedCredentialData = attestedCredentialData
        self.extensions = extensions
    }

    /// Builds authenticator data for `relyingPartyID`, hashing it with SHA-256.
    ///
    /// - Throws: as ``init(rpIdHash:flags:signCount:attestedCredentialData:extensions:)``.
    public init(
        relyingPartyID: String, flags: AuthenticatorDataFlags, signCount: UInt32,
        attestedCredentialData: AttestedCredentialData? = nil,
        extensions: AuthenticatorExtensionOutputs? = nil
    ) throws {
        try self.init(
            rpIdHash: Self.hash(relyingPartyID), flags: flags, signCount: signCount,
            attestedCredentialData: attestedCredentialData, extensions: extensions)
    }

    /// SHA-256 of an RP ID's UTF-8.
    package static func hash(_ relyingPartyID: String) -> [UInt8] {
        DigestAlgorithm.sha256.hash(relyingPartyID.utf8)
    }

    /// Equal when the bytes are equal.
    public static func == (lhs: Self, rhs: Self) -> Bool { lhs.bytes == rhs.bytes }

    /// Hashes the bytes.
    public func hash(into hasher: inout Hasher) { hasher.combine(bytes) }
}
