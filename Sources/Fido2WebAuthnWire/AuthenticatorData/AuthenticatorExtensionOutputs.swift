import Fido2CBOR

/// The authenticator extension outputs that end authenticator data when its ED flag is set: a
/// CBOR map from extension identifiers to outputs (WebAuthn §9, CTAP 2.1 §12).
///
/// The CTAP extensions are typed: `credProtect`, `hmac-secret`, `credBlob`, `minPinLength`
/// and `largeBlobKey`. Any other output is kept as its encoded CBOR in ``unknown``. Parsed
/// values keep ``bytes``, the encoded map, as a slice of the authenticator data; built values
/// are encoded in CTAP2 canonical order. Two values are equal when their encodings are.
public struct AuthenticatorExtensionOutputs: Sendable, Hashable {
    /// An output this library has no type for, kept as encoded CBOR.
    public struct Entry: Sendable, Hashable {
        /// The extension identifier.
        public let identifier: String
        /// The output, one encoded CBOR item.
        public let encodedValue: ArraySlice<UInt8>

        /// The output `value` of extension `identifier`, encoded deterministically.
        public init(identifier: String, value: CBORValue) {
            self.identifier = identifier
            self.encodedValue = value.encoded()[...]
        }

        init(identifier: String, encodedValue: ArraySlice<UInt8>) {
            self.identifier = identifier
            self.encodedValue = encodedValue
        }

        /// The output decoded.
        ///
        /// - Throws: ``WebAuthnError`` `malformedCBOR` if the text cannot be held in a
        ///   `CBORValue` (it was validated when read, so only lenient input can fail).
        public func value() throws -> CBORValue {
            try readingCBOR(identifier) { () throws in
                try CBORValue.decode(encodedValue, options: .lenient)
            }
        }
    }

    /// `hmac-secret`: `true` after makeCredential, the encrypted salt outputs after getAssertion.
    public enum HMACSecretOutput: Sendable, Hashable {
        /// makeCredential: whether the credential supports hmac-secret.
        case enabled(Bool)
        /// getAssertion: the encrypted outputs (32 or 64 bytes plus an optional IV).
        case output([UInt8])
    }

    /// `credBlob`: whether the blob was stored (makeCredential) or the blob itself
    /// (getAssertion).
    public enum CredBlobOutput: Sendable, Hashable {
        /// makeCredential: whether the blob was stored.
        case stored(Bool)
        /// getAssertion: the blob.
        case blob([UInt8])
    }

    /// The encoded map.
    public let bytes: ArraySlice<UInt8>
    /// `credProtect`: the protection level (1 userVerificationOptional, 2 …WithCredentialIDList,
    /// 3 userVerificationRequired).
    public let credProtect: UInt8?
    /// `hmac-secret`.
    public let hmacSecret: HMACSecretOutput?
    /// `credBlob`.
    public let credBlob: CredBlobOutput?
    /// `minPinLength`: the authenticator's current minimum PIN length.
    public let minPinLength: UInt64?
    /// `largeBlobKey`: the 32-byte key of the credential's large blob.
    public let largeBlobKey: [UInt8]?
    /// Every other output, in the map's order.
    public let unknown: [Entry]

    /// Outputs to encode; the map is written in CTAP2 canonical key order.
    ///
    /// - Throws: ``WebAuthnError`` `invalidExtensions` when an identifier repeats (an unknown
    ///   entry named like a typed one, or twice).
    public init(
        credProtect: UInt8? = nil, hmacSecret: HMACSecretOutput? = nil,
        credBlob: CredBlobOutput? = nil, minPinLength: UInt64? = nil,
        largeBlobKey: [UInt8]? = nil, unknown: [Entry] = []
    ) throws {
        var entries: [(name: String, key: [UInt8], value: [UInt8])] = []
        func add(_ name: String, _ write: (inout CBORWriter) -> Void) {
            var key = CBORWriter()
            key.writeTextString(name)
            var value = CBORWriter()
            write(&value)
            entries.append((name, key.bytes, value.bytes))
        }
        if let credProtect { add("credProtect") { $0.writeUnsigned(UInt64(credProtect)) } }
        switch hmacSecret {
        case .enabled(let flag): add("hmac-secret") { $0.writeBool(flag) }
        case .output(let bytes): add("hmac-secret") { $0.writeByteString(bytes) }
        case nil: break
        }
        switch credBlob {
        case .stored(let flag): add("credBlob") { $0.writeBool(flag) }
        case .blob(let bytes): add("credBlob") { $0.writeByteString(bytes) }
        case nil: break
        }
        if let minPinLength { add("minPinLength") { $0.writeUnsigned(minPinLength) } }
        if let largeBlobKey { add("largeBlobKey") { $0.writeByteString(largeBlobKey) } }
        for entry in unknown {
            add(entry.identifier) { $0.writeEncodedItem(entry.encodedValue) }
        }
        entries.sort { CBORKeyOrder.compare($0.key, $1.key) < 0 }
        for (index, entry) in entries.enumerated().dropFirst()
        where entry.key == entries[index - 1].key {
            throw WebAuthnError(
                .invalidExtensions, "the identifier appears twice",
                field: "extensions.\(entry.name)")
        }
        var writer = CBORWriter(
            capacity: entries.reduce(CBORSize.head(UInt64(entries.count))) {
                $0 + $1.key.count + $1.value.count
            })
        writer.writeMapHeader(count: entries.count)
        for entry in entries {
            entry.key.withUnsafeBytes { writer.writeRawBytes($0) }
            entry.value.withUnsafeBytes { writer.writeRawBytes($0) }
        }
        self.bytes = writer.bytes[...]
        self.credProtect = credProtect
        self.hmacSecret = hmacSecret
        self.credBlob = credBlob
        self.minPinLength = minPinLength
        self.largeBlobKey = largeBlobKey
        self.unknown = unknown
    }

