import Fido2CBOR

/// An `apple` anonymous attestation statement (WebAuthn §8.8): `{x5c}` only; the leaf
/// certificate carries the nonce extension and the credential key. Parsed here; verified by the
/// relying party.
public struct AppleAttestationStatement: Sendable, Equatable {
    /// The certificate chain (DER, leaf first).
    public let certificates: [ArraySlice<UInt8>]

    /// A statement from its chain.
    public init(certificates: [[UInt8]]) {
        self.certificates = certificates.map { $0[...] }
    }

    init(reading encoded: ArraySlice<UInt8>, options: CBORDecodingOptions, base: Int)
        throws(WebAuthnError)
    {
        var map = try StatementMapReader(encoded, format: "apple", options: options, base: base)
        var certificates: [ArraySlice<UInt8>]?
        try map.members { (map, name) throws(WebAuthnError) in
            guard name == "x5c" else { return false }
            certificates = try map.certificates(name)
            return true
        }
        guard let certificates else { throw map.missing("x5c") }
        self.certificates = certificates
    }

    var encodedCount: Int { 1 + StatementSize.text(3) + StatementSize.certificates(certificates) }

    func write<Output: CBOROutput>(to writer: inout Output) {
        writer.writeMapHeader(count: 1)
        writer.writeTextLiteral("x5c")
        writer.writeCertificates(certificates)
    }
}
