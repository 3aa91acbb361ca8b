@_spi(Fido2Internals) import Fido2Encoding

/// The authenticator's answer to a registration, in `RegistrationResponseJSON.response`
/// (WebAuthn Level 3 `AuthenticatorAttestationResponseJSON`).
///
/// Level 3 makes `authenticatorData`, `transports` and `publicKeyAlgorithm` required, but
/// responses from older clients and libraries omit them, so they are optional here.
public struct AuthenticatorAttestationResponseJSON: WebAuthnJSONForm {
    /// The exact clientDataJSON bytes the authenticator signed over (base64url in JSON).
    public var clientDataJSON: [UInt8]
    /// The authenticator data, a copy of the one inside the attestation object.
    public var authenticatorData: [UInt8]?
    /// How the authenticator can be reached.
    public var transports: [AuthenticatorTransport]?
    /// The credential public key as DER SubjectPublicKeyInfo, when the client could express it.
    public var publicKey: [UInt8]?
    /// The credential's COSE algorithm identifier.
    public var publicKeyAlgorithm: Int?
    /// The CBOR attestation object.
    public var attestationObject: [UInt8]

    /// An attestation response.
    public init(
        clientDataJSON: [UInt8], authenticatorData: [UInt8]? = nil,
        transports: [AuthenticatorTransport]? = nil, publicKey: [UInt8]? = nil,
        publicKeyAlgorithm: Int? = nil, attestationObject: [UInt8]
    ) {
        self.clientDataJSON = clientDataJSON
        self.authenticatorData = authenticatorData
        self.transports = transports
        self.publicKey = publicKey
        self.publicKeyAlgorithm = publicKeyAlgorithm
        self.attestationObject = attestationObject
    }

    /// Reads the response; unknown members are ignored.
    ///
    /// - Throws: ``WebAuthnError`` naming the missing or mistyped member.
    @_spi(Fido2Internals) public init(scanning scanner: inout JSONScanner) throws(WebAuthnError) {
        var clientDataJSON: [UInt8]?
        var attestationObject: [UInt8]?
        var response = AuthenticatorAttestationResponseJSON(
            clientDataJSON: [], attestationObject: [])
        try scanner.members { (scanner, member) throws(WebAuthnError) in
            switch member {
            case "clientDataJSON": clientDataJSON = try scanner.base64URL()
            case "authenticatorData":
                response.authenticatorData = try scanner.optional {
                    (scanner) throws(WebAuthnError) in
                    try scanner.base64URL()
                }
            case "transports":
                response.transports = try scanner.optional { (scanner) throws(WebAuthnError) in
                    try scanner.enumerations()
                }
            case "publicKey":
                response.publicKey = try scanner.optional { (scanner) throws(WebAuthnError) in
                    try scanner.base64URL()
                }
            case "publicKeyAlgorithm":
                response.publicKeyAlgorithm = try scanner.optional {
                    (scanner) throws(WebAuthnError) in try scanner.long()
                }
            case "attestationObject": attestationObject = try scanner.base64URL()
            default: try scanner.skip()
            }
        }
        guard let clientDataJSON else { throw missingMember("clientDataJSON") }
        guard let attestationObject else { throw missingMember("attestationObject") }
        response.clientDataJSON = clientDataJSON
        response.attestationObject = attestationObject
        self = response
    }

    /// Writes the response, members in IDL order.
    public func write(to writer: inout JSONWriter) {
        writer.beginObject()
        writer.name("clientDataJSON")
        writer.base64URL(clientDataJSON)
        if let authenticatorData {
            writer.name("authenticatorData")
            writer.base64URL(authenticatorData)
        }
        if let transports {
            writer.name("transports")
            writer.enumerations(transports)
        }
        if let publicKey {
            writer.name("publicKey")
            writer.base64URL(publicKey)
        }
        if let publicKeyAlgorithm {
            writer.name("publicKeyAlgorithm")
            writer.number(publicKeyAlgorithm)
        }
        writer.name("attestationObject")
        writer.base64URL(attestationObject)
        writer.endObject()
    }

    /// Base64url sizes plus member names and punctuation.
    public var estimatedJSONLength: Int {
        let binary =
            clientDataJSON.count + (authenticatorData?.count ?? 0) + (publicKey?.count ?? 0)
            + attestationObject.count
        return binary / 3 * 4 + 256 + (transports?.count ?? 0) * 16
    }
}
