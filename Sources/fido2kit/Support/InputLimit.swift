/// The most bytes a command reads from one input, by kind of input: the format's own limit
/// where it has one, so that an input the parser would refuse anyway is refused before it is
/// read into memory. docs/security.md lists them.
struct InputLimit {
    /// The limit in bytes.
    let bytes: Int
    /// What the input is, for messages.
    let what: String

    /// Binary CBOR on standard input: `CBORDecodingOptions.maximumInputSize`.
    static let cbor = InputLimit(bytes: 1 << 20, what: "CBOR input")
    /// CBOR as hexadecimal text: two digits per byte of the CBOR limit, and room for spacing.
    static let cborHex = InputLimit(bytes: 4 << 20, what: "hexadecimal CBOR input")
    /// WebAuthn JSON (options, responses): `JSONReader.Options.maximumInputLength`.
    static let webAuthnJSON = InputLimit(bytes: 4 << 20, what: "WebAuthn JSON")
    /// Belvo's JSON (FIDO options, payment intents, risk signals): a real one is a few KiB.
    static let belvoJSON = InputLimit(bytes: 1 << 20, what: "Belvo JSON")
    /// PEM keys and certificates: the crypto module's PEM limit.
    static let pem = InputLimit(bytes: 1 << 20, what: "PEM")
    /// Certificate revocation lists: the strict DER reader's limit for CRLs.
    static let crl = InputLimit(bytes: 16 << 20, what: "a certificate revocation list")
    /// FIDO metadata BLOBs: `MetadataBLOB.VerificationOptions.maximumSize` (production BLOBs
    /// are a few MiB).
    static let metadataBLOB = InputLimit(bytes: 64 << 20, what: "a metadata BLOB")
    /// Vector suite files: the JSON limit `vectors verify` reads them with.
    static let vectorSuite = InputLimit(bytes: 64 << 20, what: "a vector suite")

    /// `1 MiB`, `512 KiB` or `100 bytes`.
    var text: String {
        if bytes >= 1 << 20, bytes % (1 << 20) == 0 { return "\(bytes >> 20) MiB" }
        if bytes >= 1 << 10, bytes % (1 << 10) == 0 { return "\(bytes >> 10) KiB" }
        return "\(bytes) bytes"
    }
}
