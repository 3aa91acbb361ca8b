import Fido2CBOR
import Fido2Crypto

/// An `android-key` attestation statement (WebAuthn §8.4): `{alg, sig, x5c}`, signed by the
/// credential key inside Android's keystore; the leaf certificate's key is the credential key
/// and carries the KeyDescription extension. Parsed here; verified by the relying party.
public struct AndroidKeyAttestationStatement: Sendable, Equatable {
    /// The signature's algorithm.
    public let algorithm: COSEAlgorithm
    /// The signature over authenticatorData ‖ clientDataHash.
    public let signature: ArraySlice<UInt8>
    /// The keystore's certificate chain (DER, leaf first).
    public let certificates: [ArraySlice<UInt8>]

    /// A statement from its members.
    public init(algorithm: COSEAlgorithm, signature: [UInt8], certificates: [[UInt8]]) {
        self.algorithm = algorithm
        self.signature = signature[...]
        self.certificates = certificates.map { $0[...] }
    }

    init(
        reading encoded: ArraySlice<UInt8>, options: CBORDecodingOptions, base: Int
    )
        throws(WebAuthnError)
    {
        var map = try StatementMapReader(
            encoded, format: "android-key", options: options, base: base)
        var algorithm: COSEAlgorithm?
        var signature: ArraySlice<UInt8>?
        var certificates: [ArraySlice<UInt8>]?
        try map.members { (map, name) throws(WebAuthnError) in
            switch name {
            case "alg": algorithm = try map.algorithm(name)
            case "sig": signature = try map.bytes(name)
            case "x5c": certificates = try map.certificates(name)
            default: return false
            }
            return true
        }
        guard let algorithm else { throw map.missing("alg") }
        guard let signature else { throw map.missing("sig") }
        guard let certificates else { throw map.missing("x5c") }
        self.algorithm = algorithm
        self.signature = signature
        self.certificates = certificates
    }

    var encodedCount: Int {
        1 + StatementSize.text(3) + CBORSize.int(Int64(algorithm.rawValue))
            + StatementSize.text(3) + StatementSize.bytes(signature.count)
            + StatementSize.text(3) + StatementSize.certificates(certificates)
    }

    func write<Output: CBOROutput>(to writer: inout Output) {
        writer.writeMapHeader(count: 3)
        writer.writeTextLiteral("alg")
        writer.writeInt(algorithm.rawValue)
        writer.writeTextLiteral("sig")
        writer.writeByteString(signature)
        writer.writeTextLiteral("x5c")
        writer.writeCertificates(certificates)
    }
}
