@_spi(Fido2Internals) import Fido2Encoding

/// A new credential as the client hands it to the relying party (WebAuthn Level 3
/// `RegistrationResponseJSON`): a public key credential whose response is an
/// ``AuthenticatorAttestationResponseJSON``.
public typealias RegistrationResponseJSON = PublicKeyCredentialJSON<
    AuthenticatorAttestationResponseJSON
>

/// An assertion as the client hands it to the relying party (WebAuthn Level 3
/// `AuthenticationResponseJSON`): a public key credential whose response is an
/// ``AuthenticatorAssertionResponseJSON``.
public typealias AuthenticationResponseJSON = PublicKeyCredentialJSON<
    AuthenticatorAssertionResponseJSON
>

/// A public key credential as the client hands it to the relying party, the one shape of both
/// ceremonies' responses (``RegistrationResponseJSON``, ``AuthenticationResponseJSON``):
/// `id`, `rawId`, the authenticator's `response`, `authenticatorAttachment`,
/// `clientExtensionResults` and `type`.
///
/// `id` is always the base64url of `rawId`, so only `rawId` is stored; reading checks that the
/// two agree. `type` is always `public-key`. A missing `clientExtensionResults` (required by the
/// IDL, omitted by some libraries) reads as an empty object.
public struct PublicKeyCredentialJSON<Response: WebAuthnJSONForm>: WebAuthnJSONForm {
    /// The credential ID.
    public var rawId: [UInt8]
    /// The authenticator's response.
    public var response: Response
    /// Whether a platform or roaming authenticator answered, when the client says.
    public var authenticatorAttachment: AuthenticatorAttachment?
    /// The client extension outputs, kept as raw JSON.
    public var clientExtensionResults: JSONObject

    /// The credential ID as base64url, the `id` member.
    public var id: String { Base64URL.encode(rawId) }

    /// A credential with `response`.
    public init(
        rawId: [UInt8], response: Response,
        authenticatorAttachment: AuthenticatorAttachment? = nil,
        clientExtensionResults: JSONObject = [:]
    ) {
        self.rawId = rawId
        self.response = response
        self.authenticatorAttachment = authenticatorAttachment
        self.clientExtensionResults = clientExtensionResults
    }

    /// Reads the response; unknown members are ignored.
    ///
    /// - Throws: ``WebAuthnError``: `missingMember`, `wrongType` or `invalidBase64URL` naming the
    ///   member (`response.attestationObject`, `response.signature`, …); `invalidValue` when
    ///   `type` is not `public-key` or `id` does not encode `rawId`.
    @_spi(Fido2Internals) public init(scanning scanner: inout JSONScanner) throws(WebAuthnError) {
        var ids = CredentialFields()
        var response: Response?
        var authenticatorAttachment: AuthenticatorAttachment?
        var clientExtensionResults: JSONObject = [:]
        try scanner.members { (scanner, member) throws(WebAuthnError) in
            switch member {
            case "id", "rawId", "type": try ids.read(member, from: &scanner)
            case "response": response = try scanner.form()
            case "authenticatorAttachment":
                authenticatorAttachment = try scanner.optional { (scanner) throws(WebAuthnError) in
                    AuthenticatorAttachment(rawValue: try scanner.string())
                }
            case "clientExtensionResults":
                clientExtensionResults =
                    try scanner.optional { (scanner) throws(WebAuthnError) in
                        try scanner.rawObject()
                    } ?? [:]
            default: try scanner.skip()
            }
        }
        let rawId = try ids.checkedRawId()
        guard let response else { throw missingMember("response") }
        self.init(
            rawId: rawId, response: response, authenticatorAttachment: authenticatorAttachment,
            clientExtensionResults: clientExtensionResults)
    }

    /// Writes the response, members in IDL order.
    public func write(to writer: inout JSONWriter) {
        writer.beginObject()
        CredentialFields.writeIds(rawId, to: &writer)
        writer.name("response")
        writer.form(response)
        if let authenticatorAttachment {
            writer.name("authenticatorAttachment")
            writer.string(authenticatorAttachment.rawValue)
        }
        writer.name("clientExtensionResults")
        writer.object(clientExtensionResults)
        writer.name("type")
        writer.string("public-key")
        writer.endObject()
    }

    /// The response's estimate plus the two IDs and the outer members.
    public var estimatedJSONLength: Int {
        response.estimatedJSONLength + rawId.count / 3 * 8 + 160
            + JSONWriter.serializedLength(of: .object(clientExtensionResults))
    }
}
