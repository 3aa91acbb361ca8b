import Fido2CBOR
import Fido2Crypto

/// A `tpm` attestation statement (WebAuthn §8.3): `{ver, alg, x5c, sig, certInfo, pubArea}`.
/// `certInfo` and `pubArea` are parsed into `TPMS_ATTEST` and `TPMT_PUBLIC` structures;
/// verifying them is the relying party's work.
public struct TPMAttestationStatement: Sendable, Equatable {
    /// `ver`: "2.0".
    public let version: String
    /// The algorithm of `sig`.
    public let algorithm: COSEAlgorithm
    /// The AIK certificate and its chain (DER, leaf first).
    public let certificates: [ArraySlice<UInt8>]
    /// The AIK's signature over `certInfo`.
    public let signature: ArraySlice<UInt8>
    /// `certInfo`, parsed.
    package let certInfo: TPMSAttest
    /// `pubArea`, parsed.
    package let pubArea: TPMTPublic

    init(
        reading encoded: ArraySlice<UInt8>, options: CBORDecodingOptions, base: Int
    )
        throws(WebAuthnError)
    {
        var map = try StatementMapReader(encoded, format: "tpm", options: options, base: base)
        var version: String?
        var algorithm: COSEAlgorithm?
        var certificates: [ArraySlice<UInt8>]?
        var signature: ArraySlice<UInt8>?
        var certInfo: TPMSAttest?
        var pubArea: TPMTPublic?
        try map.members { (map, name) throws(WebAuthnError) in
            switch name {
            case "ver": version = try map.text(name)
            case "alg": algorithm = try map.algorithm(name)
            case "x5c": certificates = try map.certificates(name)
            case "sig": signature = try map.bytes(name)
            case "certInfo":
                certInfo = try withinField("attStmt") { () throws(WebAuthnError) in
                    try TPMSAttest(bytes: try map.bytes(name))
                }
            case "pubArea":
                pubArea = try withinField("attStmt") { () throws(WebAuthnError) in
                    try TPMTPublic(bytes: try map.bytes(name))
                }
            default: return false
            }
            return true
        }
        guard let version else { throw map.missing("ver") }
        guard let algorithm else { throw map.missing("alg") }
        guard let certificates else { throw map.missing("x5c") }
        guard let signature else { throw map.missing("sig") }
        guard let certInfo else { throw map.missing("certInfo") }
        guard let pubArea else { throw map.missing("pubArea") }
        self.version = version
        self.algorithm = algorithm
        self.certificates = certificates
        self.signature = signature
        self.certInfo = certInfo
        self.pubArea = pubArea
    }

    var encodedCount: Int {
        1 + StatementSize.text(3) + StatementSize.text(version.utf8.count)
            + StatementSize.text(3) + CBORSize.int(Int64(algorithm.rawValue))
            + StatementSize.text(3) + StatementSize.bytes(signature.count)
            + StatementSize.text(3) + StatementSize.certificates(certificates)
            + StatementSize.text(7) + StatementSize.bytes(pubArea.bytes.count)
            + StatementSize.text(8) + StatementSize.bytes(certInfo.bytes.count)
    }

    /// Writes the statement in CTAP2 canonical key order (alg, sig, ver, x5c, pubArea,
    /// certInfo).
    func write<Output: CBOROutput>(to writer: inout Output) {
        writer.writeMapHeader(count: 6)
        writer.writeTextLiteral("alg")
        writer.writeInt(algorithm.rawValue)
        writer.writeTextLiteral("sig")
        writer.writeByteString(signature)
        writer.writeTextLiteral("ver")
        writer.writeTextString(version)
        writer.writeTextLiteral("x5c")
        writer.writeCertificates(certificates)
        writer.writeTextLiteral("pubArea")
        writer.writeByteString(pubArea.bytes)
        writer.writeTextLiteral("certInfo")
        writer.writeByteString(certInfo.bytes)
    }
}