    /// Reads the map at the start of `bytes`, which must be all of it.
    ///
    /// - Throws: ``WebAuthnError`` `truncated` when the map is cut short, `trailingBytes` when
    ///   bytes follow it, `malformedCBOR` for bad CBOR, `invalidExtensions` for a non-text key or
    ///   a typed output of the wrong type. Offsets count from `base`.
    init(
        reading bytes: ArraySlice<UInt8>, options: CBORDecodingOptions, base: Int
    )
        throws(WebAuthnError)
    {
        let field = "extensions"
        let length = try readingCBOR(field, base: base) { () throws in
            try CBORReader.lengthOfFirstItem(in: bytes, options: options)
        }
        guard length == bytes.count else {
            throw WebAuthnError(
                .trailingBytes, "\(bytes.count - length) bytes follow the extensions map",
                field: field, offset: base + length)
        }
        var options = options
        options.checks.insert(.noTrailingBytes)
        var reader = try readingCBOR(field, base: base) { () throws in
            try CBORReader(bytes, options: options)
        }
        guard (try? reader.peekMajorType()) == .map else {
            throw WebAuthnError(
                .invalidExtensions, "extension outputs are a CBOR map", field: field, offset: base)
        }
        let count = try readingCBOR(field, base: base) { () throws in
            try reader.readMapHeader()
        }
        var credProtect: UInt8?
        var hmacSecret: HMACSecretOutput?
        var credBlob: CredBlobOutput?
        var minPinLength: UInt64?
        var largeBlobKey: [UInt8]?
        var unknown: [Entry] = []
        for _ in 0..<count {
            let keyOffset = base + reader.offset
            guard (try? reader.peekMajorType()) == .textString else {
                throw WebAuthnError(
                    .invalidExtensions, "extension identifiers are text strings", field: field,
                    offset: keyOffset)
            }
            let key = try readingCBOR(field, base: base) { () throws in
                try reader.readTextStringBytes()
            }
            let name = cborKeyName(key)
            let valueOffset = base + reader.offset
            let type = try readingCBOR(field, base: base) { () throws in
                try reader.peekMajorType()
            }
            func wrongType(_ expected: String) -> WebAuthnError {
                WebAuthnError(
                    .invalidExtensions, "expected \(expected), found \(type)",
                    field: "\(field).\(name)", offset: valueOffset)
            }
            switch name {
            case "credProtect":
                guard type == .unsigned,
                    let value = try? reader.readUnsigned(), let level = UInt8(exactly: value)
                else { throw wrongType("an unsigned integer up to 255") }
                credProtect = level
            case "hmac-secret":
                if type == .simpleOrFloat, let flag = try? reader.readBool() {
                    hmacSecret = .enabled(flag)
                } else if type == .byteString, let output = try? reader.readByteString() {
                    hmacSecret = .output(Array(output))
                } else {
                    throw wrongType("a boolean or a byte string")
                }
            case "credBlob":
                if type == .simpleOrFloat, let flag = try? reader.readBool() {
                    credBlob = .stored(flag)
                } else if type == .byteString, let blob = try? reader.readByteString() {
                    credBlob = .blob(Array(blob))
                } else {
                    throw wrongType("a boolean or a byte string")
                }
            case "minPinLength":
                guard type == .unsigned, let value = try? reader.readUnsigned() else {
                    throw wrongType("an unsigned integer")
                }
                minPinLength = value
            case "largeBlobKey":
                guard type == .byteString, let key = try? reader.readByteString() else {
                    throw wrongType("a byte string")
                }
                largeBlobKey = Array(key)
            default:
                let encoded = try readingCBOR(field, base: base) { () throws in
                    try reader.readEncodedItem()
                }
                unknown.append(Entry(identifier: name, encodedValue: encoded))
            }
        }
        self.bytes = bytes
        self.credProtect = credProtect
        self.hmacSecret = hmacSecret
        self.credBlob = credBlob
        self.minPinLength = minPinLength
        self.largeBlobKey = largeBlobKey
        self.unknown = unknown
    }

    /// Equal when the encodings are equal.
    public static func == (lhs: Self, rhs: Self) -> Bool { lhs.bytes == rhs.bytes }

    /// Hashes the encoding.
    public func hash(into hasher: inout Hasher) { hasher.combine(bytes) }
}
