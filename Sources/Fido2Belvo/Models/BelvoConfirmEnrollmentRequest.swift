import Fido2WebAuthnWire

/// The body of `POST /enrollments/{id}/confirm/`: the new credential for Belvo to register.
///
/// ```json
/// {"confirmation_data": {"authenticatorAttachment": "platform", "id": "<encodedId>",
///   "rawId": "<rawId>", "type": "public-key",
///   "response": {"attestationObject": "<encodedAttestationObject>",
///                "clientDataJSON": "<encodedClientDataJSON>"}}}
/// ```
/// The strings of the ``AttestationResponse`` are written as given, after validation.
public struct BelvoConfirmEnrollmentRequest: Sendable, Hashable {
    /// The registration result to send.
    public let attestation: AttestationResponse

    /// A confirm-enrollment request.
    ///
    /// - Throws: ``BelvoError/Code/invalidBase64URL`` naming the member that is not non-empty
    ///   unpadded base64url; ``BelvoError/Code/credentialIDMismatch`` when `encodedId` and
    ///   `rawId` decode to different bytes.
    public init(attestation: AttestationResponse) throws {
        let prefix = "confirmation_data"
        let id = try BelvoRequestValidation.base64URL(attestation.encodedId, "\(prefix).id")
        let rawId = try BelvoRequestValidation.base64URL(attestation.rawId, "\(prefix).rawId")
        guard id == rawId else {
            throw BelvoError(
                .credentialIDMismatch, "id and rawId name different credentials",
                field: "\(prefix).rawId")
        }
        _ = try BelvoRequestValidation.base64URL(
            attestation.encodedAttestationObject, "\(prefix).response.attestationObject")
        _ = try BelvoRequestValidation.base64URL(
            attestation.encodedClientDataJSON, "\(prefix).response.clientDataJSON")
        self.attestation = attestation
    }

    /// The JSON body, members in the documented order.
    public var body: [UInt8] {
        JSONBody.object([
            (
                "confirmation_data",
                .object([
                    ("authenticatorAttachment", .string("platform")),
                    ("id", .string(attestation.encodedId)),
                    ("rawId", .string(attestation.rawId)),
                    ("type", .string("public-key")),
                    (
                        "response",
                        .object([
                            ("attestationObject", .string(attestation.encodedAttestationObject)),
                            ("clientDataJSON", .string(attestation.encodedClientDataJSON)),
                        ])
                    ),
                ])
            )
        ]).bytes
    }

    /// The `confirmation_data` of a confirm-enrollment body, read as the WebAuthn registration
    /// response it is: what a relying party (Belvo, the bank, or a merchant's test) verifies.
    ///
    /// - Throws: ``BelvoError/Code/malformedRequestBody`` when `body` is not a JSON object with
    ///   a `confirmation_data` member that WebAuthn's `RegistrationResponseJSON` reader accepts
    ///   (the field names the member at fault).
    public static func registrationResponse(
        body: some Collection<UInt8>
    ) throws -> RegistrationResponseJSON {
        try RequestBodyReading.form(
            RegistrationResponseJSON.self, member: "confirmation_data", of: body,
            what: "confirm-enrollment")
    }
}
