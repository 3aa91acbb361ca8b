import Fido2CBOR

/// The attestation statement of an attestation object, typed by its format.
///
/// `none`, `packed` and `fido-u2f` statements can be built and signed here; `tpm`,
/// `android-key`, `android-safetynet` and `apple` statements are parsed into typed values for
/// the relying party to verify; a `compound` statement (WebAuthn Level 3 §8.9) holds its
/// entries, each typed by its own format. A format this library does not know is kept raw with
/// its name.
public enum AttestationStatement: Sendable, Equatable {
    /// `none`: an empty map.
    case none
    /// `packed`.
    case packed(PackedAttestationStatement)
    /// `fido-u2f`.
    case fidoU2F(FIDOU2FAttestationStatement)
    /// `tpm`.
    case tpm(TPMAttestationStatement)
    /// `android-key`.
    case androidKey(AndroidKeyAttestationStatement)
    /// `android-safetynet`.
    case androidSafetyNet(AndroidSafetyNetAttestationStatement)
    /// `apple`.
    case apple(AppleAttestationStatement)
    /// `compound` (WebAuthn Level 3 §8.9): at least two statements of other formats over the
    /// same authenticator data and client data hash, in order. Parsing refuses fewer than two
    /// entries and a nested `compound` entry.
    case compound([AttestationStatement])
    /// Any other format: its name and the encoded `attStmt` map.
    case unknown(format: String, encoded: ArraySlice<UInt8>)

    /// The format identifier that goes in `fmt`.
    public var format: String {
        switch self {
        case .none: "none"
        case .packed: "packed"
        case .fidoU2F: "fido-u2f"
        case .tpm: "tpm"
        case .androidKey: "android-key"
        case .androidSafetyNet: "android-safetynet"
        case .apple: "apple"
        case .compound: Self.compoundFormat
        case .unknown(let format, _): format
        }
    }

    /// Parses the statement of format `format` from its encoded map.
    ///
    /// - Throws: ``WebAuthnError`` `invalidAttestationStatement` for a missing, unexpected or
    ///   mistyped member (naming it); `malformedCBOR`; the TPM and JWS errors of the formats
    ///   that embed them; for `compound`, the errors of ``compoundEntries(_:options:base:)``.
    ///   Offsets count from `base`.
    init(
        format: String, encoded: ArraySlice<UInt8>, options: CBORDecodingOptions, base: Int
    ) throws(WebAuthnError) {
        switch format {
        case "none":
            var map = try StatementMapReader(encoded, format: "none", options: options, base: base)
            try map.members { (_, _) throws(WebAuthnError) in false }
            self = .none
        case "packed":
            self = .packed(
                try PackedAttestationStatement(reading: encoded, options: options, base: base))
        case "fido-u2f":
            self = .fidoU2F(
                try FIDOU2FAttestationStatement(reading: encoded, options: options, base: base))
        case "tpm":
            self = .tpm(try TPMAttestationStatement(reading: encoded, options: options, base: base))
        case "android-key":
            self = .androidKey(
                try AndroidKeyAttestationStatement(reading: encoded, options: options, base: base))
        case "android-safetynet":
            self = .androidSafetyNet(
                try AndroidSafetyNetAttestationStatement(
                    reading: encoded, options: options, base: base))
        case "apple":
            self = .apple(
                try AppleAttestationStatement(reading: encoded, options: options, base: base))
        case Self.compoundFormat:
            self = .compound(try Self.compoundEntries(encoded, options: options, base: base))
        default:
            _ = try StatementMapReader(encoded, format: format, options: options, base: base)
            self = .unknown(format: format, encoded: encoded)
        }
    }

    /// The encoded size of the `attStmt` map.
    var encodedCount: Int {
        switch self {
        case .none: 1
        case .packed(let statement): statement.encodedCount
        case .fidoU2F(let statement): statement.encodedCount
        case .tpm(let statement): statement.encodedCount
        case .androidKey(let statement): statement.encodedCount
        case .androidSafetyNet(let statement): statement.encodedCount
        case .apple(let statement): statement.encodedCount
        case .compound(let entries): Self.compoundEncodedCount(entries)
        case .unknown(_, let encoded): encoded.count
        }
    }

    /// Writes the `attStmt` map.
    func write<Output: CBOROutput>(to writer: inout Output) {
        switch self {
        case .none: writer.writeMapHeader(count: 0)
        case .packed(let statement): statement.write(to: &writer)
        case .fidoU2F(let statement): statement.write(to: &writer)
        case .tpm(let statement): statement.write(to: &writer)
        case .androidKey(let statement): statement.write(to: &writer)
        case .androidSafetyNet(let statement): statement.write(to: &writer)
        case .apple(let statement): statement.write(to: &writer)
        case .compound(let entries): Self.writeCompound(entries, to: &writer)
        case .unknown(_, let encoded): writer.writeEncodedItem(encoded)
        }
    }
}
