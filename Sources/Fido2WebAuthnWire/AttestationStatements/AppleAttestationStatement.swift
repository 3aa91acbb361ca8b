import Fido2CBOR
import Fido2Crypto

/// An `apple` anonymous attestation statement (WebAuthn §8.8): `{x5c}`; the leaf certificate
/// carries the nonce extension and the credential key. Parsed here; verified by the relying
/// party. Apple devices also send `alg` (-7), which the specification does not define; it is
/// read and kept.
public struct AppleAttestationStatement: Sendable, Equatable {
    /// The certificate chain (DER, leaf first).
    public let certificates: [ArraySlice<UInt8>]
    /// The `alg` member that Apple devices add, when present.
    public let algorithm: COSEAlgorithm?

    /// A statement from its chain (and the `alg` Apple devices add).
    public init(certificates: [[UInt8]], algorithm: COSEAlgorithm? = nil) {
        self.certificates = certificates.map { $0[...] }
        self.algorithm = algorithm
    }

    init(
        reading encoded: ArraySlice<UInt8>, options: CBORDecodingOptions, base: Int
    )
        throws(WebAuthnError)
    {
        var map = try StatementMapReader(encoded, format: "apple", options: options, base: base)
        var certificates: [ArraySlice<UInt8>]?
        var algorithm: COSEAlgorithm?
        try map.members { (map, name) throws(WebAuthnError) in
            switch name {
            case "x5c": certificates = try map.certificates(name)
            case "alg": algorithm = try map.algorithm(name)
            default: return false
            }
            return true
        }
        guard let certificates else { throw map.missing("x5c") }
        self.certificates = certificates
        self.algorithm = algorithm
    }

    var encodedCount: Int {
        1 + StatementSize.text(3) + StatementSize.certificates(certificates)
            + (algorithm.map { StatementSize.text(3) + CBORSize.int(Int64($0.rawValue)) } ?? 0)
    }

    func write<Output: CBOROutput>(to writer: inout Output) {
        writer.writeMapHeader(count: algorithm == nil ? 1 : 2)
        if let algorithm {
            writer.writeTextLiteral("alg")
            writer.writeInt(algorithm.rawValue)
        }
        writer.writeTextLiteral("x5c")
        writer.writeCertificates(certificates)
    }
}
