@_spi(Fido2Internals) import Fido2Encoding

/// The authenticator's answer to an authentication, in `AuthenticationResponseJSON.response`
/// (WebAuthn Level 3 `AuthenticatorAssertionResponseJSON`).
public struct AuthenticatorAssertionResponseJSON: WebAuthnJSONForm {
    /// The exact clientDataJSON bytes whose hash was signed (base64url in JSON).
    public var clientDataJSON: [UInt8]
    /// The authenticator data that was signed.
    public var authenticatorData: [UInt8]
    /// The signature over `authenticatorData || SHA-256(clientDataJSON)`.
    public var signature: [UInt8]
    /// The user handle of a discoverable credential.
    public var userHandle: [UInt8]?

    /// An assertion response.
    public init(
        clientDataJSON: [UInt8], authenticatorData: [UInt8], signature: [UInt8],
        userHandle: [UInt8]? = nil
    ) {
        self.clientDataJSON = clientDataJSON
        self.authenticatorData = authenticatorData
        self.signature = signature
        self.userHandle = userHandle
    }

    /// Reads the response; unknown members are ignored.
    ///
    /// - Throws: ``WebAuthnError`` naming the missing or mistyped member.
    @_spi(Fido2Internals) public init(scanning scanner: inout JSONScanner) throws(WebAuthnError) {
        var clientDataJSON: [UInt8]?
        var authenticatorData: [UInt8]?
        var signature: [UInt8]?
        var userHandle: [UInt8]?
        try scanner.members { (scanner, member) throws(WebAuthnError) in
            switch member {
            case "clientDataJSON": clientDataJSON = try scanner.base64URL()
            case "authenticatorData": authenticatorData = try scanner.base64URL()
            case "signature": signature = try scanner.base64URL()
            case "userHandle":
                userHandle = try scanner.optional { (scanner) throws(WebAuthnError) in
                    try scanner.base64URL()
                }
            default: try scanner.skip()
            }
        }
        guard let clientDataJSON else { throw missingMember("clientDataJSON") }
        guard let authenticatorData else { throw missingMember("authenticatorData") }
        guard let signature else { throw missingMember("signature") }
        self.init(
            clientDataJSON: clientDataJSON, authenticatorData: authenticatorData,
            signature: signature, userHandle: userHandle)
    }

    /// Writes the response, members in IDL order.
    public func write(to writer: inout JSONWriter) {
        writer.beginObject()
        writer.name("clientDataJSON")
        writer.base64URL(clientDataJSON)
        writer.name("authenticatorData")
        writer.base64URL(authenticatorData)
        writer.name("signature")
        writer.base64URL(signature)
        if let userHandle {
            writer.name("userHandle")
            writer.base64URL(userHandle)
        }
        writer.endObject()
    }

    /// Base64url sizes plus member names and punctuation.
    public var estimatedJSONLength: Int {
        let binary =
            clientDataJSON.count + authenticatorData.count + signature.count
            + (userHandle?.count ?? 0)
        return binary / 3 * 4 + 128
    }
}
