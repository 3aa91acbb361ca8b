import Fido2CBOR
import Fido2Crypto

/// The attested credential data of registration authenticator data (WebAuthn §6.5.2): AAGUID,
/// credential ID and credential public key.
///
/// Parsed values keep slices of the authenticator data: ``credentialId`` and
/// ``credentialPublicKeyBytes`` share its storage. The public key's length is the length of its
/// CBOR item, as the CBOR reader measures it.
public struct AttestedCredentialData: Sendable, Equatable {
    /// The largest credential ID WebAuthn allows.
    public static let maximumCredentialIdLength = 1023

    /// The authenticator model.
    public let aaguid: AAGUID
    /// The credential ID, 1…1023 bytes.
    public let credentialId: ArraySlice<UInt8>
    /// The credential public key exactly as encoded (a CTAP2 canonical COSE_Key).
    public let credentialPublicKeyBytes: ArraySlice<UInt8>
    /// The credential public key.
    public let credentialPublicKey: COSEKey

    /// Attested credential data for a new credential; the key is written in its CTAP2
    /// canonical encoding.
    ///
    /// - Throws: ``WebAuthnError`` `invalidCredentialIdLength` for an ID of 0 or more than 1023
    ///   bytes; `invalidCredentialPublicKey` if the key cannot be encoded.
    public init(
        aaguid: AAGUID, credentialId: [UInt8], credentialPublicKey: COSEKey
    )
        throws
    {
        try Self.checkLength(credentialId.count, offset: nil)
        let encoded: [UInt8]
        do {
            encoded = try credentialPublicKey.cborEncoded
        } catch {
            throw WebAuthnError(
                crypto: error, .invalidCredentialPublicKey, field: "credentialPublicKey")
        }
        self.aaguid = aaguid
        self.credentialId = credentialId[...]
        self.credentialPublicKeyBytes = encoded[...]
        self.credentialPublicKey = credentialPublicKey
    }

    /// Attested credential data for a key whose canonical encoding the caller has made.
    package init(
        aaguid: AAGUID, credentialId: [UInt8], key: COSEKey, encoded: [UInt8]
    )
        throws(WebAuthnError)
    {
        try Self.checkLength(credentialId.count, offset: nil)
        self.aaguid = aaguid
        self.credentialId = credentialId[...]
        self.credentialPublicKeyBytes = encoded[...]
        self.credentialPublicKey = key
    }

    /// Attested credential data around an already encoded key, kept byte for byte.
    ///
    /// - Throws: ``WebAuthnError`` `invalidCredentialIdLength`; `invalidCredentialPublicKey`
    ///   (or `unsupportedAlgorithm`) when the bytes are not one valid COSE_Key.
    public init(
        aaguid: AAGUID, credentialId: [UInt8], credentialPublicKeyBytes: [UInt8]
    )
        throws
    {
        try Self.checkLength(credentialId.count, offset: nil)
        self.aaguid = aaguid
        self.credentialId = credentialId[...]
        self.credentialPublicKeyBytes = credentialPublicKeyBytes[...]
        self.credentialPublicKey = try Self.key(credentialPublicKeyBytes[...], .strict, base: 0)
    }

    /// Reads attested credential data from `cursor` (positioned after the sign count). A key
    /// that breaks only the encoding checks of `tolerated` is read from its canonical
    /// re-encoding (``credentialPublicKeyBytes`` keeps the bytes as sent) and its deviations are
    /// appended to `deviations`.
    init(
        reading cursor: inout BinaryCursor, options: CBORDecodingOptions,
        tolerating tolerated: CBORDecodingOptions.Checks = [],
        deviations: inout [ToleratedDeviation]
    ) throws(WebAuthnError) {
        let aaguidBytes = try cursor.take(16, "attestedCredentialData.aaguid")
        aaguid = AAGUID(bytes: aaguidBytes) ?? .zero
        let lengthOffset = cursor.offset
        let length = Int(try cursor.uint16("attestedCredentialData.credentialIdLength"))
        try Self.checkLength(length, offset: lengthOffset)
        credentialId = try cursor.take(length, "attestedCredentialData.credentialId")
        let keyStart = cursor.offset
        let rest = cursor.rest
        guard !rest.isEmpty else {
            throw WebAuthnError(
                .truncated, "the credential public key is missing",
                field: "attestedCredentialData.credentialPublicKey", offset: keyStart)
        }
        let field = "attestedCredentialData.credentialPublicKey"
        guard !tolerated.isEmpty else {
            let keyLength = try readingCBOR(field, base: keyStart) { () throws in
                try CBORReader.lengthOfFirstItem(in: rest, options: options)
            }
            credentialPublicKeyBytes = rest.prefix(keyLength)
            cursor.skip(keyLength)
            credentialPublicKey = try Self.key(credentialPublicKeyBytes, options, base: keyStart)
            return
        }
        let item = try readingCBOR(field, base: keyStart) { () throws in
            try CBORReader.canonicalizingFirstItem(
                in: rest, options: options, tolerating: tolerated)
        }
        credentialPublicKeyBytes = rest.prefix(item.length)
        cursor.skip(item.length)
        credentialPublicKey = try Self.key(item.encoded[...], options, base: keyStart)
        deviations += ToleratedDeviation.cbor(item.deviations, field: field, base: keyStart)
    }

    private static func key(
        _ bytes: ArraySlice<UInt8>, _ options: CBORDecodingOptions, base: Int
    ) throws(WebAuthnError) -> COSEKey {
        do {
            return try COSEKey(cborEncoded: bytes, options: options)
        } catch {
            var mapped = WebAuthnError(
                crypto: error, .invalidCredentialPublicKey,
                field: "attestedCredentialData.credentialPublicKey")
            mapped = WebAuthnError(
                mapped.code, mapped.reason, field: mapped.field, offset: base)
            throw mapped
        }
    }

    private static func checkLength(_ length: Int, offset: Int?) throws(WebAuthnError) {
        guard (1...maximumCredentialIdLength).contains(length) else {
            throw WebAuthnError(
                .invalidCredentialIdLength,
                "a credential ID has 1...\(maximumCredentialIdLength) bytes, not \(length)",
                field: "attestedCredentialData.credentialIdLength", offset: offset)
        }
    }

    /// The encoded length: AAGUID, ID length, ID, key.
    var encodedCount: Int { 18 + credentialId.count + credentialPublicKeyBytes.count }

    /// Appends the encoding.
    func write(to output: inout [UInt8]) {
        output.append(contentsOf: aaguid.bytes)
        output.appendBigEndian(UInt64(credentialId.count), width: 2)
        output.append(contentsOf: credentialId)
        output.append(contentsOf: credentialPublicKeyBytes)
    }

    /// Equal when the bytes are equal (the key is what its bytes say).
    public static func == (lhs: AttestedCredentialData, rhs: AttestedCredentialData) -> Bool {
        lhs.aaguid == rhs.aaguid && lhs.credentialId == rhs.credentialId
            && lhs.credentialPublicKeyBytes == rhs.credentialPublicKeyBytes
    }
}
