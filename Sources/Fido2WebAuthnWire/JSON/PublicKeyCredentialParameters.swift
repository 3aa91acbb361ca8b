import Fido2Crypto
@_spi(Fido2Internals) import Fido2Encoding

/// One acceptable credential type and algorithm (WebAuthn `PublicKeyCredentialParameters`).
public struct PublicKeyCredentialParameters: WebAuthnJSONForm {
    /// The credential type; `public-key` is the only one defined, others are kept as read.
    public var type: String
    /// The COSE algorithm identifier (a WebIDL `long`): -7 ES256, -257 RS256, -8 EdDSA, …
    public var alg: Int

    /// Parameters for `alg`, of type `public-key` unless told otherwise.
    public init(type: String = "public-key", alg: Int) {
        self.type = type
        self.alg = alg
    }

    /// Parameters for a `public-key` credential of `algorithm`:
    /// `PublicKeyCredentialParameters(algorithm: .es256)`.
    public init(algorithm: COSEAlgorithm) {
        self.init(alg: algorithm.rawValue)
    }

    /// `alg` as a `COSEAlgorithm` (which keeps identifiers it does not name).
    public var algorithm: COSEAlgorithm { COSEAlgorithm(rawValue: alg) }

    /// Reads `{type, alg}`; unknown members are ignored.
    ///
    /// - Throws: ``WebAuthnError`` naming the missing or mistyped member; `invalidValue` when
    ///   `alg` is outside the 32-bit range of a WebIDL `long`.
    @_spi(Fido2Internals) public init(scanning scanner: inout JSONScanner) throws(WebAuthnError) {
        var type: String?
        var alg: Int?
        try scanner.members { (scanner, member) throws(WebAuthnError) in
            switch member {
            case "type": type = try scanner.string()
            case "alg": alg = try scanner.long()
            default: try scanner.skip()
            }
        }
        guard let type else { throw missingMember("type") }
        guard let alg else { throw missingMember("alg") }
        self.init(type: type, alg: alg)
    }

    /// Writes `{"type":…,"alg":…}`.
    public func write(to writer: inout JSONWriter) {
        writer.beginObject()
        writer.name("type")
        writer.string(type)
        writer.name("alg")
        writer.number(alg)
        writer.endObject()
    }
}
