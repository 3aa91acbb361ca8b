import Fido2WebAuthnWire

/// The body of `POST /payment-intents/{id}/authorize/`: the payer's signed approval.
///
/// ```json
/// {"risk_signals": {…},
///  "assertion": {"authenticatorAttachment": "platform", "id": "<encodedId>", "rawId": "<rawId>",
///    "response": {"authenticatorData": "…", "clientDataJSON": "…", "signature": "…",
///                 "userHandle": "…"},
///    "type": "public-key"}}
/// ```
/// Two editions: the API guide's body above, and the SDK's `AuthorizePaymentIntentPayload`,
/// which adds `"platform": "ios"` first (pass ``iosPlatform``). The risk signals are embedded
/// byte for byte; the assertion strings are written as given, after validation.
public struct BelvoAuthorizePaymentRequest: Sendable, Hashable {
    /// The `platform` value of the SDK edition.
    public static let iosPlatform = "ios"

    /// The device's fresh risk signals.
    public let riskSignals: BelvoRiskSignals
    /// The authentication result to send.
    public let assertion: AssertionResponse
    /// The `platform` member (SDK edition), or nil to leave it out (API guide edition).
    public let platform: String?

    /// An authorize-payment request.
    ///
    /// - Throws: ``BelvoError/Code/invalidBase64URL`` naming the assertion member that is not
    ///   non-empty unpadded base64url; ``BelvoError/Code/credentialIDMismatch`` when
    ///   `encodedId` and `rawId` decode to different bytes; ``BelvoError/Code/missingField``
    ///   when `platform` is given but empty.
    public init(
        riskSignals: BelvoRiskSignals, assertion: AssertionResponse, platform: String? = nil
    ) throws {
        let id = try BelvoRequestValidation.base64URL(assertion.encodedId, "assertion.id")
        let rawId = try BelvoRequestValidation.base64URL(assertion.rawId, "assertion.rawId")
        guard id == rawId else {
            throw BelvoError(
                .credentialIDMismatch, "id and rawId name different credentials",
                field: "assertion.rawId")
        }
        for (value, name) in [
            (assertion.authenticatorData, "authenticatorData"),
            (assertion.clientDataJSON, "clientDataJSON"), (assertion.signature, "signature"),
            (assertion.userHandle, "userHandle"),
        ] {
            _ = try BelvoRequestValidation.base64URL(value, "assertion.response.\(name)")
        }
        if let platform { _ = try BelvoRequestValidation.required(platform, "platform") }
        self.riskSignals = riskSignals
        self.assertion = assertion
        self.platform = platform
    }

    /// The JSON body, members in the documented order.
    public var body: [UInt8] {
        var members = [(String, JSONBody)]()
        if let platform { members.append(("platform", .string(platform))) }
        members.append(("risk_signals", .raw(riskSignals.json)))
        members.append(
            (
                "assertion",
                .object([
                    ("authenticatorAttachment", .string("platform")),
                    ("id", .string(assertion.encodedId)),
                    ("rawId", .string(assertion.rawId)),
                    (
                        "response",
                        .object([
                            ("authenticatorData", .string(assertion.authenticatorData)),
                            ("clientDataJSON", .string(assertion.clientDataJSON)),
                            ("signature", .string(assertion.signature)),
                            ("userHandle", .string(assertion.userHandle)),
                        ])
                    ),
                    ("type", .string("public-key")),
                ])
            ))
        return JSONBody.object(members).bytes
    }

    /// The `assertion` of an authorize-payment body (either edition), read as the WebAuthn
    /// authentication response it is: what a relying party verifies.
    ///
    /// - Throws: ``BelvoError/Code/malformedRequestBody`` when `body` is not a JSON object with
    ///   an `assertion` member that WebAuthn's `AuthenticationResponseJSON` reader accepts (the
    ///   field names the member at fault).
    public static func authenticationResponse(
        body: some Collection<UInt8>
    ) throws -> AuthenticationResponseJSON {
        try RequestBodyReading.form(
            AuthenticationResponseJSON.self, member: "assertion", of: body,
            what: "authorize-payment")
    }
}
